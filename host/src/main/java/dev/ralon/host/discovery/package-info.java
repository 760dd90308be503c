/**
 * Finding the backends and keeping each behind a wall: {@link dev.ralon.host.discovery.Enforcers} reads the
 * {@code META-INF/services/dev.ralon.enforcer.spi.Enforcer} files of the class path and of each trusted plugin jar (a
 * class loader per jar), applies the naming rules (unique, not reserved), and wraps every enforcer in
 * {@code Isolated}, so that a plugin's failure of any kind, at any call, arrives as one
 * {@link dev.ralon.host.discovery.EnforcerFailure} naming the backend and its jar, and a third party's
 * {@code probe()}/{@code plan()} that never returns is given up after a bound.
 *
 * <p>Host-side, apart from the SPI (as JUnit's launcher is apart from its engine API): a third party implements the
 * SPI and never calls this. Used by {@code dev.ralon.host.Backends} and the conformance kit. Where new things go: a
 * naming rule in {@code Enforcers.named}, a new call of the SPI wrapped in {@code Isolated}.
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): public for Ralon's own modules, no compatibility promise.
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("Ralon's host, cli and conformance kit")
package dev.ralon.host.discovery;
