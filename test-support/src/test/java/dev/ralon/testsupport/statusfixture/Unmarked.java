package dev.ralon.testsupport.statusfixture;

/** ApiStatusTest's fixture: public, and says no status. */
public final class Unmarked {
    private Unmarked() {
    }

    /** Nested: judged with its enclosing type, never on its own. */
    public static final class Nested {
        private Nested() {
        }
    }
}
