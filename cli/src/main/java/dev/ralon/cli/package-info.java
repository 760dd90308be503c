/**
 * The {@code ralon} commands, and nothing else: {@code init}, {@code check}, {@code status}, {@code run},
 * {@code hook}, {@code schema} and {@code generate-completion}, reached from {@link dev.ralon.cli.Main}. A command is
 * a value: the picocli bindings ({@code CheckCommand}, {@code RunCommand}, {@code HookCommand},
 * {@code StatusCommand}) and {@code FastParser} (the hot-path forms, without picocli) make the same records of the
 * sealed {@code Request}, and each record executes itself through a picocli-free class ({@code Check}, {@code Run},
 * {@code Hook}, {@code Status}). {@code init} and {@code schema} stay plain picocli commands; the agent-instructions
 * section of {@code init --agents}, which plain {@code check} compares with agent.lock, is {@code AgentInstructions}.
 * See docs/architecture.md, "cli and host".
 *
 * <p>In the data flow (agent.lock, Policy, protected set, Plan, Enforcer, exec) this package reads the arguments,
 * loads the policies in force ({@code PolicyOption}, over policy-core's {@code PolicySet}), and hands the expansion
 * to the host module, which chooses the backend and plans; {@code Run} then becomes the command through the SPI's
 * {@code exec.Exec}. Depends on ralon-host, policy-core, enforcer-spi, policy-spec (the schema {@code ralon schema}
 * prints), picocli and JNA; the built-in backends are runtime dependencies, found by discovery. Nothing depends on it
 * at compile time: the conformance kit and enforcement-tests start {@code Main} in a child JVM, and the build makes
 * cli/target/ralon (launcher stub and shaded jar in one file) from it.
 *
 * <p>Where new things go: a new command is a picocli class {@code XCommand} here, registered in the
 * {@code subcommands} of {@code Ralon}'s {@code @Command}, its work in a picocli-free class; a command on an agent's
 * hot path also gets a request record in {@code Request}'s {@code permits}, a case in {@code FastParser} and a place
 * in {@code RequestParityTest}. Refusals are a {@code CliException} (one {@code ralon:} line), exit codes come from
 * {@code ExitCodes}, JSON is written by {@code Json}; a new hook format goes in {@code Hook} and
 * {@code HookPayload}. Backend logic does not belong here: it goes in the host module or in a backend.
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): public for Ralon's own modules, no compatibility promise.
 */
@dev.ralon.enforcer.spi.Internal("the ralon executable")
package dev.ralon.cli;
