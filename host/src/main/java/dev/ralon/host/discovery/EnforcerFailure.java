package dev.ralon.host.discovery;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.enforcer.spi.Internal;

/**
 * A discovered enforcer failed: one of its methods threw something other than what its contract allows (an
 * {@link EnforcementException} from {@link Enforcer#prepare}), or returned nothing. The message is one line naming
 * the backend, where it was loaded from and what failed; the host reports it and goes on without that backend.
 *
 * @since 0.1.0
 */
@Internal("the host's fault isolation; enforcers do not throw it")
public final class EnforcerFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    EnforcerFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
