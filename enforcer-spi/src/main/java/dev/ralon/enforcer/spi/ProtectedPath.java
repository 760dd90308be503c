package dev.ralon.enforcer.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One path the policy protects, as found on disk when the plan was made.
 *
 * <p>Built by the host through {@link #of}: a final class, not a record, so that a later version can add a
 * component (with a further factory or an accessor with a default) without breaking a backend compiled against this
 * one. Equality is by value.
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public final class ProtectedPath {
    private final Path path;
    private final Kind kind;
    private final List<String> reasons;

    private ProtectedPath(Path path, Kind kind, List<String> reasons) {
        this.path = Objects.requireNonNull(path, "path");
        this.kind = Objects.requireNonNull(kind, "kind");
        if (!path.isAbsolute()) {
            throw new IllegalArgumentException("protected path must be absolute: " + path);
        }
        this.reasons = List.copyOf(reasons);
    }

    /**
     * A protected path.
     *
     * @param path    absolute, normalised, with no symbolic link in its parent directories ("real" parents); the last
     *                component may itself be a symbolic link ({@link Kind#SYMLINK})
     * @param kind    what is at {@code path} (not following a final symbolic link)
     * @param reasons the patterns that protect it, as "pattern (agent.lock:LINE)" strings, for plans and messages
     * @return the path; the list is copied
     * @throws IllegalArgumentException when {@code path} is relative
     */
    public static ProtectedPath of(Path path, Kind kind, List<String> reasons) {
        return new ProtectedPath(path, kind, reasons);
    }

    /** Absolute, normalised, with real parents; the last component may be a symbolic link. */
    public Path path() {
        return path;
    }

    /** What is at {@link #path()} (not following a final symbolic link). */
    public Kind kind() {
        return kind;
    }

    /** The patterns that protect it, as "pattern (agent.lock:LINE)" strings; unmodifiable. */
    public List<String> reasons() {
        return reasons;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProtectedPath p && path.equals(p.path) && kind == p.kind && reasons.equals(p.reasons);
    }

    @Override
    public int hashCode() {
        return Objects.hash(path, kind, reasons);
    }

    @Override
    public String toString() {
        return "ProtectedPath[path=" + path + ", kind=" + kind + ", reasons=" + reasons + "]";
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
