/**
 * The {@code mount} enforcer: protected paths become read-only bind mounts in an unprivileged user and mount
 * namespace, locked by a nested user namespace before the command runs. {@link dev.ralon.enforcer.mount.MountEnforcer}
 * is the SPI entry point; {@link dev.ralon.enforcer.mount.MountStage} is the JVM main that makes the mounts inside the
 * first namespace. See docs/backend-mount.md.
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): public only for {@code ServiceLoader} and for
 * {@code MountStage}'s {@code main}; no compatibility promise.
 */
@dev.ralon.enforcer.spi.Internal("a built-in backend: public for ServiceLoader, which the host's discovery finds it"
        + " through, and for the stage JVM's main class")
package dev.ralon.enforcer.mount;
