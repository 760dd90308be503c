/**
 * agent.lock, from bytes to the protected set on disk. Loading: {@link dev.ralon.policy.PolicyLoader} runs four
 * stages, each one class ({@code PolicyReader}: file, size, encoding; {@code PolicyComposer}: the YAML subset;
 * {@code PolicyShapeCheck}: keys and the v1 JSON Schema's shape, worded by {@code ShapeWording};
 * {@code PolicyBuilder}: patterns into {@link dev.ralon.policy.Rule}s), gathering every error ({@code Problems},
 * {@link dev.ralon.policy.ErrorKind}, {@link dev.ralon.policy.PolicyException}) into a
 * {@link dev.ralon.policy.Policy} with its {@link dev.ralon.policy.Warning}s. Discovery: every agent.lock in force
 * ({@link dev.ralon.policy.PolicyDiscovery}, {@link dev.ralon.policy.PolicySet}, each only adding). Expansion: the one
 * walk ({@link dev.ralon.policy.ProtectedPaths}, {@code TreeWalker} and its {@code WalkVisitor}s, with
 * {@link dev.ralon.policy.LinkResolution}) into an {@link dev.ralon.policy.Expansion}. Checked paths
 * ({@code CheckedPath}), file names ({@link dev.ralon.policy.FileNames}), rules and places in words
 * ({@link dev.ralon.policy.RuleText}), and git, asked so that nothing a repository configures runs
 * ({@link dev.ralon.policy.HardenedGit}, {@link dev.ralon.policy.GitLayout}, {@link dev.ralon.policy.ChangedPaths}).
 * The pattern language is {@code dev.ralon.policy.glob}. See docs/spec.md and docs/architecture.md, "policy-core,
 * inside".
 *
 * <p>In the data flow (agent.lock, Policy, protected set, Plan, Enforcer, exec) it owns the first three steps and
 * knows nothing of backends. Depends on SnakeYAML only (policy-spec's schema and vectors, and everit-json-schema, in
 * its tests). Used by the host (which turns an {@code Expansion} into the SPI's {@code ProtectedSet}), the cli, the
 * Maven plugin, the conformance kit and the benchmarks.
 *
 * <p>Where new things go: a new error of a file is an {@code ErrorKind} (its id is named by the spec's vectors),
 * raised by the stage that finds it; a new remark is a {@code Warning.Kind}, which tools decide on, never its text;
 * a new job during the walk is a {@code WalkVisitor}, not a second walk; every git command goes through
 * {@code HardenedGit}. A new key of agent.lock touches {@code PolicyShapeCheck}, {@code PolicyBuilder},
 * {@code Policy}, the schema and the vectors in policy-spec and docs/spec.md together, and needs format version 2
 * (docs/spec.md, section 9.3; CONTRIBUTING.md, "Recipe: a policy key in agent.lock").
 *
 * <p>Internal: public for Ralon's own modules (cli, host, maven-plugin, conformance), with no compatibility promise;
 * the stable contract of agent.lock is docs/spec.md with its vectors, not these types.
 */
package dev.ralon.policy;
