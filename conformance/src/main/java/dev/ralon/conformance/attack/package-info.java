/**
 * The conformance kit's programs that run in a JVM of their own, apart from the kit:
 * {@link dev.ralon.conformance.attack.AttackProgram} makes, inside the sandbox, the attacks a shell cannot (system
 * calls through JNA, each operation named by a word such as {@code punch-hole} or {@code move-mount}), and
 * {@link dev.ralon.conformance.attack.SocketHelper} is a helper of the user's, outside the sandbox, that acts for
 * whoever connects to its Unix socket. Neither judges anything: the kit reads what changed on disk from outside.
 *
 * <p>At the end of the data flow (agent.lock, Policy, protected set, Plan, Enforcer, exec) these programs are what
 * the exec'd command does to the protected paths. They use JNA and the JDK only, not the kit, the SPI or
 * policy-core. The kit starts them by class name: the attack script ({@code AttackScript}, its {@code kit_program}),
 * {@code TerminalCases} and {@code HelperCases}.
 *
 * <p>Where new things go: an attack that needs a system call is a new operation in {@code AttackProgram}'s
 * {@code switch} (and in its class comment's list), then an entry made with {@code prog(...)} in
 * {@link dev.ralon.conformance.Attacks}, whose catalogue docs/conformance.md repeats in prose; a shell attack needs
 * nothing here (an entry made with {@code sh(...)} in {@code Attacks}). A new helper outside the sandbox is a main
 * class here, started from {@code HelperCases}.
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): public only to be started by class name; the marker is this
 * package-info's alone, the programs do not use the SPI.
 */
@dev.ralon.enforcer.spi.Internal("main classes the kit starts by name, in the sandbox or beside it")
package dev.ralon.conformance.attack;
