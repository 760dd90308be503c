/**
 * The enforcer SPI: the contract a backend implements and nothing else. No dependency; the only package exported is
 * the contract, {@code dev.ralon.enforcer.spi}. A backend provides {@link dev.ralon.enforcer.spi.Enforcer} through
 * {@link java.util.ServiceLoader} ({@code provides} in its own module-info, or a
 * {@code META-INF/services/dev.ralon.enforcer.spi.Enforcer} file on the class path).
 *
 * @since 0.1.0
 */
module dev.ralon.enforcer.spi {
    exports dev.ralon.enforcer.spi;
}
