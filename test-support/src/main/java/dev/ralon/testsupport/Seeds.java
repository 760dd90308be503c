package dev.ralon.testsupport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seeds of the seeded generators (property tests are plain JUnit 5 with {@link java.util.Random}): {@code -Dralon.seed=N}
 * replays one; under {@code CI=true} each test gets a fixed seed (a CI run never fails by chance, and a failure there
 * replays the same locally); elsewhere a fresh one each run, so local runs keep exploring.
 *
 * <p>A seed reaches the console only when it matters: {@link SkipReasons}, the listener every test JVM with this jar
 * has, prints the seeds a test drew when that test (or its class) fails, as {@code [SEED] Class > test(): NAME seed=N
 * (replay: -Dralon.seed=N)}. Without that listener (a launcher that does not load it) each seed is printed as it is
 * drawn, so a failure is always reproducible.
 */
public final class Seeds {
    /** The base of the fixed CI seeds; each test mixes in its own name so two tests do not draw the same numbers. */
    static final long CI_BASE = 0x5241_4C4F_4E00_0001L;

    /** The seeds drawn, by the unique id of the test or container running when each was drawn (null: none known). */
    private static final Map<String, List<String>> DRAWN = new LinkedHashMap<>();
    private static String running;
    private static boolean listened;

    private Seeds() {
    }

    /** The seed for {@code test} (a name unique to the caller, e.g. "GlobTest.randomPatterns"), kept for a failure. */
    public static long seed(String test) {
        String fixed = System.getProperty("ralon.seed");
        long seed = fixed != null ? Long.parseLong(fixed.trim())
                : Requirements.inCi() ? CI_BASE ^ test.hashCode() : System.nanoTime();
        String line = test + " seed=" + seed + " (replay: -Dralon.seed=" + seed + ")";
        synchronized (DRAWN) {
            if (listened) {
                DRAWN.computeIfAbsent(running, k -> new ArrayList<>()).add(line);
                return seed;
            }
        }
        System.out.println(line);
        return seed;
    }

    /** {@link SkipReasons}: the test or container {@code id} starts (the seeds drawn from now on are its). */
    static void started(String id) {
        synchronized (DRAWN) {
            listened = true;
            running = id;
        }
    }

    /** {@link SkipReasons}: {@code id} has ended and its parent, {@code parent} (null: none), runs again. */
    static void finished(String id, String parent) {
        synchronized (DRAWN) {
            running = parent;
            DRAWN.remove(id);
        }
    }

    /** {@link SkipReasons}: the seeds drawn while {@code id} ran, taken (a second call returns none). */
    static List<String> take(String id) {
        synchronized (DRAWN) {
            List<String> lines = DRAWN.remove(id);
            return lines == null ? List.of() : lines;
        }
    }
}
