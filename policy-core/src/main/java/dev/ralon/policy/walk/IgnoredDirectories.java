package dev.ralon.policy.walk;

/**
 * Directories the "would match deeper" advice does not count in (build output, dependencies: what git ignores), so
 * that explaining a policy does not walk {@code target/} or {@code node_modules/}. A hook for the tools that explain a
 * policy (the Maven plugin, {@code ralon check} and {@code status}); it changes nothing but that advisory count.
 * Protection never consults it: which paths are protected never depends on git or on anything else the agent can
 * write ({@code .gitignore}, {@code .git/info/exclude}).
 */
@FunctionalInterface
public interface IgnoredDirectories {
    /** Ignores nothing: the advice counts everywhere. */
    IgnoredDirectories NONE = relPath -> false;

    /**
     * Whether the advice should not count beneath the directory {@code relPath} ('/'-separated, relative to the
     * policy's root). The directory itself is still counted when a pattern matches it.
     */
    boolean ignored(String relPath);
}
