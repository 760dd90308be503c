/**
 * What runs between a policy and a backend, the same for every front end: the one decision of a run
 * ({@link dev.ralon.host.RunDecision}: one call, one value, used by {@code run}, {@code run --dry-run}, {@code status}
 * and the conformance kit), and what it is made of: discovery of the backends, with the plugin
 * directory beside the executable ({@link dev.ralon.host.Backends}, {@link dev.ralon.host.PluginDirectory}, over the
 * SPI's {@code Enforcers}), probing and choice, and the work on backends started before the policy is read
 * ({@link dev.ralon.host.BackendSurvey}); the typed hand-over from policy-core's {@code Expansion} to the SPI's
 * {@code ProtectedSet} ({@link dev.ralon.host.ProtectedSets}); the baseline of paths that run code later outside the
 * sandbox ({@link dev.ralon.host.Baseline}, {@code BaselineItems}, {@code GitConfig}); where a session may write
 * ({@link dev.ralon.host.WritableAreas}); what a run leaves uncovered, decided from the backend's declarations
 * ({@link dev.ralon.host.Admission}, {@link dev.ralon.host.SessionReport}); and what the user is told
 * ({@link dev.ralon.host.StartReport}, {@link dev.ralon.host.AgentsUnderLandlock}), and the command
 * ({@link dev.ralon.host.SessionNotes}, the file {@code RALON_NOTES} names). Its refusals are
 * {@link dev.ralon.host.HostException}. See docs/architecture.md, "cli and host".
 *
 * <p>In the data flow (agent.lock, Policy, protected set, Plan, Enforcer, exec) it takes the protected set from
 * policy-core, turns it into the SPI's terms, chooses the Enforcer, has it plan, and admits or refuses the Plan.
 * Depends on policy-core and enforcer-spi; no picocli, and no knowledge of the commands. Used by the cli
 * ({@code run}, {@code status}) and by the conformance kit, which judges a backend on the very set
 * {@code ProtectedSets.from} makes for a real run.
 *
 * <p>Where new things go: a rule about what a run does not cover goes in {@code Admission}; a new baseline item in
 * {@code BaselineItems} (with its reason), and what a backend keeps of it in {@code Baseline.apply}; a new place the
 * session may write in {@code WritableAreas}; a line the run prints at start in {@code StartReport}; a refusal is a
 * {@code HostException} whose message is one sentence. Per-command code stays in the cli.
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): public for Ralon's own modules, no compatibility promise.
 */
@dev.ralon.enforcer.spi.Internal("Ralon's cli and conformance kit")
package dev.ralon.host;
