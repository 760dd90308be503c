package dev.ralon.enforcer.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The input of a plan: every path the policy protects, expanded against the file system when {@code ralon run}
 * started. Directories stand for their whole subtree and are never expanded further. The policy file itself is always
 * one of the paths. Besides the project's own paths, the host adds its baseline: paths outside the project that a
 * session must not change either (the agents' configuration, the shell's start-up files, a root invoker's kernel
 * interfaces); each says why in its {@link ProtectedPath#reasons()}.
 *
 * <p>Built by the host through {@link #of}: a final class, not a record, so that a later version can add a
 * component (with a further factory or an accessor with a default) without breaking a backend compiled against this
 * one. Equality is by value.
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public final class ProtectedSet {
    private final Path root;
    private final Path policyFile;
    private final List<ProtectedPath> paths;
    private final List<String> warnings;

    private ProtectedSet(Path root, Path policyFile, List<ProtectedPath> paths, List<String> warnings) {
        this.root = Objects.requireNonNull(root, "root");
        this.policyFile = Objects.requireNonNull(policyFile, "policyFile");
        this.paths = List.copyOf(paths);
        this.warnings = List.copyOf(warnings);
    }

    /**
     * A protected set.
     *
     * @param root       the directory holding the policy file (absolute, real)
     * @param policyFile the policy file (absolute)
     * @param paths      the protected paths, sorted, no path beneath a {@link ProtectedPath.Kind#DIRECTORY} entry
     * @param warnings   what the expansion noticed (patterns matching nothing, unreadable directories, links
     *                   pointing out)
     * @return the set; the lists are copied
     */
    public static ProtectedSet of(Path root, Path policyFile, List<ProtectedPath> paths, List<String> warnings) {
        return new ProtectedSet(root, policyFile, paths, warnings);
    }

    /** The directory holding the policy file (absolute, real). */
    public Path root() {
        return root;
    }

    /** The policy file (absolute). */
    public Path policyFile() {
        return policyFile;
    }

    /** The protected paths, sorted, no path beneath a {@link ProtectedPath.Kind#DIRECTORY} entry; unmodifiable. */
    public List<ProtectedPath> paths() {
        return paths;
    }

    /** What the expansion noticed; unmodifiable. */
    public List<String> warnings() {
        return warnings;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProtectedSet s && root.equals(s.root) && policyFile.equals(s.policyFile)
                && paths.equals(s.paths) && warnings.equals(s.warnings);
    }

    @Override
    public int hashCode() {
        return Objects.hash(root, policyFile, paths, warnings);
    }

    @Override
    public String toString() {
        return "ProtectedSet[root=" + root + ", policyFile=" + policyFile + ", paths=" + paths + ", warnings="
                + warnings + "]";
    }
}
