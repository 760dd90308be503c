package dev.ralon.testsupport;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SideBySideTest {
    @Test
    void runsOnNamedDaemonThreadsTwoAtATime() throws Exception {
        ExecutorService pool = SideBySide.pool(2, "side");
        try {
            java.util.concurrent.CountDownLatch both = new java.util.concurrent.CountDownLatch(2);
            Future<String> a = pool.submit(() -> {
                both.countDown();
                assertTrue(both.await(10, TimeUnit.SECONDS), "the second task ran beside the first");
                return Thread.currentThread().getName() + " " + Thread.currentThread().isDaemon();
            });
            Future<String> b = pool.submit(() -> {
                both.countDown();
                return Thread.currentThread().getName() + " " + Thread.currentThread().isDaemon();
            });
            assertEquals("side true", a.get(10, TimeUnit.SECONDS));
            assertEquals("side true", b.get(10, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }
}
