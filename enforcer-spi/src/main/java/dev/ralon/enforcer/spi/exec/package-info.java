/**
 * The host's exec hygiene: how {@code ralon run} replaces itself with the command. Enforcers return a
 * {@link dev.ralon.enforcer.spi.Launch}; they do not call this package.
 *
 * @since 0.1.0
 */
package dev.ralon.enforcer.spi.exec;
