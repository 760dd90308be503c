package dev.ralon.cli;

import dev.ralon.spec.VectorRunner;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
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
 * other implementation, and every one must pass.
 */
class SpecVectorsE2ETest {
    @Test
    void ralonCheckPassesEveryVectorThroughTheProtocol() {
        String exe = System.getProperty("ralon.executable");
        assertNotNull(exe, "system property ralon.executable is not set (the cli pom sets it for the e2e execution)");
        assertTrue(Files.isExecutable(Path.of(exe)), exe);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        List<VectorRunner.FileReport> reports;
        try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            reports = new VectorRunner(List.of(exe, "check"), out, false).runAll();
        }
        String report = buf.toString(StandardCharsets.UTF_8);
        System.out.print(report);
        assertEquals(3, reports.size(), report);
        for (VectorRunner.FileReport r : reports) {
            assertEquals(List.of(), r.failures(), r.file() + "\n" + report);
            assertTrue(r.passed() > 15, r.file() + ": too few vectors asked: " + report);
        }
        assertTrue(report.contains("(100%)"), report);
    }
}
