package dev.ralon.conformance;

import dev.ralon.conformance.ConformanceKit.Report;
import dev.ralon.conformance.ConformanceKit.Verdict;
import dev.ralon.enforcer.spi.Guarantee;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a run tells outside JUnit: a summary per guarantee on standard output, and, when the system property
 * {@link ConformanceKit#RESULTS_PROPERTY} names a directory, one tab-separated line per (attack × kind) in
 * {@code BACKEND-uidUID.tsv} there (for tables such as docs/conformance.md's results matrix).
 */
final class KitReports {
    private KitReports() {
    }

    /** Prints "ralon conformance kit: backend NAME, uid UID" and each guarantee's status. */
    static void print(Report rep) {
        StringBuilder summary = new StringBuilder("ralon conformance kit: backend " + rep.backend() + ", uid " + rep.uid() + "\n");
        for (Guarantee g : Guarantee.values()) {
            summary.append("  ").append(g.id()).append(": ").append(rep.status(g)).append('\n');
        }
        System.out.print(summary);
    }

    /** Writes the run's lines when {@link ConformanceKit#RESULTS_PROPERTY} is set; does nothing otherwise. */
    static void writeTsv(Report rep) throws IOException {
        String resultsDir = System.getProperty(ConformanceKit.RESULTS_PROPERTY);
        if (resultsDir != null) {
            // one line per (attack x kind): for tables such as docs/conformance.md's results matrix
            StringBuilder tsv = new StringBuilder();
            for (Verdict v : rep.verdicts()) {
                tsv.append(v.attack().id()).append('\t').append(v.kind().id()).append('\t')
                        .append(v.attack().guarantee().id()).append('\t').append(v.declared() ? "declared" : "undeclared")
                        .append('\t').append(v.notJudged() != null ? "not-judged" : v.brokeThrough() ? "through" : "blocked")
                        .append('\t').append(v.notJudged() != null ? "not-judged" : v.passed() ? "pass" : "FAIL").append('\n');
            }
            Path dir = Files.createDirectories(Path.of(resultsDir));
            Files.writeString(dir.resolve(rep.backend() + "-uid" + rep.uid() + ".tsv"), tsv.toString());
        }
    }
}
