package dev.ralon.enforcer.mount;

import com.sun.jna.LastErrorException;
import dev.ralon.linux.Exec;
import dev.ralon.linux.ExecException;
import dev.ralon.linux.LibC;
import dev.ralon.linux.SessionContainer;
import dev.ralon.linux.SessionGuard;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The second link of the mount backend's exec chain: a small JVM main that runs as root of user namespace 1 (created
 * by {@code unshare --user --map-root-user --mount --propagation private}), makes every bind mount of the plan
 * ({@link Mounts}), then execs {@code timeout ... sh ... timeout ... unshare --user --mount --map-user=UID
 * --map-group=GID -- CMD} so that the command runs in a second user and mount namespace in which every mount made here
 * is locked, inside a PID namespace made here whose end ends everything it started ({@link SessionContainer}).
 *
 * <p>Usage (built by {@link MountLaunch}, never by hand): {@code MountStage PLAN_FILE SHA256 -- EXECUTABLE ARG1 ...}.
 * The plan file ({@link PlanFile}) is read, deleted, and checked against the SHA-256 given in argv. Any failure prints
 * one line and exits {@value #EXIT_SETUP_FAILED} without starting the command: fail closed.
 *
 * <p>This is the stage route, taken when the host JVM was not started in user namespace 1 (see
 * {@link dev.ralon.linux.LauncherNamespace}); when it was, the host does {@link #setUp} itself.
 *
 * <p>Kept deliberately small (this class, {@link PlanFile}, {@link Mounts}, {@link StandardDescriptors},
 * {@link StageEnvironment}, {@link Exec}, JNA): it is on every run's startup path.
 */
public final class MountStage {
    /** Exit status when the sandbox could not be set up; the command was not started. */
    public static final int EXIT_SETUP_FAILED = 2;

    private MountStage() {
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (StageException | ExecException | RuntimeException e) {
            // worded as the host words the same failure on the route without a stage (Run: "backend NAME: ...")
            System.err.println("ralon: backend mount: " + e.getMessage() + " (nothing was started)");
            System.err.flush();
            System.exit(EXIT_SETUP_FAILED);
        }
    }

    private static void run(String[] args) throws StageException, ExecException {
        int sep = Arrays.asList(args).indexOf("--");
        if (args.length < 4 || sep != 2) {
            throw new StageException("usage: MountStage PLAN_FILE SHA256 -- EXECUTABLE [ARG...]");
        }
        PlanFile.StagePlan plan = PlanFile.readAndDelete(Path.of(args[0]), args[1]);
        List<String> argv = setUp(plan, Arrays.asList(args).subList(3, args.length));
        // the host installed the session guard (SessionGuard) before it execed this stage: it is still in force and
        // carries the user's --allow-unix-sockets, so nothing is added here
        Exec.replaceProcess(Path.of(argv.get(0)), argv, StageEnvironment.forCommand(System.getenv()),
                SessionGuard.Options.INHERITED);
    }

    /**
     * What this process does as root of user namespace 1, on either route (this stage, or the host JVM the launcher
     * started in that namespace: {@link MountLaunch}): makes every bind of the plan and proves it in place, re-enters
     * the working directory through the new mounts, secures descriptors 0-2, and returns the argv of the rest of the
     * chain, for the caller to exec (its first element is the program): the session's PID namespace
     * ({@link SessionContainer}) around the last link, {@code unshare --user --mount --map-user=UID --map-group=GID --
     * COMMAND...}.
     */
    static List<String> setUp(PlanFile.StagePlan plan, List<String> command) throws StageException {
        boolean contained = !plan.timeout().isEmpty();
        // Contained, the session gets a /proc of its own PID namespace, mounted by its PID 1 (SessionContainer). A
        // read-only bind beneath the host's /proc (a root invoker's /proc/sys and the other kernel interfaces) would
        // make the kernel refuse that procfs (fs/namespace.c mount_too_revealing: a new procfs must not reveal what a
        // mount over the old one hides), so those binds are PID 1's, on the new /proc, and /proc is no way here.
        List<PlanFile.Entry> here = new ArrayList<>();
        List<PlanFile.Entry> areas = new ArrayList<>();
        List<String> procReadOnly = new ArrayList<>();
        for (PlanFile.Entry e : plan.entries()) {
            if (e.op() != PlanFile.Op.WAY && e.op() != PlanFile.Op.READONLY) { // an area, or the home directory's copy
                areas.add(e);
                continue;
            }
            boolean proc = e.path().equals("/proc") || e.path().startsWith("/proc/");
            if (contained && proc) {
                if (e.op() == PlanFile.Op.READONLY && !e.path().equals("/proc")) {
                    procReadOnly.add(e.path());
                }
            } else {
                here.add(e);
            }
        }
        Mounts.mountAll(here); // and checks every bind in place
        // Descriptors 0-2 opened before the namespaces exist still lead to the host's mounts: reopen or refuse them.
        // Before the confinement: a file the user redirected the command's output to is the user's choice, and is
        // judged by the protected set alone.
        StandardDescriptors.secure();
        if (plan.confined()) {
            Mounts.confine(areas, here.stream().filter(e -> e.op() == PlanFile.Op.READONLY).toList());
        }
        // The working directory was resolved before the binds: it still names the old (unprotected, unconfined)
        // mounts. Resolve it again so relative paths go through the new mounts (path_resolution(7): lookups start at
        // the cwd's mount and dentry).
        try {
            LibC.chdir(plan.cwd());
        } catch (LastErrorException e) {
            throw new StageException("cannot change directory to " + plan.cwd() + ": " + dev.ralon.linux.Binds.err(e) + " (chdir)");
        }
        List<String> argv = new ArrayList<>();
        argv.add(plan.unshare());
        argv.add("--user");
        argv.add("--mount");
        argv.add("--map-user=" + Integer.toUnsignedString(plan.uid()));
        argv.add("--map-group=" + Integer.toUnsignedString(plan.gid()));
        argv.add("--");
        argv.addAll(command);
        if (!contained) {
            return argv; // the plan refused LEFTOVERS (a program of the chain is missing): admitted only degraded
        }
        // Nothing the command starts outlives it: a PID namespace made here, in namespace 1, whose PID 1 (sh, then
        // timeout) mounts its own /proc, binds the kernel interfaces read-only on it, and passes signals on.
        String missing = SessionContainer.unavailableReason();
        if (missing != null) {
            throw new StageException("the session cannot be contained: " + missing);
        }
        try {
            SessionContainer.enter();
        } catch (dev.ralon.linux.ExecException e) {
            throw new StageException(e.getMessage());
        }
        return SessionContainer.argv(Path.of(plan.timeout()), SessionContainer.setpriv().orElseThrow(),
                SessionContainer.mount().orElseThrow(), procReadOnly, argv);
    }
}
