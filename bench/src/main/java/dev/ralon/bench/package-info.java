/**
 * The JMH benchmarks of policy-core's hot paths: {@link dev.ralon.bench.MatcherBench} (the pattern matcher against
 * java.nio's glob {@code PathMatcher}), {@link dev.ralon.bench.PolicyLoadBench} (loading an agent.lock) and
 * {@link dev.ralon.bench.ExpandBench} (the walk that turns a policy into the protected set), all fed by
 * {@link dev.ralon.bench.Corpus}, the seeded paths and patterns of a generated monorepo.
 * {@link dev.ralon.bench.Fixtures} writes the trees bench/run.sh and bench/scale.sh time as whole processes.
 *
 * <p>Depends on policy-core and JMH only; nothing depends on it, and it is never deployed. {@code mvn verify} runs
 * each benchmark once, briefly ({@code BenchSmokeTest}); the measurements are docs/performance.md's.
 *
 * <p>Where new things go: a new benchmark is a class here whose name ends in {@code Bench} (JMH {@code @State},
 * {@code @Benchmark} methods), and its benchmark names join the set {@code BenchSmokeTest} expects; shared inputs go
 * in {@link dev.ralon.bench.Corpus}, a new fixture tree for the scripts in {@link dev.ralon.bench.Fixtures}.
 */
package dev.ralon.bench;
