package dev.ralon.testsupport;

/**
 * Seeds of the seeded generators (property tests are plain JUnit 5 with {@link java.util.Random}): {@code -Dralon.seed=N}
 * replays one; under {@code CI=true} each test gets a fixed seed (a CI run never fails by chance, and a failure there
 * replays the same locally); elsewhere a fresh one each run, so local runs keep exploring. The seed is printed either
 * way, with the flag that replays it.
 */
public final class Seeds {
    /** The base of the fixed CI seeds; each test mixes in its own name so two tests do not draw the same numbers. */
    static final long CI_BASE = 0x5241_4C4F_4E00_0001L;

    private Seeds() {
    }

    /** The seed for {@code test} (a name unique to the caller, e.g. "GlobTest.randomPatterns"), printed. */
    public static long seed(String test) {
        String fixed = System.getProperty("ralon.seed");
        long seed = fixed != null ? Long.parseLong(fixed.trim())
                : Requirements.inCi() ? CI_BASE ^ test.hashCode() : System.nanoTime();
        System.out.println(test + " seed=" + seed + " (replay: -Dralon.seed=" + seed + ")");
        return seed;
    }
}
