/**
 * The file tree: which agent.lock files are in force, and what the policies protect on disk. Finding:
 * {@link dev.ralon.policy.walk.PolicyDiscovery} (every agent.lock from a directory up, and every one below the tree's
 * top, docs/spec.md section 2) and {@link dev.ralon.policy.walk.PolicySet} (those files, each loaded through
 * {@code load.PolicyLoader}; policies only add). Expanding: {@link dev.ralon.policy.walk.ProtectedPaths} walks a
 * policy's tree once ({@code TreeWalker}) for its {@code WalkVisitor}s, each with its own state per directory:
 * {@code ProtectionVisitor} builds the protected set (with {@link dev.ralon.policy.walk.LinkResolution} for links),
 * {@code AdviceVisitor} counts what an unmatched slash-less pattern would match deeper, {@code ListingScope} keeps a
 * listing out of what {@link dev.ralon.policy.walk.IgnoredDirectories} names; the result is the model's
 * {@code Expansion}. Every listing goes through a {@link dev.ralon.policy.walk.DirectoryReader} ({@code java.nio}'s by
 * default, {@code JavaDirectoryReader}; the cli installs one reading {@code getdents64}); {@code WalkEntry} is one
 * listed entry, its type read at most once.
 *
 * <p>Uses the model ({@code dev.ralon.policy}), {@code glob} and {@code load}. Used by {@code git}
 * ({@code ChangedPaths} judges a change by a {@code PolicySet}; {@code GitIgnoredDirectories} is an
 * {@code IgnoredDirectories}), the host, the cli, the Maven plugin, the conformance kit and the benchmarks.
 * {@code PolicySet} and {@code PolicyDiscovery} are here, not beside the model, because they load and walk: the model
 * beneath every stage cannot name a stage without a cycle between packages.
 *
 * <p>Where new things go: a new job during the walk is a {@code WalkVisitor}, not a second walk; a new way of finding
 * policy files in {@code PolicyDiscovery}; a new question about the set in force in {@code PolicySet}. The walk's
 * machinery ({@code TreeWalker}, {@code WalkVisitor}, {@code WalkEntry}, the visitors) stays package-private.
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): no compatibility promise.
 */
@dev.ralon.enforcer.spi.Internal("Ralon's host, cli, Maven plugin, conformance kit and benchmarks find the policies in"
        + " force and expand them; the cli installs its DirectoryReader")
package dev.ralon.policy.walk;
