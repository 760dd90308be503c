package dev.ralon.enforcer.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One path the policy protects, as found on disk when the plan was made.
 *
 * @param path    absolute, normalised, with no symbolic link in its parent directories ("real" parents); the last
 *                component may itself be a symbolic link ({@link Kind#SYMLINK})
 * @param kind    what is at {@code path} (not following a final symbolic link)
 * @param reasons the patterns that protect it, as "pattern (agent.lock:LINE)" strings, for plans and messages
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public record ProtectedPath(Path path, Kind kind, List<String> reasons) {
    public ProtectedPath {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(kind, "kind");
        if (!path.isAbsolute()) {
            throw new IllegalArgumentException("protected path must be absolute: " + path);
        }
        reasons = List.copyOf(reasons);
    }

    /**
     * What a protected path is. Later versions may add kinds: handle an unknown one as not covered.
     *
     * @since 0.1.0
     */
    public enum Kind {
        /** A regular file. */
        FILE,
        /** A directory: everything beneath it is protected too, and must be enforced as one unit. */
        DIRECTORY,
        /**
         * A symbolic link: the link itself is protected (its target is listed separately when it is protected). Also
         * a link through which a protected path is reached (a "link on the way"): it must not be removed, replaced or
         * retargeted during the run, exactly like a protected link.
         */
        SYMLINK,
        /** A device, fifo or socket. */
        OTHER,
        /** Nothing exists at this path yet; a literal pattern names it, so creating it must be refused. */
        MISSING
    }
}
