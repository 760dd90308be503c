/**
 * The enforcer SPI: what a backend implements ({@link dev.ralon.enforcer.spi.Enforcer}), what it is given
 * ({@link dev.ralon.enforcer.spi.ProtectedSet}, {@link dev.ralon.enforcer.spi.Command}) and what it returns
 * ({@link dev.ralon.enforcer.spi.Plan}, {@link dev.ralon.enforcer.spi.Launch}). Free of the CLI and of every backend.
 * Discovery lives apart in {@link dev.ralon.enforcer.spi.Enforcers}; the test kit lives in the conformance module.
 */
package dev.ralon.enforcer.spi;
