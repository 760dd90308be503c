/**
 * An example third-party enforcer on an existing tool, {@code bwrap}: bubblewrap makes the read-only binds, written as
 * an outside author would, against Ralon's published artifacts only (enforcer-spi, and the conformance kit for its
 * tests, through ralon-bom). {@link org.example.bwrap.BwrapEnforcer} starts bwrap detached, as a holder of a user and
 * mount namespace in which each protected path is a read-only bind of itself; its stage joins that namespace with
 * {@code nsenter}, kills the holder, enters the working directory again by path and execs the command in place
 * through a nested user namespace that locks the binds (see its class comment for why each step).
 *
 * <p>In the data flow (agent.lock, Policy, protected set, Plan, Enforcer, exec) it is the Enforcer: it receives the
 * host's {@code ProtectedSet}, returns a {@code Plan} and a {@code Launch}, and never sees agent.lock. Nothing
 * depends on it. It is listed in {@code META-INF/services/dev.ralon.enforcer.spi.Enforcer}, which is how
 * {@code ralon run} finds it as a jar in {@code ralon-plugins/} beside the executable, and every build of Ralon puts
 * it through the conformance kit ({@code BwrapConformanceTest}, as the invoking user and as uid 65534), with three
 * broken variants that must fail it ({@code BrokenVariantsTest}). The build gets bwrap itself when it is not on
 * {@code PATH} ({@code src/build/get-bwrap.sh}: Debian's package, unpacked into {@code target/}).
 *
 * <p>Where new things go: not here. To write your own enforcer, start from docs/writing-an-enforcer.md and the
 * {@code examples/third-party-enforcer} module; a backend that ships inside Ralon is a module of its own
 * (CONTRIBUTING.md, "Recipe: a built-in backend").
 */
package org.example.bwrap;
