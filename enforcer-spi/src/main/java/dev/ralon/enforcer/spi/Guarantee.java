package dev.ralon.enforcer.spi;

/**
 * One row of the guarantee table: an effect on a protected path that an enforcer promises the kernel will refuse to a
 * sandboxed process and everything it spawns, whatever tool or system call it uses.
 *
 * <p>Guarantees are effects, not attacks: many attacks (sed -i, an editor's atomic save, {@code renameat2} with
 * RENAME_EXCHANGE, a hard link made inside the sandbox, {@code /proc/self/fd} reopen, mmap) test one guarantee. The
 * conformance kit attacks every declared guarantee for real and checks that every guarantee not declared is reported
 * as not enforced; an enforcer must never declare a guarantee it does not enforce.
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public enum Guarantee {
    /** Contents of a protected file cannot change: write, append, truncate, O_TRUNC, mmap, fallocate, copy over. */
    MODIFY_CONTENT("write, append or truncate a protected file"),
    /** A protected file or directory cannot be unlinked or removed. */
    DELETE("delete a protected path"),
    /** A protected path cannot be renamed or moved elsewhere. */
    RENAME_AWAY("rename or move a protected path away"),
    /** Nothing can be renamed onto a protected path (atomic save, RENAME_EXCHANGE included). */
    RENAME_OVER("replace a protected path by rename (atomic save, exchange)"),
    /** No entry can be created, removed or renamed inside a protected directory. */
    CREATE_INSIDE("create, remove or rename entries inside a protected directory"),
    /** A directory on the way from / to a protected path cannot be renamed or removed. */
    ANCESTOR_RENAME("rename or remove a directory on the way to a protected path"),
    /** A protected path that did not exist when the sandbox started cannot be created. */
    CREATE_MISSING("create a protected path that did not exist at start"),
    /** Mode, owner, timestamps and extended attributes of a protected path cannot change. */
    METADATA("change mode, owner, times or xattrs of a protected path"),
    /**
     * No process the command starts keeps running once the command has ended ({@code nohup … &}, {@code setsid},
     * double forks included), so nothing of a session acts after it: a process left behind would keep the session's
     * old view (under mount, a protected file the user replaced by an atomic save is a new, unbound file there) and
     * its old policy into the next session. Not an effect on a protected path but on the session as a whole.
     *
     * @since 0.1.0
     */
    LEFTOVERS("leave a process running after the command ends"),
    /**
     * Outside the writable areas the host hands {@link Enforcer#prepare(Plan, Command, Confinement)} (the project,
     * temporary directories, the agents' own state), nothing can be written, created, removed or renamed, whatever
     * tool is used: no file left in {@code $HOME} or the system for a program outside the session to run later.
     * Protected paths inside the areas stay protected. Device files stay writable ({@code /dev/null}, terminals).
     * Not an effect on a protected path but on the session as a whole.
     *
     * @since 0.1.0
     */
    WRITES_OUTSIDE("write outside the project and the session's writable areas");

    private final String effect;

    Guarantee(String effect) {
        this.effect = effect;
    }

    /** What the sandboxed process cannot do when this guarantee holds, in plain words. */
    public String effect() {
        return effect;
    }

    /** The stable name used in JSON output and docs: lower case with dashes, e.g. {@code modify-content}. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
