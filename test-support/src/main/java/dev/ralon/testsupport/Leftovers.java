package dev.ralon.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Temporary directories that must lie outside the test JVM's own temporary directory (in /tmp itself, readable by
 * uid 65534, where a {@code @TempDir} of mode 700 is not), watched by {@link LeftoversGuard}: one still there when the
 * test JVM's tests are over fails the run. A test's other files go in {@code @TempDir}, in the JVM's own temporary
 * directory, which the guard watches as a whole.
 */
public final class Leftovers {
    private static final Set<Path> WATCHED = ConcurrentHashMap.newKeySet();

    private Leftovers() {
    }

    /**
     * {@link Files#createTempDirectory(Path, String, java.nio.file.attribute.FileAttribute[])} in {@code parent}, and
     * watched: still there when the test JVM's tests are over, it fails the run.
     */
    public static Path createTempDirectory(Path parent, String prefix) throws IOException {
        Path dir = Files.createTempDirectory(parent, prefix);
        WATCHED.add(dir);
        return dir;
    }

    /**
     * {@code dir}, made by {@link #createTempDirectory}, is removed when the JVM exits (a shutdown hook: one copy of
     * something for all of this JVM's tests), after the guard has judged: not judged.
     */
    public static void removedAtExit(Path dir) {
        WATCHED.remove(dir);
    }

    /** The watched directories that still exist (those gone are no longer watched). */
    static List<Path> stillThere() {
        WATCHED.removeIf(p -> !Files.exists(p, LinkOption.NOFOLLOW_LINKS));
        return List.copyOf(WATCHED);
    }
}
