package dev.ralon.enforcer.landlock;

import dev.ralon.linux.LauncherNamespace;
import dev.ralon.linux.SessionContainer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Whether a landlock run can contain its session ({@link dev.ralon.enforcer.spi.Guarantee#LEFTOVERS}): the command
 * beneath PID 1 of a PID namespace of its own, which ends when the command ends and takes every process left in it
 * (kernel/pid_namespace.c {@code zap_pid_ns_processes}), with a /proc of that namespace so that {@code ps} and
 * {@code pkill} inside speak of the session's processes by the ids {@code kill} takes.
 *
 * <p>Why it needs the launcher's user namespace ({@link LauncherNamespace}): making a PID namespace and mounting its
 * /proc need CAP_SYS_ADMIN in a user namespace (unshare(2), mount(2)); a JVM cannot make one (CLONE_NEWUSER is refused
 * to a multithreaded process: kernel/fork.c {@code check_unshare_flags}), so the launcher starts it in one. And the
 * /proc must be mounted before Landlock restricts the thread, which then refuses every mount (security/landlock/fs.c
 * {@code hook_sb_mount}): PID 1 is started and mounts it first ({@link SessionContainer#startPid1}).
 */
final class LandlockContainment {
    /** How long the prediction's probe may take (it forks unshare and mount once). */
    static final long PROBE_SECONDS = 5;

    private static volatile String cached;
    private static volatile boolean known;

    private LandlockContainment() {
    }

    /** Why a run of this process cannot contain its session, or null when it can. Computed once per process. */
    static String unavailableReason() {
        if (!known) {
            synchronized (LandlockContainment.class) {
                if (!known) {
                    cached = compute();
                    known = true;
                }
            }
        }
        return cached;
    }

    private static String compute() {
        String tools = SessionContainer.unavailableReason();
        if (tools != null) {
            return tools;
        }
        if (SessionContainer.unshare().isEmpty()) {
            return "util-linux unshare(1) was not found in /usr/bin, /bin, /usr/sbin or /sbin";
        }
        if (LauncherNamespace.current().isPresent()) {
            return null;
        }
        // status and --dry-run, which the launcher starts outside its namespace, and a run where its check of user
        // namespaces failed: say what `ralon run` gets. A JVM that was not started by the launcher (a host embedding
        // the backend) is told the same, and its prepare() then refuses to start (LandlockEnforcer).
        return predicted();
    }

    /**
     * What {@code ralon run} would find, from outside the launcher's namespace: user namespaces that map the invoker
     * to root, in which a PID namespace's /proc can be mounted. One probe, the same calls: unshare(1) into a user, mount
     * and PID namespace, and mount(8) of its procfs there.
     */
    private static String predicted() {
        Path unshare = SessionContainer.unshare().orElseThrow();
        Path mount = SessionContainer.mount().orElseThrow();
        List<String> argv = new ArrayList<>(List.of(unshare.toString(), "--user", "--map-root-user", "--mount",
                "--propagation", "private", "--pid", "--fork", "--", mount.toString(), "-t", "proc", "-o",
                "nosuid,nodev,noexec", "proc", "/proc"));
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(PROBE_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "the probe of user namespaces did not end within " + PROBE_SECONDS + " s";
            }
            return p.exitValue() == 0 ? null : "user namespaces are not usable here: `unshare --user --map-root-user"
                    + " --mount --pid --fork mount -t proc proc /proc` failed";
        } catch (IOException e) {
            return "cannot probe user namespaces: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "the probe of user namespaces was interrupted";
        }
    }
}
