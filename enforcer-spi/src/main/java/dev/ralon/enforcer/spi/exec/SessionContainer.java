package dev.ralon.enforcer.spi.exec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Nothing the command starts outlives it: the command runs beneath the first process (PID 1) of a PID namespace of its
 * own, and when the command ends that process ends, and the kernel kills every process left in the namespace
 * ({@code nohup … &}, {@code setsid}, double forks included: pid_namespaces(7), "if the init process of a PID
 * namespace terminates, the kernel terminates all of the processes in the namespace via a SIGKILL signal";
 * kernel/pid_namespace.c {@code zap_pid_ns_processes}).
 *
 * <h2>The chain (the mount backend's, from its first user namespace, where this process is root)</h2>
 * <ol>
 *   <li>{@link #enter()}: {@code unshare(CLONE_NEWPID)} on the calling thread. It moves the caller's <em>children</em>
 *       into the new namespace, not the caller (unshare(2)); unlike CLONE_NEWUSER it is allowed in a multithreaded
 *       process (kernel/fork.c {@code check_unshare_flags} only refuses CLONE_THREAD/SIGHAND/VM there), and it is kept
 *       across execve (the thread's nsproxy {@code pid_ns_for_children}).</li>
 *   <li>The caller then execs the outer {@code timeout --foreground 0} (GNU coreutils timeout(1): duration 0 is no
 *       timer; {@code --foreground} keeps its child in the terminal's foreground process group). It keeps ralon's pid,
 *       which the user's shell waits for; it passes SIGTERM, SIGINT, SIGHUP and SIGQUIT on to its child and exits with
 *       the child's status (128+N when the child died of signal N).</li>
 *   <li>Its child is PID 1: {@code /bin/sh}, which mounts a procfs of the new namespace on {@code /proc} (so that
 *       {@code ps}, {@code pgrep}, {@code pkill} and {@code /proc/$$} inside speak of the session's own processes by
 *       the ids {@code kill} takes; proc(5): a procfs shows the PID namespace of the process that mounted it) and
 *       execs, through {@code setpriv --pdeathsig KILL} (util-linux setpriv(1): PR_SET_PDEATHSIG, kept across
 *       execve, prctl(2)), the inner {@code timeout --foreground 0}, which stays PID 1 and passes the same signals on
 *       to the rest of the chain. When the outer timeout dies of any other signal (SIGUSR1, SIGKILL), the kernel
 *       sends PID 1 SIGKILL, and the whole namespace ends with it. PID 1 must be a program that handles them: the kernel gives PID 1 no default signal actions
 *       (kernel/signal.c {@code sig_task_ignored}, SIGNAL_UNKILLABLE), so the command itself as PID 1 would ignore
 *       Ctrl-C and SIGTERM. PID 1 and the outer timeout run in the first user namespace, where the command (in the
 *       second) has no capability: it cannot ptrace them to keep PID 1 alive (security/commoncap.c
 *       {@code cap_ptrace_access_check}).</li>
 *   <li>The command is a child of PID 1 (after the second user namespace's unshare(1) execs it), in the terminal's
 *       foreground process group: Ctrl-C, Ctrl-Z and SIGWINCH from the terminal reach it directly.</li>
 * </ol>
 * Why timeout(1) and not unshare(1)'s own {@code --fork}: util-linux before 2.42 blocks SIGINT and SIGTERM in
 * unshare's parent and passes nothing on (checked with 2.38: {@code kill -TERM} of the parent was lost until the child
 * ended), so {@code kill PID} or a {@code timeout 60 ralon run ...} around ralon would no longer stop the command.
 * coreutils is on every system util-linux is on. What is given up: the command no longer has ralon's pid (the outer
 * timeout has it); PID 1 reaps only the command, so orphans stay zombies until the command ends; signals to ralon's
 * pid other than the four above are not passed on: one whose default is to terminate (SIGUSR1, SIGKILL) ends the
 * session at once, with SIGKILL, instead of reaching the command.
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Experimental("the mount backend's containment")
public final class SessionContainer {
    /** Where timeout(1) and mount(8) are looked for (fixed places, never PATH). */
    static final List<String> TIMEOUT_CANDIDATES = List.of("/usr/bin/timeout", "/bin/timeout");
    static final List<String> MOUNT_CANDIDATES = List.of("/usr/bin/mount", "/bin/mount", "/usr/sbin/mount",
            "/sbin/mount");
    static final List<String> SETPRIV_CANDIDATES = List.of("/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/setpriv",
            "/sbin/setpriv");
    /**
     * PID 1's script: mount the namespace's own /proc with mount(8) ($1), bind each path before {@code --} read-only on
     * the new /proc (a root invoker's kernel interfaces: /proc/sys and the others), then become the inner timeout. Any
     * failure exits 125 before the command starts: fail closed.
     */
    static final String PID1 = "m=$1; shift; \"$m\" -t proc -o nosuid,nodev,noexec proc /proc || exit 125\n"
            + "while [ \"$1\" != -- ]; do if [ -e \"$1\" ]; then \"$m\" --bind \"$1\" \"$1\""
            + " && \"$m\" -o remount,bind,ro \"$1\" || exit 125; fi; shift; done; shift\n"
            + "exec \"$@\"";

    private SessionContainer() {
    }

    /** GNU coreutils timeout(1), found at a fixed place and executable; empty when there is none. */
    public static Optional<Path> timeout() {
        return first(TIMEOUT_CANDIDATES);
    }

    /** util-linux mount(8), found at a fixed place and executable; empty when there is none. */
    public static Optional<Path> mount() {
        return first(MOUNT_CANDIDATES);
    }

    /** util-linux setpriv(1) (2.33 or later: --pdeathsig), found at a fixed place and executable; empty when none. */
    public static Optional<Path> setpriv() {
        return first(SETPRIV_CANDIDATES);
    }

    /** Why the session cannot be contained here, or null when it can. */
    public static String unavailableReason() {
        if (setpriv().isEmpty()) {
            return "util-linux setpriv(1) was not found in /usr/bin, /bin, /usr/sbin or /sbin (PID 1 dies with ralon's"
                    + " process through it)";
        }
        if (timeout().isEmpty()) {
            return "GNU coreutils timeout(1) was not found in /usr/bin or /bin (it is PID 1 of the session's PID"
                    + " namespace)";
        }
        if (mount().isEmpty()) {
            return "util-linux mount(8) was not found in /usr/bin, /bin, /usr/sbin or /sbin (PID 1 mounts the"
                    + " session's /proc with it)";
        }
        return Files.isExecutable(Path.of(SHELL)) ? null : SHELL + " is not there (it starts PID 1)";
    }

    static final String SHELL = "/bin/sh";

    /**
     * Makes the calling thread's next children the first processes of a new PID namespace (the first one is PID 1).
     * Needs CAP_SYS_ADMIN in the caller's user namespace (unshare(2)).
     *
     * @throws ExecException when the kernel refuses
     */
    public static void enter() throws ExecException {
        try {
            LibC.unshare(LinuxAbi.CLONE_NEWPID);
        } catch (com.sun.jna.LastErrorException e) {
            throw new ExecException("cannot make the session's PID namespace: " + Errno.text(e) + " (unshare)");
        }
    }

    /**
     * The argv to exec after {@link #enter()}: the outer timeout, PID 1 ({@code /bin/sh} mounting the namespace's
     * /proc with {@code mount} and binding {@code procReadOnly} read-only on it, then setpriv and the inner timeout),
     * and {@code rest} (what PID 1 runs; its first element an absolute path: timeout execs it with execvp(3), which
     * searches PATH only for a name without a slash).
     */
    public static List<String> argv(Path timeout, Path setpriv, Path mount, List<String> procReadOnly,
                                    List<String> rest) {
        if (rest.isEmpty() || !rest.get(0).startsWith("/")) {
            throw new IllegalArgumentException("the command must be an absolute path: " + rest);
        }
        List<String> out = new ArrayList<>(List.of(timeout.toString(), "--foreground", "0", SHELL, "-c", PID1, "sh",
                mount.toString()));
        for (String p : procReadOnly) {
            if (!p.startsWith("/proc/") || p.equals("--")) {
                throw new IllegalArgumentException("not beneath /proc: " + p);
            }
            out.add(p);
        }
        out.add("--");
        out.addAll(List.of(setpriv.toString(), "--pdeathsig", "KILL", "--", timeout.toString(), "--foreground", "0"));
        out.addAll(rest);
        return out;
    }

    private static Optional<Path> first(List<String> candidates) {
        for (String c : candidates) {
            Path p = Path.of(c);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
