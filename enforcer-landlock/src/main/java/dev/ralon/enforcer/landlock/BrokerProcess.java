package dev.ralon.enforcer.landlock;

import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.linux.DescriptorChannel;
import dev.ralon.linux.Errno;
import dev.ralon.linux.ExecException;
import dev.ralon.linux.LibC;
import dev.ralon.linux.LinuxAbi;
import dev.ralon.linux.OwnJvm;
import dev.ralon.linux.SeccompNotify;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The landlock broker's process, beside the command ({@link Broker}; docs/backend-landlock.md, "The broker"), and its
 * {@code main}.
 *
 * <p>{@link #start} runs in ralon's JVM on the thread that will exec the command, <em>before</em> the Landlock
 * restriction (a process started after it would be inside the domain): it makes a {@link DescriptorChannel}, starts
 * {@code /bin/sh -c '"$@" &'} with the channel's other end as descriptor 3, so that the broker (a JVM running
 * {@link #main}) is not a child of the command (a shell's background job, left to the init process, or to PID 1 of
 * the session's namespace, when the shell exits at once: the command never waits for it nor reaps it), sends it the
 * directories it judges and the protected paths, one message each, and arms the hand-over of the filter's listener
 * ({@link SeccompNotify#arm}), which {@code Exec} makes just before execve.
 *
 * <p>{@link #main} reads those messages and the listener, then serves the calls until no process is left under the
 * filter (the listener hangs up). If ralon ends before the hand-over, the channel ends and so does the broker. If the
 * broker ends early or is killed, every call the filter sends fails with ENOSYS: fail closed.
 */
final class BrokerProcess {
    /** How long the broker waits for each message of the hand-over. */
    static final int HAND_OVER_MILLIS = 30_000;

    private BrokerProcess() {
    }

    /** The environment variable that turns the broker off ({@code off}): the plan is then as without it. */
    static final String ENV_SWITCH = "RALON_LANDLOCK_BROKER";

    /**
     * Why the broker cannot run here, or null when it can (seccomp user notification, ADDFD: Linux 5.9; not turned
     * off with {@link #ENV_SWITCH}{@code =off}).
     */
    static String unavailableReason() {
        if ("off".equals(System.getenv(ENV_SWITCH))) {
            return "turned off (" + ENV_SWITCH + "=off)";
        }
        try {
            SeccompNotify.checkSizes();
        } catch (ExecException e) {
            return e.getMessage();
        }
        String release = System.getProperty("os.version", "");
        String[] v = release.split("[.-]");
        try {
            int major = Integer.parseInt(v[0]);
            int minor = v.length > 1 ? Integer.parseInt(v[1]) : 0;
            if (major < 5 || (major == 5 && minor < 9)) {
                return "Linux " + release + " has no SECCOMP_IOCTL_NOTIF_ADDFD (5.9)";
            }
        } catch (NumberFormatException e) {
            return "cannot read the kernel's version: " + release;
        }
        if (!Files.isExecutable(OwnJvm.java()) || !Files.isExecutable(Path.of("/bin/sh"))) {
            return "no java executable at " + OwnJvm.java() + " to run the broker";
        }
        return null;
    }

    /**
     * Starts the broker for {@code judged} directories under {@code protectedPaths} and arms the hand-over.
     *
     * @throws EnforcementException when it cannot be started: the command must not start without it
     */
    static void start(List<Path> judged, List<Path> protectedPaths) throws EnforcementException {
        int[] ends;
        try {
            ends = DescriptorChannel.pair();
        } catch (ExecException e) {
            throw new EnforcementException("landlock: " + e.getMessage());
        }
        boolean armed = false;
        try {
            spawn(ends[1]);
            for (Path d : judged) {
                DescriptorChannel.send(ends[0], message('R', d), -1);
            }
            for (Path p : protectedPaths) {
                DescriptorChannel.send(ends[0], message('P', p), -1);
            }
            SeccompNotify.arm(ends[0], SeccompNotify.programOf(Broker.calls()));
            armed = true;
        } catch (IOException e) {
            throw new EnforcementException("landlock: cannot start the broker: " + e.getMessage());
        } finally {
            LibC.close(ends[1]);
            if (!armed) {
                LibC.close(ends[0]);
            }
        }
    }

    private static byte[] message(char kind, Path p) {
        byte[] path = p.toString().getBytes(StandardCharsets.UTF_8);
        byte[] m = new byte[path.length + 1];
        m[0] = (byte) kind;
        System.arraycopy(path, 0, m, 1, path.length);
        return m;
    }

    /** {@code /bin/sh -c '"$@" &' sh java ... BrokerProcess}, with {@code end} as descriptor 3; waits for the shell. */
    private static void spawn(int end) throws IOException {
        // the JVM as the launcher starts ralon's (its archive, JNA's settings): the broker's start is on the command's
        // critical path, since the command's first call the filter sends waits for it (docs/backend-landlock.md)
        List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", "\"$@\" & exit 0", "sh"));
        argv.addAll(OwnJvm.command(BrokerProcess.class.getName()));
        List<String> env = new ArrayList<>();
        System.getenv().forEach((k, v) -> env.add(k + "=" + v));
        com.sun.jna.Memory actions = new com.sun.jna.Memory(256);
        actions.clear();
        LibC.posix_spawn_file_actions_init(actions);
        try {
            LibC.posix_spawn_file_actions_addopen(actions, 0, "/dev/null", LinuxAbi.O_RDONLY, 0);
            LibC.posix_spawn_file_actions_addopen(actions, 1, "/dev/null", 1 /* O_WRONLY */, 0);
            LibC.posix_spawn_file_actions_adddup2(actions, end, 3);
            int[] pid = new int[1];
            int rc = LibC.posix_spawn(pid, "/bin/sh", actions, null,
                    new com.sun.jna.StringArray(argv.toArray(new String[0])),
                    new com.sun.jna.StringArray(env.toArray(new String[0])));
            if (rc != 0) {
                throw new IOException(Errno.text(rc) + " (posix_spawn)");
            }
            waitFor(pid[0]);
        } finally {
            LibC.posix_spawn_file_actions_destroy(actions);
        }
    }

    /**
     * Reaps the shell, which exits at once after starting the broker in the background (waitpid(2) with WNOHANG,
     * polled for at most 10 s: the command must not inherit a zombie child).
     */
    private static void waitFor(int pid) throws IOException {
        long until = System.nanoTime() + 10_000_000_000L;
        int[] status = new int[1];
        while (System.nanoTime() < until) {
            int r = LibC.waitpid(pid, status, 1 /* WNOHANG */);
            if (r == pid) {
                return;
            }
            if (r < 0 && com.sun.jna.Native.getLastError() != 4 /* EINTR */) {
                throw new IOException("waitpid: " + Errno.text(com.sun.jna.Native.getLastError()));
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting the broker");
            }
        }
        throw new IOException("the broker's shell did not exit within 10 s");
    }

    /** The broker: reads the hand-over on descriptor 3, then serves. Exit 0 when the session ended. */
    public static void main(String[] args) {
        List<Path> judged = new ArrayList<>();
        List<Path> protectedPaths = new ArrayList<>();
        int listener = -1;
        try {
            while (listener < 0) {
                DescriptorChannel.Message m = DescriptorChannel.receive(3, HAND_OVER_MILLIS);
                if (m == null) {
                    System.exit(0); // ralon ended (or never handed over): nothing to serve
                }
                byte[] d = m.data();
                String rest = new String(d, 1, d.length - 1, StandardCharsets.UTF_8);
                switch (d[0]) {
                    case 'R' -> judged.add(Path.of(rest));
                    case 'P' -> protectedPaths.add(Path.of(rest));
                    case 'L' -> listener = m.fd();
                    default -> System.exit(2);
                }
            }
            LibC.close(3);
            new Broker(judged, protectedPaths).serve(listener, () -> true);
        } catch (IOException | RuntimeException e) {
            System.err.println("ralon: the landlock broker stopped: " + e.getMessage()
                    + " (calls it served now fail with ENOSYS)");
            System.exit(1);
        }
        System.exit(0);
    }
}
