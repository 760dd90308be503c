/**
 * Ralon's Linux native layer, shared by its backends, its host and its cli, and by nobody else: one binding of libc
 * ({@link dev.ralon.linux.LibC}, JNA direct mapping), one errno wording ({@link dev.ralon.linux.Errno}), the
 * architecture's constants ({@link dev.ralon.linux.LinuxAbi}); the exec hygiene ({@link dev.ralon.linux.Exec}: how
 * {@code ralon run} replaces itself with the command) and the guards installed before it
 * ({@link dev.ralon.linux.TerminalGuard}, {@link dev.ralon.linux.SessionGuard}); the session's containment
 * ({@link dev.ralon.linux.SessionContainer}); binds of paths onto themselves ({@link dev.ralon.linux.Binds}); the
 * mount table ({@link dev.ralon.linux.MountTable}) and the launcher's namespace
 * ({@link dev.ralon.linux.LauncherNamespace}); and a SHA-256 that starts no JCA provider ({@link dev.ralon.linux.Sha256}),
 * for what a start hashes.
 *
 * <p>Internal: no compatibility promise. The SPI (enforcer-spi) does not depend on it, so a third-party enforcer
 * neither sees nor needs it: it returns a {@link dev.ralon.enforcer.spi.Launch} and brings its own native code.
 *
 * <p>Where new things go: a new libc function in {@code LibC} (throwing {@code LastErrorException} or returning the
 * raw result, never both), its constants in {@code LinuxAbi} with the kernel header named beside each, a step of the
 * exec hygiene in {@code Exec}, something both backends do to a mount namespace here rather than in either backend.
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("Ralon's backends, host and cli")
package dev.ralon.linux;
