package dev.ralon.linux;

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
@dev.ralon.enforcer.spi.Internal("the mount backend's containment")
public final class SessionContainer {
    /** Where timeout(1) and mount(8) are looked for (fixed places, never PATH). */
    static final List<String> TIMEOUT_CANDIDATES = List.of("/usr/bin/timeout", "/bin/timeout");
    static final List<String> MOUNT_CANDIDATES = List.of("/usr/bin/mount", "/bin/mount", "/usr/sbin/mount",
            "/sbin/mount");
    static final List<String> SETPRIV_CANDIDATES = List.of("/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/setpriv",
            "/sbin/setpriv");
    static final List<String> UNSHARE_CANDIDATES = List.of("/usr/bin/unshare", "/bin/unshare", "/usr/sbin/unshare",
            "/sbin/unshare");
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

    /** util-linux unshare(1) (2.38 or later: --map-user), found at a fixed place and executable; empty when none. */
    public static Optional<Path> unshare() {
        return first(UNSHARE_CANDIDATES);
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
        requireAbsolute(rest);
        List<String> out = new ArrayList<>(List.of(timeout.toString(), "--foreground", "0"));
        out.addAll(pid1(mount, procReadOnly));
        out.addAll(List.of(setpriv.toString(), "--pdeathsig", "KILL", "--", timeout.toString(), "--foreground", "0"));
        out.addAll(rest);
        return out;
    }

    // ------------------------------------------------------------------ the route for a backend that cannot mount

    /** How long {@link #startPid1} waits for PID 1 to say its /proc is mounted. */
    static final int PID1_READY_MILLIS = 10_000;
    /**
     * What PID 1 runs once its /proc is mounted: it ignores the terminal's signals (it is in the terminal's foreground
     * process group, and a shell run with -c catches SIGINT to exit on it: dash's trap.c setsignal), says so, then
     * reads its lifeline (descriptor 3) until the last writer is gone, and ends.
     */
    static final String PID1_WAIT = "trap '' INT QUIT TSTP TTIN TTOU HUP TERM; echo ready; exec >/dev/null;"
            + " while read -r _; do :; done <&3";
    static final int F_SETFD = 2;

    /**
     * The write end of the lifeline of the PID 1 this thread started ({@link #startPid1}), which the exec must keep
     * open ({@link #keepLifelineAcrossExec}); -1 when there is none.
     */
    private static volatile int lifeline = -1;

    /**
     * The containment for a backend that cannot mount after it restricts the calling thread (Landlock refuses every
     * mount to a restricted process: security/landlock/fs.c {@code hook_sb_mount}), so PID 1 is started, and mounts
     * the session's /proc, before that restriction. The calling thread must hold CAP_SYS_ADMIN in its user namespace
     * (the launcher's namespace, {@link LauncherNamespace}). In order:
     * <ol>
     *   <li>a mount namespace of the thread's own (unshare(2) CLONE_NEWNS, allowed in a multithreaded process): the
     *       JVM's other threads keep the old /proc until the thread execs, and then end;</li>
     *   <li>a PID namespace for its children ({@link #enter()});</li>
     *   <li>PID 1, spawned from this thread (posix_spawn(3): no thread is created, which the kernel would refuse
     *       now), with no descriptor of this process but its standard error: {@link #PID1}'s shell, which mounts the
     *       namespace's procfs on {@code /proc} in this thread's mount namespace, binds each of {@code procReadOnly}
     *       read-only on it (a root invoker's kernel interfaces), says "ready" and reads its lifeline;</li>
     *   <li>this method returns once PID 1 said "ready", within {@link #PID1_READY_MILLIS}; otherwise it fails.</li>
     * </ol>
     * <b>The lifeline</b> is a pipe: PID 1 holds its read end; its write end stays open across this thread's exec, as
     * descriptor 3 ({@link Exec} places it: {@link #placeLifeline}), in ralon's process, the outer timeout of
     * {@link #argvAfterPid1}, and is closed before the command starts. When ralon's process ends
     * (the command ended, or it was killed, SIGKILL included), the last writer is gone, PID 1 reads the end of the
     * pipe and exits, and the kernel kills every process left in the namespace (pid_namespaces(7)). Why not
     * PR_SET_PDEATHSIG, as the other route: the parent-death signal is sent as from the dying parent, which is
     * restricted, to PID 1, which is not, and Landlock's signal scope refuses it (security/landlock/task.c
     * {@code hook_task_kill}; kernel/signal.c {@code check_kill_permission}); a pipe's end is no signal. PID 1 is
     * outside the caller's later restriction (its Landlock domain scopes signals and ptrace to its own processes),
     * and in the launcher's user namespace, where the command has no capability; the kernel gives PID 1 no default
     * signal action (kernel/signal.c {@code sig_task_ignored}), so Ctrl-C from the terminal does not end it.
     *
     * @throws ExecException when a step fails: the command must not start
     */
    public static void startPid1(List<String> procReadOnly) throws ExecException {
        String missing = unavailableReason();
        if (missing != null) {
            throw new ExecException("the session cannot be contained: " + missing);
        }
        try {
            LibC.unshare(LinuxAbi.CLONE_NEWNS);
        } catch (com.sun.jna.LastErrorException e) {
            throw new ExecException("cannot make the session's mount namespace: " + Errno.text(e) + " (unshare)");
        }
        enter();
        List<String> argv = new ArrayList<>(pid1(mount().orElseThrow(), procReadOnly));
        argv.addAll(List.of(SHELL, "-c", PID1_WAIT));
        Exec.markDescriptorsCloseOnExec();
        int[] ready = pipe();
        int[] life;
        try {
            life = pipe();
        } catch (ExecException e) {
            LibC.close(ready[0]);
            LibC.close(ready[1]);
            throw e;
        }
        int writeEnd = life[1];
        try {
            com.sun.jna.Memory actions = new com.sun.jna.Memory(256);
            actions.clear();
            LibC.posix_spawn_file_actions_init(actions);
            try {
                LibC.posix_spawn_file_actions_addopen(actions, 0, "/dev/null", LinuxAbi.O_RDONLY, 0);
                LibC.posix_spawn_file_actions_adddup2(actions, ready[1], 1);
                LibC.posix_spawn_file_actions_adddup2(actions, life[0], 3);
                int[] pid = new int[1];
                int rc = LibC.posix_spawn(pid, SHELL, actions, null,
                        new com.sun.jna.StringArray(argv.toArray(new String[0])),
                        new com.sun.jna.StringArray(new String[] {"PATH=/usr/bin:/bin:/usr/sbin:/sbin", "LC_ALL=C"}));
                if (rc != 0) {
                    throw new ExecException("cannot start the session's PID 1: " + Errno.text(rc) + " (posix_spawn)");
                }
            } finally {
                LibC.posix_spawn_file_actions_destroy(actions);
            }
            LibC.close(ready[1]);
            ready[1] = -1;
            awaitReady(ready[0]);
            lifeline = writeEnd;
        } finally {
            LibC.close(ready[0]);
            if (ready[1] >= 0) {
                LibC.close(ready[1]);
            }
            LibC.close(life[0]);
            if (lifeline != writeEnd) {
                LibC.close(writeEnd); // failed: PID 1 reads the end of its lifeline and exits
            }
        }
    }

