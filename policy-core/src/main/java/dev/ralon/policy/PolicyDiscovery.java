package dev.ralon.policy;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the policy that governs a directory the way git finds {@code .git}: look for {@value #FILE_NAME} in the
 * directory, then in each parent up to the file system root; the nearest one wins. Anything named agent.lock counts
 * (a directory named agent.lock is found, and then refused by the loader with a clear message, rather than skipped).
 */
public final class PolicyDiscovery {
    public static final String FILE_NAME = "agent.lock";

    private PolicyDiscovery() {
    }

    public static Optional<Path> find(Path startDir) {
        Path dir = startDir.toAbsolutePath().normalize();
        while (dir != null) {
            Path candidate = dir.resolve(FILE_NAME);
            if (Files.exists(candidate, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of(candidate);
            }
            dir = dir.getParent();
        }
        return Optional.empty();
    }
}
