/**
 * The agent.lock pattern language: git's wildmatch with {@code WM_PATHNAME}, anchored at the directory that holds
 * agent.lock (normative text: docs/spec-patterns.md). Split the way JGit splits its ignore rules:
 * {@link dev.ralon.policy.glob.Glob} is the rule and the package's API ({@code compile}, then {@code matches},
 * {@code holds}, {@code protects}, {@code couldMatchBeneath}, {@code literalPrefix}); {@code GlobParser} validates a
 * raw pattern and compiles it to {@code Segment}s (bracket expressions to {@code CharClass}es); {@code GlobMatcher} is
 * the automaton over path segments. A rejected pattern is a {@link dev.ralon.policy.glob.PatternException} whose
 * {@link dev.ralon.policy.glob.PatternError} kind has a stable id.
 *
 * <p>In the data flow (agent.lock, Policy, protected set, Plan, Enforcer, exec) it decides, for the policy's rules,
 * which paths are in the protected set. Depends on the JDK alone. Used by the rest of policy-core
 * ({@code PolicyBuilder} compiles each pattern, {@code Rule} holds one, the walk's visitors ask it what can still
 * match beneath a directory) and by the benchmarks ({@code MatcherBench}).
 *
 * <p>Where new things go: a new rejection is a {@code PatternError} constant (its id is what the vectors name),
 * raised by {@code GlobParser}, with its rule in docs/spec-patterns.md and vectors in policy-spec's
 * {@code vectors/match.json}; a change to what a pattern matches is a change to the spec (docs/spec.md, section 9.3,
 * allows none within version 1) and is checked against real git by {@code GitDifferentialTest}.
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): public for Ralon's own modules (the rest of policy-core
 * and the benchmarks), with no compatibility promise; the stable contract of agent.lock is docs/spec.md with its
 * vectors, not these types.
 */
@dev.ralon.enforcer.spi.Internal("policy-core's other packages and the benchmarks compile and match patterns")
package dev.ralon.policy.glob;
