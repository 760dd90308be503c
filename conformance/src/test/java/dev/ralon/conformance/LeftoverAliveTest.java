package dev.ralon.conformance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the kit finds a leftover that is late ({@link KitRun#leftoverAlive}): by its arguments, the case's id and the
 * run's FREE directory, as the leftover attack starts it; a real process, looked for through /proc.
 */
class LeftoverAliveTest {
    @Test
    void aRunningLeftoverIsFoundByItsCaseAndDirectoryAndNotOnceItEnds(@TempDir Path free) throws Exception {
        String id = "leftover-F-" + System.nanoTime();
        Process p = new ProcessBuilder("sh", "-c", "sleep 30; true", "sh", id, free.toString()).start();
        try {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!KitRun.leftoverAlive(id, free) && System.nanoTime() < end) {
                Thread.sleep(20);
            }
            assertTrue(KitRun.leftoverAlive(id, free), "the running leftover is found");
            assertFalse(KitRun.leftoverAlive(id, free.resolve("other")), "another run's directory: not this run's");
            assertFalse(KitRun.leftoverAlive(id + "x", free), "another case: not this one");
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        assertFalse(KitRun.leftoverAlive(id, free), "once it ended it is not found");
    }

    @Test
    void theKitEndsALeftoverOfItsRunOnceJudgedAndNothingElse(@TempDir Path free) throws Exception {
        String id = "leftover-F-" + System.nanoTime();
        Process mine = new ProcessBuilder("sh", "-c", "sleep 30; true", "sh", id, free.toString()).start();
        Process other = new ProcessBuilder("sh", "-c", "sleep 30; true", "sh", id, free.resolve("x").toString())
                .start();
        try {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!KitRun.leftoverAlive(id, free) && System.nanoTime() < end) {
                Thread.sleep(20);
            }
            KitRun.endLeftovers(id, free);
            assertTrue(mine.waitFor(10, TimeUnit.SECONDS), "this run's leftover is ended");
            assertTrue(other.isAlive(), "another run's process is left alone");
        } finally {
            mine.destroyForcibly();
            other.destroyForcibly();
            other.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
