package dev.ralon.conformance;

import dev.ralon.enforcer.spi.Guarantee;

import java.util.Objects;
import java.util.Set;

/**
 * One attack of the catalogue: what it tries, the guarantee it tests, the kinds of path it is made against, and how it
 * is made inside the sandbox.
 *
 * <p>A shell attack is a {@code /bin/sh} fragment using {@code $T} (the attacked path, absolute), {@code $W} (the
 * directory on the way: the parent of the protected path), {@code $F} (an unprotected scratch directory) and
 * {@code $ID} (the case id, unique per attack and kind). A program attack runs one operation of
 * {@link dev.ralon.conformance.attack.AttackProgram} on {@code $T} (with {@code $F/x-$ID} as the other path).
 *
 * @param id        short stable name, e.g. {@code sed-i}
 * @param title     what it does, e.g. {@code sed -i s/original/pwned/ FILE}
 * @param guarantee the guarantee that must stop it
 * @param kinds     the kinds of protected path it is made against
 * @param shell     the shell fragment, or null for a program attack
 * @param program   the {@link dev.ralon.conformance.attack.AttackProgram} operation, or null for a shell attack
 * @param rootOnly  whether it only means something when the sandboxed user is root
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Experimental("handed to a third party in each Verdict; its components may change in a minor"
        + " release")
public record Attack(String id, String title, Guarantee guarantee, Set<PathKind> kinds, String shell, String program,
                     boolean rootOnly) {
    public Attack {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(guarantee, "guarantee");
        kinds = Set.copyOf(kinds);
        if ((shell == null) == (program == null)) {
            throw new IllegalArgumentException("an attack is either a shell fragment or a program operation: " + id);
        }
    }

    /**
     * Prefix of a program operation made from a nested user and mount namespace: {@code userns:OP} runs
     * {@code unshare -Ur -m} around the attack program, which then makes {@code OP}.
     */
    public static final String IN_USER_NAMESPACE = "userns:";

    /** Whether the program runs in a nested user and mount namespace ({@code unshare -Ur -m}) inside the sandbox. */
    public boolean inUserNamespace() {
        return program != null && program.startsWith(IN_USER_NAMESPACE);
    }

    /** The attack program's operation, without the {@link #IN_USER_NAMESPACE} prefix; null for a shell attack. */
    public String operation() {
        return inUserNamespace() ? program.substring(IN_USER_NAMESPACE.length()) : program;
    }

    /** The {@link dev.ralon.conformance.attack.AttackProgram} operation that injects into the terminal. */
    public static final String TERMINAL_PROGRAM = "tiocsti";

    /**
     * Whether it is made through the user's terminal: the program runs under {@code ralon run} started from an
     * interactive shell on a pseudo-terminal, and that shell, outside the sandbox, is what would write the target.
     */
    public boolean viaTerminal() {
        return TERMINAL_PROGRAM.equals(program);
    }

    /** Prefix of the attacks made through a helper of the user's outside the sandbox ({@link #viaHelper()}). */
    public static final String HELPER = "helper:";
    /** A Unix socket listener outside that appends to the target for whoever connects (a tmux server, D-Bus). */
    public static final String HELPER_UNIX_SOCKET = HELPER + "unix-socket";
    /** A process outside that appends to the target when it gets SIGUSR1 (a daemon that acts on a signal). */
    public static final String HELPER_SIGNAL = HELPER + "signal";
    /** A process of the user's outside, whose {@code /proc/PID/root} leads to the host's file system. */
    public static final String HELPER_PROC_ROOT = HELPER + "proc-root";

    /**
     * Whether it is made through a process of the user's started outside the sandbox, which is what would write the
     * target: the host's session guard refuses the command the way to it, under every backend ({@code HelperCases}).
     */
    public boolean viaHelper() {
        return program != null && program.startsWith(HELPER);
    }

    /** Whether its control is the same attack made without {@code ralon run} (the host's guards block it under noop). */
    public boolean plainControl() {
        return viaTerminal() || viaHelper();
    }

    /** Whether it renames or removes the directory on the way ({@code $W}), whose identity is then watched too. */
    public boolean watchesWay() {
        return guarantee == Guarantee.ANCESTOR_RENAME;
    }
}
