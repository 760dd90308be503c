package dev.ralon.testsupport.statusfixture;

/** ApiStatusTest's fixture: not public, so it needs no status. */
final class Hidden {
    private Hidden() {
    }
}
