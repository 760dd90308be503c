package dev.ralon.cli;

import dev.ralon.spec.VectorRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reference through the protocol of spec §12: policy-spec's {@link VectorRunner} feeds every vector (end-to-end
 * fixtures, policy files, patterns) to the real {@code cli/target/ralon check} as a child process, as it would to any
 * other implementation, and every one must pass, with the counts the vector files plan (the counts spec §12.3 quotes,
 * pinned by policy-spec's {@code SpecCountsTest}). And the runner's own isolation (spec §12.3): against
 * {@code ralon check} deliberately broken in one place, given by a relative path (the runner resolves IMPL before it
 * enters each fixture directory), exactly the vectors of that place fail.
 */
class SpecVectorsE2ETest {
    @TempDir
    Path dir;

    private static String exe() {
        String exe = System.getProperty("ralon.executable");
        assertNotNull(exe, "system property ralon.executable is not set (the cli pom sets it for the e2e execution)");
        assertTrue(Files.isExecutable(Path.of(exe)), exe);
        return exe;
    }

    /** Runs the runner on {@code files} against {@code impl}, printing its report; returns the reports and the text. */
    private static Run run(List<String> impl, List<String> files) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        List<VectorRunner.FileReport> reports;
        try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            reports = new VectorRunner(impl, out, false).run(files);
        }
        String report = buf.toString(StandardCharsets.UTF_8);
        System.out.print(report);
        return new Run(reports, report);
    }

    private record Run(List<VectorRunner.FileReport> reports, String text) {
    }

    @Test
    void ralonCheckPassesEveryVectorThroughTheProtocol() {
        Run run = run(List.of(exe(), "check"), List.of("e2e.json", "policies.json", "match.json"));
        assertEquals(3, run.reports().size(), run.text());
        List<VectorRunner.Planned> planned = VectorRunner.planned();
        for (int i = 0; i < 3; i++) {
            VectorRunner.FileReport r = run.reports().get(i);
            assertEquals(List.of(), r.failures(), r.file() + "\n" + run.text());
            assertEquals(planned.get(i).file(), r.file());
            assertEquals(planned.get(i).questions(), r.passed(), r.file() + ": vectors asked\n" + run.text());
            assertEquals(planned.get(i).notExpressible(), r.skipped(), r.file() + ": not expressible\n" + run.text());
        }
        assertTrue(run.text().contains("(100%)"), run.text());
    }

    /**
     * A wrapper of {@code ralon check} (a shell script, named to the runner by a path relative to the test's working
     * directory) that misbehaves as {@code broken} says, then runs ralon with stdout piped through {@code filter}.
     */
    private List<String> broken(String name, String broken, String filter) throws IOException {
        Path script = dir.resolve(name);
        // ralon's answer through the filter, with ralon's exit status
        Files.writeString(script, "#!/bin/sh\nPATH=/usr/bin:/bin\n" + broken + "\nout=$(\"" + exe()
                + "\" check \"$@\"); status=$?\nprintf '%s\\n' \"$out\" | " + filter + "\nexit $status\n");
        assertTrue(script.toFile().setExecutable(true), script.toString());
        Path relative = Path.of("").toAbsolutePath().relativize(script);
        assertTrue(!relative.isAbsolute() && relative.toString().contains("/"), relative.toString());
        return List.of(relative.toString());
    }

    @Test
    void aWronglyRejectedPatternFailsItsOwnVectorsOnly() throws IOException {
        // refuses any policy (at the fixture's top or in a subdirectory) that lists the pattern "X/?*"
        List<String> impl = broken("rejects.sh", "if grep -rqsF --include=agent.lock '\"X/?*\"' .; then\n"
                + "  echo '{\"error\": {\"kind\": \"pattern-invalid-class\", \"line\": 3, \"column\": 5, \"offset\": 19,"
                + " \"message\": \"broken on purpose\"}, \"errors\": []}'\n  exit 2\nfi", "cat");
        Run run = run(impl, List.of("match.json"));
        VectorRunner.FileReport r = run.reports().get(0);
        assertEquals(List.of("'X/?*' holds 'X'"), r.failures().stream().map(f -> f.substring(0, f.indexOf(':'))).toList(),
                run.text());
        assertEquals(VectorRunner.planned().get(2).questions() - 1, r.passed(), run.text());
    }

    @Test
    void oneWrongAnswerFailsOneVector() throws IOException {
        // the rule that protects X/new.yml (asked by one vector only) is reported with another pattern
        List<String> impl = broken("wrong.sh", "",
                "sed '/\"path\": \"\\(g[0-9]*\\/\\)\\{0,1\\}X\\/new\\.yml\"/,/\"implicit\"/s/\"pattern\": \"/\"pattern\": \"broken /'");
        Run run = run(impl, List.of("match.json"));
        VectorRunner.FileReport r = run.reports().get(0);
        assertEquals(1, r.failures().size(), run.text());
        assertTrue(r.failures().get(0).startsWith("'X/**' protects 'X/new.yml': "), run.text());
        assertEquals(VectorRunner.planned().get(2).questions() - 1, r.passed(), run.text());
    }
}
