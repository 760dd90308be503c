package dev.ralon.testsupport.statusfixture;

import dev.ralon.enforcer.spi.Internal;
import dev.ralon.enforcer.spi.Stable;

/** ApiStatusTest's fixture: public, and claims two statuses. */
@Stable(since = "0.1.0")
@Internal
public final class Twice {
    private Twice() {
    }
}
