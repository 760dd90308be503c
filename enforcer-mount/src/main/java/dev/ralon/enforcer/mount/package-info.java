/**
 * The {@code mount} enforcer: protected paths become read-only bind mounts in an unprivileged user and mount
 * namespace, locked by a nested user namespace before the command runs. {@link dev.ralon.enforcer.mount.MountEnforcer}
 * is the SPI entry point; {@link dev.ralon.enforcer.mount.MountStage} is the JVM main that makes the mounts inside the
 * first namespace. See docs/backend-mount.md.
 */
package dev.ralon.enforcer.mount;
