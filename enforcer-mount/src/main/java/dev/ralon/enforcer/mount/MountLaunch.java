package dev.ralon.enforcer.mount;

import com.sun.jna.Native;
import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Confinement;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.linux.Errno;
import dev.ralon.linux.Exec;
import dev.ralon.linux.LauncherNamespace;
import dev.ralon.linux.LibC;
import dev.ralon.linux.LinuxAbi;
import dev.ralon.linux.OwnJvm;
import dev.ralon.linux.SessionContainer;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The mount backend's launch, by one of two routes, the same binds and checks on both ({@link MountStage#setUp}):
 * <ul>
 *   <li><b>in this process</b>, when the launcher started this JVM as root of user namespace 1
 *       ({@link LauncherNamespace#current()}): the binds are made here, and the launch is the last link,
 *       {@code unshare --user --mount --map-user=UID --map-group=GID -- CMD}. No second JVM: the route every
 *       {@code ralon run} started by the launcher takes (docs/performance.md);</li>
 *   <li><b>through the stage</b> otherwise (a host not started by the launcher: the conformance kit, an embedding
 *       program, a machine where the launcher's check of the chain failed): the plan file written, and the exec chain
 *       {@code unshare ... java MountStage ... -- CMD}.</li>
 * </ul>
 */
final class MountLaunch {
    private MountLaunch() {
    }

    /**
     * Writes the plan to a private temporary file ({@link PlanFile}: 0600, read and deleted by the stage, its SHA-256
     * in the stage's argv) and returns the exec chain.
     */
    static Launch prepare(Plan plan, Command command, MountProbe probe, Confinement confinement)
            throws EnforcementException {
        if (!"mount".equals(plan.backend()) || !plan.hasPayload(MountEnforcer.Payload.class)) {
            throw new EnforcementException("the mount backend was given a plan it did not make");
        }
        MountEnforcer.Payload payload = plan.payload(MountEnforcer.Payload.class);
        Probe p = probe.probe();
        Path unshare = probe.unshare();
        if (!p.available() || unshare == null) {
            throw new EnforcementException("the mount backend is not available: " + p.detail());
        }
        List<PlanFile.Entry> entries = new ArrayList<>(payload.entries());
        entries.addAll(areas(confinement));
        Optional<LauncherNamespace.Ids> here = LauncherNamespace.current();
        if (here.isPresent()) {
            return inThisProcess(entries, confinement.confined(), command, unshare, here.get());
        }
        byte[] bytes = PlanFile.encode(new PlanFile.StagePlan(LibC.getuid(), LibC.getgid(), command.cwd().toString(),
                unshare.toString(), timeout(), confinement.confined(), entries));
        Path file;
        try {
            file = PlanFile.write(bytes);
            // Removed by the stage once read; if the host's execve fails instead, the JVM exits normally and this
            // removes it (after a successful execve no JVM shutdown hook runs: the process image is gone).
            file.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new EnforcementException("cannot write the mount plan to a temporary file: " + e.getMessage());
        }
        List<String> argv = new ArrayList<>();
        argv.add(unshare.toString());
        argv.addAll(List.of("--user", "--map-root-user", "--mount", "--propagation", "private", "--"));
        argv.addAll(OwnJvm.command(MountStage.class.getName()));
        argv.add(file.toString());
        argv.add(PlanFile.sha256(bytes));
        argv.add("--");
        argv.add(command.executable().toString());
        argv.addAll(command.argv().subList(1, command.argv().size()));
        return Launch.of(unshare, argv, StageEnvironment.forStage(command.env(), System.getenv(Exec.ORIG_NOFILE_ENV)));
    }

    /**
     * The route without a stage: this JVM is root of user namespace 1 already, so the binds are made here, and what
     * is left to exec is the second namespace, which maps the invoker's own ids back (as the stage would).
     */
    private static Launch inThisProcess(List<PlanFile.Entry> entries, boolean confined, Command command,
            Path unshare, LauncherNamespace.Ids invoker) throws EnforcementException {
        List<String> cmd = new ArrayList<>();
        cmd.add(command.executable().toString());
        cmd.addAll(command.argv().subList(1, command.argv().size()));
        List<String> argv;
        try {
            argv = MountStage.setUp(new PlanFile.StagePlan(invoker.uid(), invoker.gid(), command.cwd().toString(),
                    unshare.toString(), timeout(), confined, entries), cmd);
        } catch (StageException e) {
            throw new EnforcementException(e.getMessage());
        }
        // On the stage route the host's terminal guard sets no_new_privs before the first unshare when the host lacks
        // CAP_SYS_ADMIN in its user namespace (seccomp(2) requires one or the other): for every invoker but root.
        // This JVM has that capability in namespace 1 whoever invoked it, so the guard would never set it here: set it
        // for the same invokers (prctl(2) PR_SET_NO_NEW_PRIVS: this thread, kept across execve), so that the command
        // runs as on the other route (/proc/self/status NoNewPrivs).
        if (!LauncherNamespace.invokerIsRoot() && LibC.prctl(LinuxAbi.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
            throw new EnforcementException("cannot set no_new_privs: " + Errno.text(Native.getLastError()) + " (prctl)");
        }
        return Launch.of(Path.of(argv.get(0)), argv, command.env());
    }

    /**
     * The writable areas as plan entries, each with what the host sees there now (type, device, inode): the stage
     * keeps them writable and makes everything else read-only ({@link Mounts#confine}). An area that vanished since
     * the host listed it is left out: it is not writable then, which is the safe side.
     */
    static List<PlanFile.Entry> areas(Confinement confinement) throws EnforcementException {
        List<PlanFile.Entry> out = new ArrayList<>();
        if (!confinement.confined()) {
            return out;
        }
        for (Confinement.Area a : confinement.areas()) {
            java.util.Map<String, Object> attrs;
            try {
                attrs = java.nio.file.Files.readAttributes(a.path(), "unix:mode,dev,ino",
                        java.nio.file.LinkOption.NOFOLLOW_LINKS);
            } catch (java.nio.file.NoSuchFileException e) {
                continue;
            } catch (IOException | UnsupportedOperationException e) {
                throw new EnforcementException("cannot examine the writable area " + a.path() + ": " + e.getMessage());
            }
            out.add(new PlanFile.Entry(PlanFile.Op.AREA, a.path().toString(),
                    ((Integer) attrs.get("mode")) & LinuxAbi.S_IFMT, (Long) attrs.get("dev"), (Long) attrs.get("ino")));
        }
        Confinement.Copy copy = confinement.copy();
        if (copy != null) {
            // the home directory, the store and its two layers, each with what the host sees there now (the host made
            // the store: HomeCopy.make); the stage checks each again by identity before the overlay is made
            for (var e : java.util.Map.of(PlanFile.Op.COPY, copy.path(), PlanFile.Op.STORE, copy.store(),
                    PlanFile.Op.UPPER, copy.upper(), PlanFile.Op.WORK, copy.work()).entrySet()) {
                java.util.Map<String, Object> attrs;
                try {
                    attrs = java.nio.file.Files.readAttributes(e.getValue(), "unix:mode,dev,ino",
                            java.nio.file.LinkOption.NOFOLLOW_LINKS);
                } catch (IOException | UnsupportedOperationException x) {
                    throw new EnforcementException("cannot examine the copy of the home directory at " + e.getValue()
                            + ": " + x.getMessage());
                }
                out.add(new PlanFile.Entry(e.getKey(), e.getValue().toString(),
                        ((Integer) attrs.get("mode")) & LinuxAbi.S_IFMT, (Long) attrs.get("dev"), (Long) attrs.get("ino")));
            }
        }
        return out;
    }

    /**
     * The timeout(1) that contains the session ({@link SessionContainer}), or "" when there is none: the plan refused
     * {@link dev.ralon.enforcer.spi.Guarantee#LEFTOVERS} then (MountPlanner), so the run was admitted degraded.
     */
    private static String timeout() {
        return SessionContainer.unavailableReason() != null ? ""
                : SessionContainer.timeout().map(Path::toString).orElse("");
    }
}
