package dev.ralon.cli;

import dev.ralon.policy.git.GitLayout;

import java.nio.file.Path;

/**
 * The check every command that looks at the repository makes first ({@code run} at start, {@code status},
 * {@code check --changed/--staged}): a planted {@code commondir} in a main repository's git directory
 * ({@link GitLayout#redirectRefusal()}), looked for from the working directory and from the nearest policy's root.
 */
final class RepositoryCheck {
    private RepositoryCheck() {
    }

    /** Null when nothing is planted; otherwise the refusal's text (without {@code ralon: }). */
    static String refusal(Path policyRoot) {
        Path cwd = Path.of("").toAbsolutePath();
        String r = GitLayout.redirectRefusal(cwd);
        return r != null || policyRoot == null || cwd.equals(policyRoot) ? r : GitLayout.redirectRefusal(policyRoot);
    }
}
