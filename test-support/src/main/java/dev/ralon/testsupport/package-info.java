/**
 * The tests' one scaffolding, shared by every module: {@link dev.ralon.testsupport.TestProcess} runs a child process
 * and {@link dev.ralon.testsupport.ProcessResult} is what it left (status, output, pid); the one rule for a test that
 * needs something of the machine is {@link dev.ralon.testsupport.Requirements} and
 * {@link dev.ralon.testsupport.RequiresRoot} (applied by {@link dev.ralon.testsupport.RequiresRootExtension}): skipped
 * with the reason where it is missing, failed instead under {@code CI=true}; {@link dev.ralon.testsupport.Seeds} gives
 * the seeded generators their seed (fixed under CI, fresh locally, printed when the test fails by
 * {@link dev.ralon.testsupport.SkipReasons}, which also prints the skip reasons; {@code -Dralon.seed=N} replays);
 * {@link dev.ralon.testsupport.LeftoversGuard} fails a test JVM's run on what its tests left in its own temporary
 * directory or of the directories made through {@link dev.ralon.testsupport.Leftovers} (those outside it);
 * {@link dev.ralon.testsupport.ApiStatus} is each published module's status test (every public type has exactly one
 * of {@code @Stable}, {@code @Experimental}, {@code @Internal}).
 *
 * <p>It is no step of the data flow (agent.lock, Policy, protected set, Plan, Enforcer, exec): it is how the tests of
 * every step run real processes against the real kernel. Depends on junit-jupiter-api and on enforcer-spi (no
 * dependency of its own) for the status markers {@code ApiStatus} reads and this package carries.
 * Used in test scope by policy-core, host, the backends, the cli and enforcement-tests, and in compile scope by the
 * conformance kit alone, whose preconditions use the same rule.
 *
 * <p>Where new things go: a test that needs root, a kernel feature or a tool says so through {@code @RequiresRoot} or
 * {@code Requirements.require}, never with a skip of its own; a child process runs through {@code TestProcess},
 * randomness takes its seed from {@code Seeds}, and a temporary directory outside {@code @TempDir} comes from
 * {@code Leftovers}. Helpers of one module's tests stay in that module.
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): no compatibility promise, even though the conformance kit
 * has it at compile scope.
 */
@dev.ralon.enforcer.spi.Internal("Ralon's own tests, and the conformance kit's preconditions (so a third party's kit"
        + " run has it on its class path): not for a third party to build on")
package dev.ralon.testsupport;
