/**
 * The policy model a caller holds: a loaded agent.lock ({@link dev.ralon.policy.Policy}, its
 * {@link dev.ralon.policy.Rule}s and {@link dev.ralon.policy.Warning}s), why one could not be loaded
 * ({@link dev.ralon.policy.PolicyException}, {@link dev.ralon.policy.ErrorKind}), the protected set found on disk
 * ({@link dev.ralon.policy.Expansion}), the forms a checked path is judged under
 * ({@link dev.ralon.policy.CheckedPath}), file names the JVM can represent ({@link dev.ralon.policy.FileNames}),
 * rules and places in words ({@link dev.ralon.policy.RuleText}), the project files that run code
 * ({@link dev.ralon.policy.CodeRunningConfig}), and two helpers shared with other modules or other packages here
 * ({@link dev.ralon.policy.JsonString}, {@link dev.ralon.policy.Paths2}).
 *
 * <p>policy-core's packages go one way (PackageLayersTest reads the class files and fails on a cycle):
 * {@code glob} (the pattern language) ← this package ← {@code load} (bytes to a {@code Policy}:
 * {@code PolicyLoader}) ← {@code walk} (the file tree: {@code PolicyDiscovery}, {@code PolicySet},
 * {@code ProtectedPaths}) ← {@code git} ({@code HardenedGit}, {@code ChangedPaths}). This package names none of the
 * others: the stages make and read these types, so they sit beneath every stage. A caller loads with
 * {@code load.PolicyLoader}, finds the policies in force with {@code walk.PolicySet}, and holds what they return.
 *
 * <p>In the data flow (agent.lock, Policy, protected set, Plan, Enforcer, exec) policy-core owns the first three
 * steps and knows nothing of backends. Depends on SnakeYAML (in {@code load}) and on enforcer-spi for its status
 * markers only. Used by the host (which turns an {@code Expansion} into the SPI's {@code ProtectedSet}), the cli, the
 * Maven plugin, the conformance kit and the benchmarks. See docs/spec.md and docs/architecture.md, "policy-core,
 * inside".
 *
 * <p>Where new things go: a type a caller holds, made or read by more than one stage, goes here; a new error of a
 * file is an {@code ErrorKind} (its id is named by the spec's vectors), raised by the stage that finds it; a new
 * remark is a {@code Warning.Kind}, which tools decide on, never its text. A type one stage uses alone goes in that
 * stage's package. A new key of agent.lock touches {@code load}'s {@code PolicyShapeCheck} and
 * {@code PolicyBuilder}, {@code Policy} here, the schema and the vectors in policy-spec and docs/spec.md together,
 * and needs format version 2 (docs/spec.md, section 9.3; CONTRIBUTING.md, "Recipe: a policy key in agent.lock").
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): public for Ralon's own modules, with no compatibility
 * promise; the stable contract of agent.lock is docs/spec.md with its vectors, not these types.
 */
@dev.ralon.enforcer.spi.Internal("Ralon's host, cli, Maven plugin, conformance kit and benchmarks share the policy"
        + " model; a construction a stage makes (Policy, Rule, Warning.of) is public for policy-core's own packages")
package dev.ralon.policy;
