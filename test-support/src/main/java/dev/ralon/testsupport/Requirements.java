package dev.ralon.testsupport;

import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one rule for tests that need something of the machine (root, a kernel feature, a tool): where it is missing,
 * the test is skipped with the reason ({@link TestAbortedException}), except under {@code CI=true}, where CI promises
 * it (CI runs as root on a kernel with the features) and the test fails with the reason instead. So the README's
 * {@code mvn -B verify} passes for a non-root user, and CI can never pass by skipping.
 *
 * <p>Use {@link RequiresRoot} on a test class or method for root, and {@link #require} for anything a test must probe
 * itself (a backend's availability, a tool on {@code PATH}).
 */
public final class Requirements {
    private Requirements() {
    }

    /** Whether this is CI: the environment variable {@code CI} is {@code true} (GitHub Actions, .ci/run). */
    public static boolean inCi() {
        return "true".equals(System.getenv("CI"));
    }

    /**
     * Returns when {@code met}; else skips the calling test with "needs WHAT" outside CI, and fails it under CI.
     *
     * @param met  whether the machine has what the test needs
     * @param what what the test needs and why, e.g. "root (the attacks run as uid 65534 through setpriv)"
     */
    public static void require(boolean met, String what) {
        if (!met) {
            unmet("this test's requirement is not met: needs " + what, "skipped (outside CI): needs " + what);
        }
    }

    /**
     * The machine cannot show what the calling test needs, for {@code reason} (e.g. "backend mount is unavailable
     * here: ..."): skips it with {@code reason} outside CI, fails it with "CI=true but REASON" under CI. Never returns.
     */
    public static void unmet(String reason) {
        unmet(reason, reason);
    }

    private static void unmet(String inCiReason, String skipReason) {
        if (inCi()) {
            throw new AssertionFailedError("CI=true but " + inCiReason);
        }
        throw new TestAbortedException(skipReason);
    }

    /** Whether this JVM runs as uid 0 (the owner of {@code /proc/self}: the real user of this process). */
    public static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /** {@code require(isRoot(), "root (" + why + ")")}. */
    public static void requireRoot(String why) {
        require(isRoot(), "root (" + why + ")");
    }
}
