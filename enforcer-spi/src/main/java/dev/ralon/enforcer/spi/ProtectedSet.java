package dev.ralon.enforcer.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The input of a plan: every path the policy protects, expanded against the file system when {@code ralon run}
 * started. Directories stand for their whole subtree and are never expanded further. The policy file itself is always
 * one of the paths.
 *
 * @param root       the directory holding the policy file (absolute, real)
 * @param policyFile the policy file (absolute)
 * @param paths      the protected paths, sorted, no path beneath a {@link ProtectedPath.Kind#DIRECTORY} entry
 * @param warnings   what the expansion noticed (patterns matching nothing, unreadable directories, links pointing out)
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public record ProtectedSet(Path root, Path policyFile, List<ProtectedPath> paths, List<String> warnings) {
    public ProtectedSet {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(policyFile, "policyFile");
        paths = List.copyOf(paths);
        warnings = List.copyOf(warnings);
    }
}
