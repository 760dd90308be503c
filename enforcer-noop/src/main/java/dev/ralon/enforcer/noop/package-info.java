/**
 * The {@code noop} enforcer: {@link dev.ralon.enforcer.noop.NoopEnforcer} enforces nothing and declares no guarantee,
 * so that a run without protection is an explicit, visible choice ({@code ralon run --backend noop}). Its rank is 0:
 * the host never chooses it by itself. Its plan warns that it protects nothing and lists, as steps, the paths that
 * would have been protected; its {@code prepare} returns the command unchanged.
 *
 * <p>In the data flow (agent.lock, Policy, protected set, Plan, Enforcer, exec) it stands where a real backend
 * would, so everything before and after it (policy, host admission, exec hygiene) runs as usual. Depends on
 * enforcer-spi alone; nothing compiles against it: the cli (runtime dependency) finds it through its
 * {@code META-INF/services} entry, and the conformance kit runs every attack under it first, as the control that
 * proves each attack really changes something when nothing protects.
 *
 * <p>Where new things go: nowhere here; it must stay the smallest possible enforcer. A new built-in backend is a
 * module of its own beside enforcer-landlock and enforcer-mount (CONTRIBUTING.md, "Recipe: a built-in backend");
 * a third-party one starts from examples/third-party-enforcer.
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): public only for {@code ServiceLoader}; no compatibility
 * promise.
 */
@dev.ralon.enforcer.spi.Internal("a built-in backend: public for ServiceLoader, which the host's discovery and the"
        + " conformance kit (its control run) find it through")
package dev.ralon.enforcer.noop;
