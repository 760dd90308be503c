/**
 * The {@code landlock} enforcer: the Landlock LSM restricts the thread that execs the command, which inherits the
 * restriction with everything it starts. {@link dev.ralon.enforcer.landlock.LandlockEnforcer} is the SPI entry point
 * (name, rank 200, probe, guarantees, {@code plan}, {@code prepare}); {@code RulePlanner} turns a protected set into
 * rules (read-only on {@code /}, full access beside every directory on the way), {@code MountAliases} adds the other
 * mounts a protected object is reachable through, {@code ContainedBinds} makes protected paths outside the project
 * read-only binds instead of rules, {@code LandlockContainment} puts the command in a PID namespace of its own, and
 * {@code LandlockApplier} applies the plan on the exec thread. {@code Access} holds the access rights and their ABI,
 * {@code LinuxCalls} the structures and calls over the SPI's native layer. See docs/backend-landlock.md.
 *
 * <p>In the data flow (agent.lock, Policy, protected set, Plan, Enforcer, exec) it takes the host's
 * {@code ProtectedSet}, returns a {@code Plan} and, in {@code prepare}, a {@code Launch} the host execs. Depends on
 * enforcer-spi and the native layer, ralon-linux ({@code LibC}, {@code LinuxAbi}, {@code Binds}, {@code MountTable},
 * {@code SessionContainer}, {@code LauncherNamespace}), and JNA; nothing compiles against it: the cli (runtime
 * dependency) and enforcement-tests find it through its {@code META-INF/services} entry.
 *
 * <p>Where new things go: a new Landlock access right goes in {@code Access} with the ABI that introduced it, and is
 * granted or withheld in {@code RulePlanner}; a new structure or flag in {@code LinuxCalls}; a libc function the
 * whole code base may use in ralon-linux's {@code LibC}, not here. A new declared guarantee changes
 * {@code LandlockEnforcer}'s set, README.md's guarantee table and docs/backend-landlock.md together.
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): public only for {@code ServiceLoader} and the stage the
 * launcher starts; no compatibility promise.
 */
@dev.ralon.enforcer.spi.Internal("a built-in backend: public for ServiceLoader, which the host's discovery finds it"
        + " through")
package dev.ralon.enforcer.landlock;
