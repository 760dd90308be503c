/**
 * Git, asked so that nothing a repository configures is executed (docs/security.md).
 * {@link dev.ralon.policy.git.HardenedGit} is the one way Ralon runs git (failures are
 * {@link dev.ralon.policy.git.GitException}); {@link dev.ralon.policy.git.ChangedPaths} says which protected paths a
 * branch, the index or the work tree changed (for {@code check --changed/--staged} and {@code agentlock:changed}),
 * with {@code IndexCheck} reading the index's mode and flags; {@link dev.ralon.policy.git.GitIgnoredDirectories} gives
 * what git ignores, for the tools that explain a policy (never for protection); {@link dev.ralon.policy.git.GitLayout}
 * reads a repository's layout without running git (a {@code commondir} planted in a main repository is refused).
 *
 * <p>The top layer of policy-core: uses the model ({@code dev.ralon.policy}), {@code load} and {@code walk}; nothing
 * in policy-core uses it. Used by the host (the writable areas and the baseline), the cli and the Maven plugin.
 *
 * <p>Where new things go: every git command goes through {@code HardenedGit}; a new question about a repository's
 * changes in {@code ChangedPaths}; what is read from a repository's files without git in {@code GitLayout}.
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): no compatibility promise.
 */
@dev.ralon.enforcer.spi.Internal("Ralon's host, cli and Maven plugin ask git through it")
package dev.ralon.policy.git;
