package dev.ralon.linux;

import com.sun.jna.Native;

import dev.ralon.enforcer.spi.Launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * Nothing the command starts outlives it, where no PID namespace can be made ({@link SessionContainer}'s way needs a
 * user namespace: containers under Docker's default seccomp profile, Ubuntu's AppArmor restriction): ralon's process
 * stays, as the command's parent and a <em>child subreaper</em>, and when the command ends it ends every process left
 * beneath it, double forks and {@code setsid} included.
 *
 * <p>Kernel facts this rests on:
 * <ul>
 *   <li>prctl(2) PR_SET_CHILD_SUBREAPER: an orphan is reparented to its nearest living ancestor that is a subreaper,
 *       not to init (kernel/exit.c {@code find_new_reaper}); so every descendant of the command stays a descendant of
 *       this process, whatever it does, until this process ends it. A descendant that makes itself a subreaper only
 *       keeps its own orphans until it is ended, and they come here then.</li>
 *   <li>The command runs in the session's Landlock domain with {@code LANDLOCK_SCOPE_SIGNAL} ({@link SessionGuard},
 *       ABI 6): a process of the domain cannot signal one outside it (security/landlock/task.c
 *       {@code hook_task_kill}), nor ptrace it or write its memory (task.c {@code hook_ptrace_access_check}). This
 *       process is outside it but for the one thread that starts the command ({@link Exec#spawnGated}: a domain is
 *       per thread), and the command is held at a gate until that thread has ended (its {@code /proc/self/task/TID}
 *       gone): signalling that thread's id would otherwise kill this whole process.</li>
 * </ul>
 * While the command runs, SIGINT, SIGTERM and SIGHUP sent to ralon's pid are passed on to the command (the terminal's
 * Ctrl-C reaches both: the command is in ralon's process group, so it keeps the terminal); ralon's exit status is the
 * command's, 128+N when it died of signal N (as a shell says it). Then every process left is killed (SIGKILL) and
 * reaped, until none is left. The cost: ralon's JVM stays for the session (56 MB resident, measured: docs/performance.md).
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("the host's supervision of a session; enforcers do not call it")
public final class Supervisor {
    /** prctl(2) option (include/uapi/linux/prctl.h). */
    static final int PR_SET_CHILD_SUBREAPER = 36;
    static final int SIGINT = 2;
    static final int SIGKILL = 9;
    static final int SIGTERM = 15;
    static final int SIGHUP = 1;
    static final int EINTR = 4;
    static final int ECHILD = 10;
    static final int WNOHANG = 1;
    /** How long the starting thread may take to be released by the kernel after it ended. */
    static final long THREAD_GONE_MILLIS = 5_000;

    private Supervisor() {
    }

    /**
     * Why this process cannot supervise a session with {@code session}'s guard, or null when it can: the guard must
     * scope signals (Landlock ABI 6, Linux 6.12), and the kernel must have /proc and child subreapers.
     */
    public static String unavailableReason(SessionGuard.Options session) {
        if (!session.scope()) {
            return "this kernel's Landlock (ABI " + SessionGuard.landlockAbi() + ") cannot keep the command from"
                    + " signalling ralon (needs ABI " + SessionGuard.SCOPE_ABI + ", Linux 6.12)";
        }
        if (!Files.isDirectory(Path.of("/proc/self/task"))) {
            return "/proc is not mounted";
        }
        if (!Files.isExecutable(Path.of(Exec.BOURNE_SHELL))) {
            return Exec.BOURNE_SHELL + " is missing";
        }
        return null;
    }

    /**
     * Runs the session: makes this process a child subreaper, runs {@code prepare} (the backend's, which restricts
     * the thread it runs on) on a thread of its own, which then starts the launch it returns ({@link Exec#spawnGated})
     * and ends; opens the gate once that thread is gone; waits for the command, passing signals on; then ends and
     * reaps every process left. Returns the command's exit status.
     *
     * @throws ExecException when the session cannot start (nothing of the command ran)
     * @throws RuntimeException what {@code prepare} threw (a refusal: nothing ran)
     */
    public static int run(Supplier<Launch> prepare, SessionGuard.Options session) throws ExecException {
        if (LibC.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
            throw new ExecException("cannot make ralon the session's subreaper: " + Errno.text(Native.getLastError())
                    + " (prctl PR_SET_CHILD_SUBREAPER)");
        }
        int[] gate = new int[2];
        try {
            LibC.pipe2(gate, LinuxAbi.O_CLOEXEC);
        } catch (com.sun.jna.LastErrorException e) {
            throw new ExecException("cannot make the session's gate: " + Errno.text(e) + " (pipe2)");
        }
        Starter starter = new Starter(prepare, session, gate[0]);
        Thread t = new Thread(starter, "ralon-session-start");
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LibC.close(gate[0]);
        if (starter.failure != null || starter.pid <= 0) {
            LibC.close(gate[1]); // the gate's shell, if started, reads the end and exits 125
            if (starter.pid > 0) {
                waitFor(starter.pid);
            }
            if (starter.failure instanceof ExecException x) {
                throw x;
            }
            if (starter.failure instanceof RuntimeException x) {
                throw x;
            }
            throw new ExecException("the session could not start: " + starter.failure);
        }
        int pid = starter.pid;
        if (!threadGone(starter.tid)) {
            LibC.close(gate[1]);
            LibC.kill(pid, SIGKILL);
            waitFor(pid);
            throw new ExecException("the thread that started the command did not end within " + THREAD_GONE_MILLIS
                    + " ms (nothing ran)");
        }
        forwardSignals(pid);
        quietStdout();
        byte[] go = "go\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        long wrote = LibC.write(gate[1], go, go.length);
        LibC.close(gate[1]);
        int status = waitFor(pid);
        endEverythingLeft();
        if (wrote != go.length) {
            throw new ExecException("cannot open the session's gate: " + Errno.text(Native.getLastError()) + " (write)");
        }
        return exitCode(status);
    }

    /** The starting thread: the backend's preparation, then the gated spawn; its tid, the child's pid or a failure. */
    private static final class Starter implements Runnable {
        private final Supplier<Launch> prepare;
        private final SessionGuard.Options session;
        private final int gate;
        volatile int tid = -1;
        volatile int pid = -1;
        volatile Throwable failure;

        Starter(Supplier<Launch> prepare, SessionGuard.Options session, int gate) {
            this.prepare = prepare;
            this.session = session;
            this.gate = gate;
        }

        @Override
        public void run() {
            try {
                // proc(5): /proc/thread-self is a link to PID/task/TID of the calling thread
                String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
                tid = Integer.parseInt(self.substring(self.lastIndexOf('/') + 1));
                Launch l = prepare.get();
                pid = Exec.spawnGated(l.executable(), l.argv(), l.env(), session, gate);
            } catch (Throwable e) { // handed to the main thread, which reports it
                failure = e;
            }
        }
    }

    /** Whether the kernel has released thread {@code tid} of this process (its /proc/self/task entry gone). */
    private static boolean threadGone(int tid) {
        Path task = Path.of("/proc/self/task/" + tid);
        long deadline = System.nanoTime() + THREAD_GONE_MILLIS * 1_000_000L;
        while (Files.exists(task)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** SIGINT, SIGTERM and SIGHUP to this process go to the command instead of ending the JVM. */
    private static void forwardSignals(int pid) {
        for (String name : List.of("INT", "TERM", "HUP")) {
            sun.misc.Signal.handle(new sun.misc.Signal(name), s -> LibC.kill(pid, s.getNumber()));
        }
    }

    /**
     * This JVM's standard output onto /dev/null: nothing of ralon's is written there any more (its messages go to
     * standard error), and HotSpot prints a thread dump to it on SIGQUIT, which the terminal's Ctrl-\ sends to the
     * whole foreground process group, the command's and ralon's alike. The command has its own descriptor 1.
     */
    private static void quietStdout() {
        System.out.flush();
        try {
            int fd = LibC.open("/dev/null", 1 /* O_WRONLY */ | LinuxAbi.O_CLOEXEC);
            LibC.dup3(fd, 1, 0);
            LibC.close(fd);
        } catch (com.sun.jna.LastErrorException e) {
            // left as it is: a dump on Ctrl-\ is noise, not a failure
        }
    }

    /** waitpid(2) for {@code pid}, through EINTR; its status, or -1 when it is not a child (ECHILD). */
    static int waitFor(int pid) {
        int[] status = new int[1];
        while (true) {
            if (LibC.waitpid(pid, status, 0) == pid) {
                return status[0];
            }
            if (Native.getLastError() != EINTR) {
                return -1;
            }
        }
    }

    /**
     * Kills (SIGKILL) and reaps every child of this process until none is left: orphans of the command came here
     * (the subreaper), and each one killed hands its own children here in turn. A process ended by SIGKILL forks
     * nothing more, so the rounds end.
     */
    static void endEverythingLeft() {
        int[] status = new int[1];
        while (true) {
            while (LibC.waitpid(-1, status, WNOHANG) > 0) {
                // reaped a zombie
            }
            List<ProcessHandle> left = ProcessHandle.current().children().toList();
            if (left.isEmpty()) {
                return;
            }
            for (ProcessHandle p : left) {
                LibC.kill((int) p.pid(), SIGKILL);
            }
            for (ProcessHandle p : left) {
                waitFor((int) p.pid());
            }
        }
    }

    /** A shell's exit status for a wait status: the code, or 128+N for death by signal N (wait(2) macros). */
    static int exitCode(int status) {
        if (status < 0) {
            return 125;
        }
        int sig = status & 0x7f;
        return sig == 0 ? (status >> 8) & 0xff : 128 + sig;
    }
}
