package dev.ralon.host;

import dev.ralon.enforcer.spi.Enforcer;

import java.util.List;

/**
 * The one table of Ralon's built-in backends by name: the only place outside the backends themselves that names them.
 * What differs between backends otherwise comes from the SPI (their guarantees, covered kinds, denied errors, plan);
 * what is here is what only Ralon's own start knows: which backends its launcher ({@code ralon.sh},
 * {@code ralon_may_userns}) starts {@code ralon run} inside a user namespace for, and which one keeps the session's
 * Landlock domain for itself.
 */
public final class BuiltInBackends {
    public static final String MOUNT = "mount";
    public static final String LANDLOCK = "landlock";
    public static final String NOOP = "noop";
    /** Every built-in name: reserved, no plugin may take one (nor any name starting {@code ralon-}). */
    public static final List<String> NAMES = List.of(MOUNT, LANDLOCK, NOOP);

    private BuiltInBackends() {
    }

    /**
     * Whether the launcher may start {@code ralon run} as root of a user namespace of its own for this backend (the
     * mount backend's first namespace; landlock's containment is made there): only these map the invoker's ids back
     * before the command, so only these may be chosen in that namespace.
     */
    public static boolean runsInLauncherNamespace(Enforcer e) {
        return MOUNT.equals(e.name()) || LANDLOCK.equals(e.name());
    }

    /** Whether the backend is Ralon's landlock (its notes on the agents; its own domain handles file access). */
    public static boolean isLandlock(Enforcer e) {
        return isLandlock(e.name());
    }

    /** {@link #isLandlock(Enforcer)} by name. */
    public static boolean isLandlock(String backend) {
        return LANDLOCK.equals(backend);
    }
}
