/**
 * The enforcer SPI: what a backend implements ({@link dev.ralon.enforcer.spi.Enforcer}), what it is given
 * ({@link dev.ralon.enforcer.spi.ProtectedSet}, {@link dev.ralon.enforcer.spi.Command}) and what it returns
 * ({@link dev.ralon.enforcer.spi.Plan}, {@link dev.ralon.enforcer.spi.Launch}). Free of the CLI and of every backend.
 *
 * <p>Every public type carries {@link dev.ralon.enforcer.spi.Stable} (relied on by third parties; only grows within a
 * major version) or {@link dev.ralon.enforcer.spi.Experimental} (may change in a minor release), and {@code @since}.
 * Nothing else is here: discovery and fault isolation live in ralon-host ({@code dev.ralon.host.discovery}),
 * Ralon's native layer in ralon-linux, the test kit in the conformance module; this jar has no dependency.
 *
 * @since 0.1.0
 */
package dev.ralon.enforcer.spi;
