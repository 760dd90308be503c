package dev.ralon.linux;

import com.sun.jna.LastErrorException;
import com.sun.jna.StringArray;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Replaces the running JVM with another program, in the same process (same pid), after undoing what the JVM did to
 * the process, so that the program starts as if the user's shell had started it.
 *
 * <p>Guaranteed before {@code execve(2)}:
 * <ul>
 *   <li>The calling thread's signal mask is empty. HotSpot blocks some signals in Java threads; {@code execve} keeps
 *       the calling thread's mask (signal(7): "the signal mask is preserved across execve").</li>
 *   <li>Signal dispositions: signals the JVM catches reset to the default on exec (execve(2)); signals ignored when
 *       the JVM started (e.g. under nohup) stay ignored, as the user had them. HotSpot ignores no signal itself.</li>
 *   <li>RLIMIT_NOFILE's soft limit is the user's: the launcher starts the JVM with {@code -XX:-MaxFDLimit}, and
 *       records the soft limit it had in {@code RALON_ORIG_NOFILE}, which is restored here and removed from the
 *       environment.</li>
 *   <li>Every descriptor above 2 is marked close-on-exec ({@code close_range(3, ~0U, CLOSE_RANGE_CLOEXEC)},
 *       close_range(2), Linux 5.11; older kernels: each fd in /proc/self/fd gets FD_CLOEXEC). Nothing the JVM opened
 *       leaks into the command.</li>
 *   <li>The environment is passed exactly as given.</li>
 *   <li>Last, {@link TerminalGuard#install()}: a seccomp filter makes ioctl TIOCSTI and TIOCLINUX fail (EPERM), so
 *       the command cannot push keystrokes into the terminal it shares with the user's shell. It is inherited by
 *       everything the command starts and cannot be removed. It may set no_new_privs (only when the process lacks
 *       CAP_SYS_ADMIN in its user namespace, as seccomp(2) requires): set-user-ID programs then gain nothing.</li>
 *   <li>Then {@link SessionGuard#install}: with the given {@link SessionGuard.Options}, no Unix socket can be created
 *       (a seccomp filter) and no process outside the command's own can be signalled or traced (a Landlock domain with
 *       scopes). Both are inherited and permanent too; the second may set no_new_privs on the same condition.</li>
 *   <li>When execve fails with ENOEXEC (a file without {@code #!} and not a binary the kernel knows), the file is run
 *       by {@code /bin/sh} as {@code execvp(3)} does (POSIX: "the shell shall be invoked with the file as its first
 *       operand"; glibc posix/execvpe.c {@code maybe_script_execute}: argv becomes {@code /bin/sh FILE ARG1...}).</li>
 * </ul>
 * Must be called on the thread that applied any per-thread restriction (Landlock, no_new_privs): execve keeps the
 * calling thread's credentials and ends every other thread (execve(2), "All threads other than the calling thread
 * are destroyed").
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("the host's exec; enforcers do not call it")
public final class Exec {
    /** Environment variable in which the launcher records the soft RLIMIT_NOFILE the user had. */
    public static final String ORIG_NOFILE_ENV = "RALON_ORIG_NOFILE";

    private static final int SIG_SETMASK = 2;              // <bits/sigaction.h>
    private static final int SIGSET_BYTES = 128;           // glibc sigset_t is 1024 bits
    private static final int RLIMIT_NOFILE = 7;            // <asm-generic/resource.h>
    private static final int CLOSE_RANGE_CLOEXEC = 1 << 2; // <linux/close_range.h>
    private static final int F_SETFD = 2;
    private static final int FD_CLOEXEC = 1;
    /** The shell execvp(3) falls back to (glibc _PATH_BSHELL). */
    static final String BOURNE_SHELL = "/bin/sh";

    private Exec() {
    }

    /**
     * Execs {@code executable} with {@code argv} and {@code env} under {@link SessionGuard.Options#strongest()} (what
     * this kernel can hold). Returns only by throwing.
     *
     * @throws ExecException when execve failed (the process is unchanged but for the hygiene steps)
     */
    public static void replaceProcess(Path executable, List<String> argv, Map<String, String> env) throws ExecException {
        replaceProcess(executable, argv, env, SessionGuard.Options.strongest());
    }

    /**
     * Execs {@code executable} with {@code argv} and {@code env}, with the session guard {@code session} (the host
     * decides it: {@code --allow-unix-sockets}, {@code --allow-degraded}). Returns only by throwing.
     *
     * @throws ExecException when execve failed or a guard could not be installed (then nothing was executed)
     */
    public static void replaceProcess(Path executable, List<String> argv, Map<String, String> env,
                                      SessionGuard.Options session) throws ExecException {
        StringArray envArray = new StringArray(guard(env, session));
        StringArray argvArray = new StringArray(argv.toArray(new String[0]));
        // the last step before execve, nothing of this JVM reads descriptor 3 after it (SessionContainer.startPid1)
        SessionContainer.placeLifeline();
        // the landlock broker's filter, when a backend armed it: last, as its calls then wait for the broker
        SeccompNotify.handOverBeforeExec();
        try {
            LibC.execve(executable.toString(), argvArray, envArray);
            throw new ExecException("cannot execute " + executable + ": execve returned");
        } catch (LastErrorException e) {
            if (e.getErrorCode() != LinuxAbi.ENOEXEC) {
                throw new ExecException("cannot execute " + executable + ": " + Errno.text(e));
            }
        }
        try {
            LibC.execve(BOURNE_SHELL, new StringArray(shellArgv(executable, argv).toArray(new String[0])), envArray);
            throw new ExecException("cannot execute " + executable + " with " + BOURNE_SHELL + ": execve returned");
        } catch (LastErrorException e) {
            throw new ExecException("cannot execute " + executable + " (not a binary, no #!) with " + BOURNE_SHELL
                    + ": " + Errno.text(e));
        }
    }

    /**
     * The steps before the program starts, on the calling thread (the class doc's list but the exec): the signal mask
     * cleared, RLIMIT_NOFILE restored, descriptors marked close-on-exec, the terminal and session guards installed.
     * Returns the environment as {@code NAME=value} strings.
     */
    private static String[] guard(Map<String, String> env, SessionGuard.Options session) throws ExecException {
        Map<String, String> environment = new TreeMap<>(env);
        restoreNofile(environment.remove(ORIG_NOFILE_ENV));
        int rc = LibC.pthread_sigmask(SIG_SETMASK, new byte[SIGSET_BYTES], null);
        if (rc != 0) {
            throw new ExecException("cannot clear the signal mask: pthread_sigmask returned " + rc);
        }
        markDescriptorsCloseOnExec();
        System.out.flush();
        System.err.flush();
        String[] envp = new String[environment.size()];
        int i = 0;
        for (Map.Entry<String, String> e : environment.entrySet()) {
            envp[i++] = e.getKey() + "=" + e.getValue();
        }
        TerminalGuard.install();
        SessionGuard.install(session);
        return envp;
    }

    /**
     * The gate's shell ({@link #spawnGated}): it reads one line from descriptor 3 and execs its arguments only when
     * that line is {@code go}; when the pipe ends first (ralon's process died), it exits 125 and nothing runs. Its
     * {@code exec} runs a file without {@code #!} with the shell, as execvp(3) does.
     */
    static final String GATE = "IFS= read -r go <&3 && [ \"$go\" = go ] || exit 125; exec 3<&-; exec \"$@\"";

    /**
     * As {@link #replaceProcess(Path, List, Map, SessionGuard.Options)}, but the program starts as a <em>child</em> of
     * this process: posix_spawn(3) from the calling thread (glibc clones that thread with CLONE_VM|CLONE_VFORK: the
     * child has its credentials, seccomp filters, no_new_privs and Landlock domains, which are per thread), through
     * {@link #GATE}, whose descriptor 3 is {@code gate} (a pipe's read end): the program runs only once the caller
     * writes {@code go} to the other end ({@link Supervisor}: after the calling thread, which is in the session's
     * domain, has ended). The program's argv[0] becomes its path (a shell's {@code exec} cannot set it). Returns the
     * child's pid.
     *
     * @throws ExecException when a guard or the spawn fails: nothing was started
     */
    static int spawnGated(Path executable, List<String> argv, Map<String, String> env, SessionGuard.Options session,
                          int gate) throws ExecException {
        StringArray envArray = new StringArray(guard(env, session));
        List<String> gated = new ArrayList<>(List.of(BOURNE_SHELL, "-c", GATE, argv.isEmpty() ? "sh" : argv.get(0),
                executable.toString()));
        gated.addAll(argv.subList(Math.min(1, argv.size()), argv.size()));
        // the landlock broker's filter, when a backend armed it: last, as its calls then wait for the broker (the
        // spawn's clone and the shell's execve are none of them)
        SeccompNotify.handOverBeforeExec();
        com.sun.jna.Memory actions = new com.sun.jna.Memory(256);
        actions.clear();
        LibC.posix_spawn_file_actions_init(actions);
        try {
            LibC.posix_spawn_file_actions_adddup2(actions, gate, 3);
            int[] pid = new int[1];
            int rc = LibC.posix_spawn(pid, BOURNE_SHELL, actions, null,
                    new StringArray(gated.toArray(new String[0])), envArray);
            if (rc != 0) {
                throw new ExecException("cannot start " + executable + " through " + BOURNE_SHELL + ": "
                        + Errno.text(rc) + " (posix_spawn)");
            }
            return pid[0];
        } finally {
            LibC.posix_spawn_file_actions_destroy(actions);
        }
    }

    /** execvp(3)'s argv for a file the kernel cannot execute itself: {@code /bin/sh FILE ARG1 ...}. */
    static List<String> shellArgv(Path executable, List<String> argv) {
        List<String> out = new ArrayList<>(argv.size() + 1);
        out.add(BOURNE_SHELL);
        out.add(executable.toString());
        out.addAll(argv.subList(Math.min(1, argv.size()), argv.size()));
        return out;
    }

    private static void restoreNofile(String recorded) throws ExecException {
        if (recorded == null || recorded.isBlank()) {
            return;
        }
        long soft;
        if (recorded.equals("unlimited")) {
            soft = -1L; // RLIM_INFINITY
        } else {
            try {
                soft = Long.parseLong(recorded.trim());
            } catch (NumberFormatException e) {
                return; // not recorded by our launcher: leave the limit alone
            }
        }
        try {
            long[] lim = new long[2];
            LibC.getrlimit(RLIMIT_NOFILE, lim);
            if (lim[0] != soft) {
                lim[0] = soft;
                LibC.setrlimit(RLIMIT_NOFILE, lim);
            }
        } catch (LastErrorException e) {
            throw new ExecException("cannot restore RLIMIT_NOFILE to " + recorded + ": " + Errno.text(e));
        }
    }

    static void markDescriptorsCloseOnExec() throws ExecException {
        try {
            LibC.syscall(LinuxAbi.SYS_CLOSE_RANGE, 3, 0xFFFFFFFFL, CLOSE_RANGE_CLOEXEC); // ~0U: the last fd
            return;
        } catch (LastErrorException e) {
            // ENOSYS (kernel < 5.11) or EINVAL (flag unknown before 5.11): fall back to /proc/self/fd
        }
        List<Integer> fds = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path p : dir) {
                fds.add(Integer.parseInt(p.getFileName().toString()));
            }
        } catch (IOException | NumberFormatException e) {
            throw new ExecException("cannot list /proc/self/fd to close inherited descriptors: " + e.getMessage());
        }
        for (int fd : fds) {
            if (fd > 2) {
                try {
                    LibC.fcntl(fd, F_SETFD, FD_CLOEXEC);
                } catch (LastErrorException e) {
                    // EBADF: the directory stream's own descriptor, already closed
                }
            }
        }
    }
}
