package dev.ralon.enforcer.spi;

/**
 * What the host ({@code ralon run}) refuses to the command and everything it starts, towards processes
 * <em>outside</em> the session, whatever backend protects the paths: the user's helpers (tmux server, D-Bus session
 * bus, systemd --user, Docker, gpg-agent, ssh-agent, an X server, a JVM's attach listener) act for whoever connects to
 * them or signals them, outside any sandbox. Held by {@code SessionGuard} (Ralon's native layer), installed by
 * {@code Exec#replaceProcess} (Ralon's native layer) for every backend; a backend declares nothing for these.
 *
 * <p>Unlike {@link Guarantee}, these are about processes, not paths: "outside" is every process not started by the
 * command (the user's shell, the helpers, the user's other programs).
 *
 * @since 0.1.0
 */
@Experimental("the session guard's guarantees; names and ids may change")
public enum SessionGuarantee {
    /** No Unix socket can be created, so none outside can be reached (path or abstract name); socketpair(2) stays. */
    UNIX_SOCKETS("connect to a Unix socket of a process outside the session"),
    /** kill(2), tgkill(2), sigqueue(3), a pidfd signal or SIGIO to a process outside fails (EPERM). */
    SIGNALS("signal a process outside the session"),
    /** ptrace(2), process_vm_readv/writev(2), /proc/PID/mem and environ, pidfd_getfd(2) of a process outside fail. */
    PTRACE("trace, debug or read the memory of a process outside the session");

    private final String effect;

    SessionGuarantee(String effect) {
        this.effect = effect;
    }

    /** What the command cannot do when this guarantee holds, in plain words. */
    public String effect() {
        return effect;
    }

    /** The stable name used in JSON output and docs: lower case with dashes, e.g. {@code unix-sockets}. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
