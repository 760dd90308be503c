package dev.ralon.testsupport;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small pool for work a test class starts ahead and waits for, test by test (the conformance kit's executions,
 * {@code ConformanceKit.runAhead}; a fixture's EngineTestKit run): its threads are daemons, so that a pool nobody
 * shut down never keeps the test JVM alive.
 */
public final class SideBySide {
    private SideBySide() {
    }

    /** A fixed pool of {@code threads} daemon threads, each named {@code name}. */
    public static ExecutorService pool(int threads, String name) {
        return Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }
}
