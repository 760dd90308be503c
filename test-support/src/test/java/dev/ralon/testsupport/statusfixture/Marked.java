package dev.ralon.testsupport.statusfixture;

import dev.ralon.enforcer.spi.Experimental;

/** ApiStatusTest's fixture: public, with one status. */
@Experimental
public final class Marked {
    private Marked() {
    }
}
