/**
 * An example third-party enforcer, {@code bind-ro}, written exactly as an outside author would: against Ralon's
 * published artifacts only (enforcer-spi, and the conformance kit for its tests, through ralon-bom).
 * {@link org.example.bindro.BindReadonlyEnforcer} makes each protected path a read-only bind mount of itself in an
 * unprivileged user and mount namespace, and runs the command in a nested one that locks those mounts; it is
 * simplified on purpose (see its class comment for what Ralon's own {@code mount} backend does beyond it).
 *
 * <p>In the data flow (agent.lock, Policy, protected set, Plan, Enforcer, exec) it is the Enforcer: it receives the
 * host's {@code ProtectedSet}, returns a {@code Plan} and a {@code Launch}, and never sees agent.lock. Nothing
 * depends on it. It is listed in {@code META-INF/services/dev.ralon.enforcer.spi.Enforcer}, which is how
 * {@code ralon run} finds it as a jar in {@code ralon-plugins/} beside the executable, and every build of Ralon puts
 * it through the conformance kit ({@code BindReadonlyConformanceTest}, as the invoking user and as uid 65534).
 *
 * <p>Where new things go: not here. To write your own enforcer, copy this module (its pom.xml, the service file and
 * the conformance test) into a project of your own and follow docs/writing-an-enforcer.md; a backend that ships
 * inside Ralon is a module of its own (CONTRIBUTING.md, "Recipe: a built-in backend").
 */
package org.example.bindro;