    /**
     * For {@link Exec}, as its last step before execve(2): the lifeline's write end, if this thread started a PID 1,
     * becomes descriptor 3, open across the exec (dup3(2) without O_CLOEXEC; whatever the JVM had there was marked
     * close-on-exec and is not read again), which {@link #argvAfterPid1}'s shell closes before the command.
     */
    static void placeLifeline() throws ExecException {
        int fd = lifeline;
        if (fd < 0) {
            return;
        }
        try {
            if (fd != LIFELINE_FD) {
                LibC.dup3(fd, LIFELINE_FD, 0);
            } else {
                LibC.fcntl(fd, F_SETFD, 0);
            }
        } catch (com.sun.jna.LastErrorException e) {
            throw new ExecException("cannot keep the session's lifeline open: " + Errno.text(e) + " (dup3)");
        }
    }

    /** The descriptor the lifeline has in ralon's process after the exec. */
    static final int LIFELINE_FD = 3;

    private static int[] pipe() throws ExecException {
        int[] fds = new int[2];
        try {
            LibC.pipe2(fds, LinuxAbi.O_CLOEXEC);
            return fds;
        } catch (com.sun.jna.LastErrorException e) {
            throw new ExecException("cannot make a pipe for the session's PID 1: " + Errno.text(e) + " (pipe2)");
        }
    }

    private static void awaitReady(int fd) throws ExecException {
        long deadline = System.nanoTime() + PID1_READY_MILLIS * 1_000_000L;
        StringBuilder said = new StringBuilder();
        byte[] buf = new byte[64];
        while (!said.toString().contains("ready\n")) {
            int left = (int) ((deadline - System.nanoTime()) / 1_000_000L);
            if (left <= 0) {
                throw new ExecException("the session's PID 1 did not mount its /proc within " + PID1_READY_MILLIS
                        + " ms");
            }
            try {
                if (Poll.await(fd, left) == Poll.Readiness.TIMED_OUT) {
                    continue;
                }
            } catch (java.io.IOException e) {
                throw new ExecException("cannot wait for the session's PID 1: " + e.getMessage());
            }
            long r = LibC.read(fd, buf, buf.length);
            if (r <= 0) {
                throw new ExecException("the session's PID 1 could not mount its /proc (it said why above, if it could)");
            }
            said.append(new String(buf, 0, (int) r, java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    /**
     * The argv to exec after {@link #startPid1} (and the caller's own restriction): {@code timeout --foreground 0}
     * (it keeps ralon's pid and the lifeline, passes SIGTERM, SIGINT, SIGHUP and SIGQUIT on to its child and returns
     * its status), and its child, the namespace's second process: {@code /bin/sh}, which closes the lifeline
     * (descriptor 3, so that nothing the command starts holds it) and execs {@code rest}.
     */
    public static List<String> argvAfterPid1(Path timeout, List<String> rest) {
        requireAbsolute(rest);
        List<String> out = new ArrayList<>(List.of(timeout.toString(), "--foreground", "0", SHELL, "-c",
                "exec " + LIFELINE_FD + ">&-; exec \"$@\"", "sh"));
        out.addAll(rest);
        return out;
    }

    /**
     * PID 1's start on either route, up to what it execs: {@link #PID1}'s shell with {@code mount} and each of
     * {@code procReadOnly} (beneath /proc), then {@code --}.
     */
    private static List<String> pid1(Path mount, List<String> procReadOnly) {
        List<String> out = new ArrayList<>(List.of(SHELL, "-c", PID1, "sh", mount.toString()));
        for (String p : procReadOnly) {
            if (!p.startsWith("/proc/") || p.equals("--")) {
                throw new IllegalArgumentException("not beneath /proc: " + p);
            }
            out.add(p);
        }
        out.add("--");
        return out;
    }

    /** The command after the chain: timeout execs it with execvp(3), which searches PATH only for a bare name. */
    private static void requireAbsolute(List<String> rest) {
        if (rest.isEmpty() || !rest.get(0).startsWith("/")) {
            throw new IllegalArgumentException("the command must be an absolute path: " + rest);
        }
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
