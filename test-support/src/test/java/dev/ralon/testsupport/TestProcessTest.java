package dev.ralon.testsupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TestProcessTest {
    @Test
    void runsWithDirectoryEnvironmentAndInputAndKeepsTheStreamsApart() throws Exception {
        ProcessResult r = TestProcess.of("/bin/sh", "-c", "pwd; echo \"$X\"; cat; echo oops >&2; exit 3")
                .in(Path.of("/")).env("X", "x value").stdin("from stdin\n").run();
        assertEquals(3, r.code());
        assertEquals("/\nx value\nfrom stdin\n", r.out());
        assertEquals("oops\n", r.err());
        assertTrue(r.pid() > 0);
    }

    @Test
    void mergesStderrAndRemovesVariables() throws Exception {
        ProcessResult r = TestProcess.of("/bin/sh", "-c", "echo a; echo b >&2; echo \"${HOME-unset}\"")
                .without("HOME").mergeStderr().run();
        assertEquals("a\nb\nunset\n", r.out());
        assertEquals("", r.err());
    }

    /** A shutdown hook's command, after LeftoversGuard removed the JVM's own temporary directory: it still runs. */
    @Test
    void runsWhenTheTemporaryDirectoryIsGone(@TempDir Path dir) throws Exception {
        String saved = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", dir.resolve("removed").toString());
        try {
            assertEquals("ok\n", TestProcess.of("/bin/sh", "-c", "echo ok").run().out());
        } finally {
            System.setProperty("java.io.tmpdir", saved);
        }
        assertFalse(Files.exists(dir.resolve("removed")), "not made again: it would be left behind");
    }

    @Test
    void aChildOverItsTimeIsKilledAndTheTestFailsWithWhatItWrote() {
        AssertionFailedError e = assertThrows(AssertionFailedError.class,
                () -> TestProcess.of("/bin/sh", "-c", "echo started; exec sleep 30").timeout(1).run());
        assertTrue(e.getMessage().startsWith("timed out after 1 s: [/bin/sh, -c,"), e.getMessage());
    }

    @Test
    void aProcessLeftBehindHoldingTheOutputDoesNotKeepTheTestWaiting() throws Exception {
        long start = System.nanoTime();
        ProcessResult r = TestProcess.of("/bin/sh", "-c", "sleep 20 & echo $!; echo done").timeout(15).run();
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        TestProcess.of("kill", r.out().lines().findFirst().orElseThrow()).run();
        assertEquals(0, r.code());
        assertTrue(r.out().endsWith("done\n"), r.out());
        assertTrue(seconds < 15, "waited " + seconds + " s for a descriptor the background sleep held");
    }

    @Test
    void inputIsDevNullByDefaultAndAnEmptyPipeOnRequest() throws Exception {
        String probe = "readlink /proc/self/fd/0";
        assertEquals("/dev/null\n", TestProcess.of("/bin/sh", "-c", probe).run().out());
        assertTrue(TestProcess.of("/bin/sh", "-c", probe).stdin("").run().out().startsWith("pipe:"));
    }
}
