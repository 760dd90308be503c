package dev.ralon.cli;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Strict admission and SPI discovery through the real entry point: a child JVM runs {@code dev.ralon.cli.Main} from the
 * real executable with third-party-style test enforcers added to its class path (org.example.enforcers).
 */
class RunAdmissionE2ETest {
    @TempDir
    Path project;

    List<String> javaCmd;

    @BeforeEach
    void setUp() throws IOException {
        String exe = System.getProperty("ralon.executable");
        if (exe == null) {
            fail("system property ralon.executable is not set: run through Maven (mvn verify)");
        }
        Path testClasses = Path.of("target/test-classes").toAbsolutePath();
        String cp = exe + ":" + testClasses.resolve("test-enforcers") + ":" + testClasses;
        javaCmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", cp, "dev.ralon.cli.Main");
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
        Files.writeString(project.resolve("secret.txt"), "s\n");
    }

    ProcessResult ralon(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(javaCmd);
        cmd.addAll(List.of(args));
        return TestProcess.of(cmd).in(project).stdin("").run();
    }

    @Test
    void statusListsThirdPartyBackendsWithWhyNotAndTheirProblems() throws Exception {
        ProcessResult r = ralon("status", "--verbose");
        assertEquals(0, r.code(), r.err());
        ProcessResult summary = ralon("status");
        assertTrue(summary.out().contains("\n  test-unavailable no   the frobnicator is off; fix: sysctl test.frobnicate=1\n"),
                summary.out());
        assertTrue(r.out().contains("test-unavailable no        the frobnicator is off; fix: sysctl test.frobnicate=1"), r.out());
        assertTrue(r.out().contains("test-refuser"), r.out());
        assertTrue(r.out().contains("2 enforcers are named 'twin'"), r.out());
        assertTrue(r.out().contains("uses the reserved name 'landlock'"), r.out());
        assertFalse(r.out().contains("impostor"), "a reserved name must not be taken by a third party: " + r.out());
    }

    @Test
    void unavailablePinnedBackendIsRefusedWithReasonAndFix() throws Exception {
        ProcessResult r = ralon("run", "--write-anywhere", "--backend", "test-unavailable", "--", "touch", "started");
        assertEquals(2, r.code());
        assertEquals("ralon: backend test-unavailable cannot enforce on this host: the frobnicator is off "
                + "(fix: sysctl test.frobnicate=1)", r.err().strip().lines().reduce((a, b) -> b).orElse(""));
        assertFalse(Files.exists(project.resolve("started")));
    }

    @Test
    void duplicatedNamesAreNotUsable() throws Exception {
        ProcessResult r = ralon("run", "--backend", "twin", "--", "true");
        assertEquals(2, r.code());
        // found twice, so excluded: said as such, with why, not as an unknown name
        assertTrue(r.err().contains("ralon: backend 'twin' was excluded: 2 enforcers are named 'twin'"), r.err());
    }

    @Test
    void unenforceablePlanStartsNothingAndExits2() throws Exception {
        ProcessResult r = ralon("run", "--write-anywhere", "--backend", "test-refuser", "--", "touch", "started");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("ralon: backend test-refuser cannot enforce this policy: test-refuser cannot protect 2 paths"),
                r.err());
        assertFalse(Files.exists(project.resolve("started")), "nothing may start when admission refuses");
    }

    @Test
    void dryRunOfAnUnenforceablePlanExits1() throws Exception {
        ProcessResult r = ralon("run", "--write-anywhere", "--backend", "test-refuser", "--dry-run", "--", "true");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("cannot enforce: test-refuser cannot protect 2 paths"), r.out());
        assertTrue(r.out().contains("verdict: NOT enforceable"), r.out());
        ProcessResult j = ralon("run", "--write-anywhere", "--backend", "test-refuser", "--dry-run", "--json", "--", "true");
        assertEquals(1, j.code(), j.err());
        assertTrue(j.out().contains("\"enforceable\": false"), j.out());
    }

    @Test
    void allowDegradedRunsAndSaysWhatIsMissingFirst() throws Exception {
        ProcessResult r = ralon("run", "--write-anywhere", "--backend", "test-refuser", "--allow-degraded", "--", "sh", "-c", "echo ran");
        assertEquals(0, r.code(), r.err());
        assertEquals("ran\n", r.out());
        assertTrue(r.err().contains("ralon: DEGRADED: test-refuser cannot protect 2 paths"), r.err());
        assertTrue(r.err().contains("ralon: DEGRADED: not guaranteed in this run: modify-content"), r.err());
    }

    @Test
    void failingPrepareStartsNothing() throws Exception {
        ProcessResult r = ralon("run", "--write-anywhere", "--backend", "test-failing", "--", "touch", "started");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("ralon: backend test-failing: mount(2) of /x failed: EPERM (nothing was started)"), r.err());
        assertFalse(Files.exists(project.resolve("started")));
    }
}
