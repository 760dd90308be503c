package org.example.bwrap;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.KernelInterfaces;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * An example third-party enforcer, {@code bwrap}, built on an existing tool: bubblewrap makes the sandbox, but it is
 * not left as the command's parent. Each protected file or directory becomes a read-only bind of itself
 * ({@code --ro-bind P P}) in a user + mount namespace that a <em>detached</em> bwrap only holds open (its sandboxed
 * process is a bounded {@code sleep}); the stage then joins that namespace with util-linux {@code nsenter}, kills the
 * holder, enters the working directory again by path, and execs the command in place through a nested user + mount
 * namespace ({@code unshare}) that maps the invoking user and locks every bind.
 *
 * <p>Why each step:
 * <ul>
 *   <li><b>Detached.</b> {@code bwrap CMD} always stays CMD's parent (it waits for it and passes its exit status on):
 *       a supervisor between {@code ralon run}'s process and the command. Started in the background instead, bwrap
 *       only holds the namespace, and the command is exec'd in place: it is the process {@code ralon run} was
 *       started as, so a signal sent to ralon reaches it and its exit status is ralon's.</li>
 *   <li><b>Holder killed.</b> Once the stage has joined, the namespaces live as long as the stage (and then the
 *       command) is in them: the holder is killed with SIGKILL (and bwrap, which waits for it, exits), so no process
 *       of the session is left behind. If the stage died before that, the holder's {@code sleep} ends on its own.</li>
 *   <li><b>cd by path.</b> setns(2) into a mount namespace moves the caller's working directory to that namespace's
 *       root ({@code /}): the stage must {@code cd} to the command's directory again, by path, so that it is the
 *       directory as the new namespace sees it (below the binds).</li>
 *   <li><b>Nested namespace.</b> A process that joins bwrap's user namespace with setns(2) gets every capability in
 *       it, and a command exec'd there as uid 0 (a root invoker) would keep them: it could remount the binds
 *       read-write or unmount them. The nested user namespace owns none of bwrap's mounts, and the mounts it copies
 *       into its own mount namespace are locked (mount_namespaces(7)): they cannot be unmounted, remounted writable
 *       or moved, by root of it included.</li>
 * </ul>
 *
 * <p>Declares what a read-only bind of the path itself keeps, as the {@code bind-ro} example does: content, delete,
 * rename away or over (a mount point cannot be unlinked or renamed: EBUSY), entries of a protected directory,
 * metadata (EROFS). Not {@link Guarantee#ANCESTOR_RENAME} (a directory above a mount point can still be renamed), nor
 * {@link Guarantee#CREATE_MISSING} (a bind needs an existing path), nor {@link Guarantee#LEFTOVERS} (no PID namespace:
 * what the command starts in the background may outlive it). Files and directories only (the default
 * {@link #coveredKinds()}).
 *
 * <p>Where bwrap is found: the environment variable {@value #BWRAP_ENV} (an absolute path), else {@code bwrap} on
 * {@code PATH}. A non-setuid bwrap (bubblewrap 0.4 or later) with unprivileged user namespaces is enough, for root
 * and for any other user. {@code nsenter} and {@code unshare} come from util-linux (2.36 or later) on {@code PATH}.
 */
public final class BwrapEnforcer implements Enforcer {
    /** The environment variable naming the bwrap executable to use (else {@code bwrap} on {@code PATH}). */
    public static final String BWRAP_ENV = "BWRAP_ENFORCER_BWRAP";

    /** How long the holder keeps the namespace when nobody joins it (the stage joins it within milliseconds). */
    static final int HOLD_SECONDS = 60;

    private static final Set<Guarantee> GUARANTEES = Set.copyOf(EnumSet.of(Guarantee.MODIFY_CONTENT, Guarantee.DELETE,
            Guarantee.RENAME_AWAY, Guarantee.RENAME_OVER, Guarantee.CREATE_INSIDE, Guarantee.METADATA));

    /**
     * The stage, run by {@code /bin/sh} as the invoking user, in the process {@code ralon run} was started as. Its
     * arguments: K, then the K words of the bwrap command (bwrap, its options, the holder), then nsenter and the
     * arguments of {@link #JOIN}. It starts bwrap detached (a subshell in a subshell: bwrap is not its child, and so
     * never the command's), learns the holder's pid through a fifo (the holder writes it only once bwrap has made
     * every bind; if bwrap fails instead, the subshell writes "failed"), and then execs nsenter into the holder's user
     * and mount namespaces. Any failure exits 125 before the command starts (fail closed).
     */
    static final String STAGE = String.join("\n",
            "_bwe_k=$1; shift",
            "_bwe_d=$(mktemp -d) || { echo \"bwrap: mktemp -d failed\" >&2; exit 125; }",
            "_bwe_f=$_bwe_d/ready",
            "mkfifo -m 600 \"$_bwe_f\" || { echo \"bwrap: mkfifo $_bwe_f failed\" >&2; rm -rf \"$_bwe_d\"; exit 125; }",
            "( ( BWRAP_ENFORCER_FIFO=$_bwe_f \"$@\" </dev/null; echo failed 2>/dev/null 1<>\"$_bwe_f\" ) & ) >/dev/null",
            "_bwe_pid=$(cat \"$_bwe_f\")",
            "rm -rf \"$_bwe_d\"",
            "case $_bwe_pid in",
            "  ''|*[!0-9]*) echo \"bwrap: bubblewrap did not set up the sandbox\" >&2; exit 125 ;;",
            "esac",
            "shift \"$_bwe_k\"",
            "_bwe_nsenter=$1; _bwe_join=$2; shift 2",
            "exec \"$_bwe_nsenter\" --target \"$_bwe_pid\" --user --mount --preserve-credentials -- /bin/sh -c"
                    + " \"$_bwe_join\" bwrap-join \"$_bwe_pid\" \"$@\"");

    /**
     * The second half, run by {@code /bin/sh} inside bwrap's namespaces: kills the holder, enters the working
     * directory by path, and execs the command in a nested user + mount namespace as the invoking user. Arguments:
     * the holder's pid, unshare, uid, gid, the working directory, then the command.
     */
    static final String JOIN = String.join("\n",
            "_bwe_pid=$1; _bwe_unshare=$2; _bwe_uid=$3; _bwe_gid=$4; _bwe_cwd=$5; shift 5",
            "kill -KILL \"$_bwe_pid\" 2>/dev/null",
            "cd \"$_bwe_cwd\" || { echo \"bwrap: cannot enter $_bwe_cwd\" >&2; exit 125; }",
            "exec \"$_bwe_unshare\" --user --mount --map-user=\"$_bwe_uid\" --map-group=\"$_bwe_gid\" -- \"$@\"");

    /** The holder bwrap runs once every bind is made: it reports its pid through the stage's fifo, then waits. */
    static final String HOLDER = "echo $$ >\"$BWRAP_ENFORCER_FIFO\"; exec sleep " + HOLD_SECONDS;

    @Override
    public String name() {
        return "bwrap";
    }

    @Override
    public String description() {
        return "example: read-only binds in a detached bubblewrap's namespace, joined with nsenter";
    }

    // rank(): the default (1) is right for a third-party backend: chosen only when no built-in one is available

    @Override
    public Probe probe() {
        Path bwrap = findBwrap();
        if (bwrap == null) {
            String env = System.getenv(BWRAP_ENV);
            return Probe.unavailable(env != null && !env.isEmpty() ? BWRAP_ENV + "=" + env + " is not an executable file"
                    : "bubblewrap (bwrap) is not on PATH", "install bubblewrap (apt-get install bubblewrap), or set "
                    + BWRAP_ENV + " to a bwrap executable");
        }
        Path nsenter = which("nsenter");
        Path unshare = which("unshare");
        if (nsenter == null || unshare == null) {
            return Probe.unavailable("util-linux nsenter and unshare are needed", "install util-linux (2.36 or later)");
        }
        try {
            int[] ids = invokerIds();
            Process p = new ProcessBuilder(bwrap.toString(), "--unshare-user", "--die-with-parent", "--bind", "/", "/",
                    "--dev-bind", "/dev", "/dev", "--", unshare.toString(), "--user", "--mount",
                    "--map-user=" + ids[0], "--map-group=" + ids[1], "--", "true").redirectErrorStream(true).start();
            p.getOutputStream().close();
            if (!p.waitFor(2, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Probe.unavailable(bwrap + " did not finish within 2 s", "");
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.exitValue() != 0) {
                return Probe.unavailable(bwrap + " cannot make a user and mount namespace: " + out,
                        "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1,"
                                + " user.max_user_namespaces > 0)");
            }
        } catch (IOException | EnforcementException e) {
            return Probe.unavailable("cannot run " + bwrap + ": " + e.getMessage(), "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Probe.unavailable("interrupted while probing", "");
        }
        return Probe.available(bwrap + ", with " + nsenter + " and " + unshare);
    }

    @Override
    public Set<Guarantee> guarantees() {
        return GUARANTEES;
    }

    @Override
    public List<String> deniedErrors() {
        return List.of("EROFS", "EBUSY");
    }

    /**
     * One read-only bind per existing file or directory, plus the kernel's control files when the invoker is root
     * ({@link KernelInterfaces}). A missing path, a symbolic link and a special file get no bind and no refusal: the
     * host decides what they mean from what this backend declares.
     */
    @Override
    public Plan plan(ProtectedSet protectedSet) {
        ProtectedSet set = KernelInterfaces.forRootInvoker(protectedSet, invokerIsRoot());
        Plan.Builder plan = Plan.builder(name()).payload(set);
        plan.step("bwrap", null, "a detached bwrap holds a user + mount namespace: --bind / /, --dev-bind /dev /dev");
        for (ProtectedPath p : set.paths()) {
            switch (p.kind()) {
                case FILE, DIRECTORY -> plan.step("ro-bind", p.path(), "bwrap --ro-bind (recursive, read-only)");
                default -> plan.step("skip", p.path(), "no bind for a " + p.kind().name().toLowerCase(Locale.ROOT)
                        + " (the host decides what that means)");
            }
        }
        plan.step("nsenter", null, "the stage joins that namespace, kills the holder and enters the working directory"
                + " by path");
        plan.step("unshare", null, "user + mount namespace as you: locks every bind; the command is exec'd in place");
        return plan.build();
    }

    @Override
    public Launch prepare(Plan plan, Command command) throws EnforcementException {
        if (!name().equals(plan.backend()) || !plan.hasPayload(ProtectedSet.class)) {
            throw new EnforcementException("bwrap was given a plan it did not make");
        }
        return launch(Tools.find(), boundPaths(plan.payload(ProtectedSet.class)), command, JOIN);
    }

    /** The executables the stage runs. */
    record Tools(Path bwrap, Path nsenter, Path unshare) {
        static Tools find() throws EnforcementException {
            Path bwrap = findBwrap();
            if (bwrap == null) {
                throw new EnforcementException("bwrap not found (" + BWRAP_ENV + ", PATH)");
            }
            Path nsenter = which("nsenter");
            Path unshare = which("unshare");
            if (nsenter == null || unshare == null) {
                throw new EnforcementException("nsenter or unshare not found on PATH");
            }
            return new Tools(bwrap, nsenter, unshare);
        }
    }

    /** The paths to bind: existing files and directories, each directory before what lies beneath it. */
    static List<String> boundPaths(ProtectedSet set) {
        List<String> paths = new ArrayList<>();
        for (ProtectedPath p : set.paths()) {
            if (p.kind() == ProtectedPath.Kind.FILE || p.kind() == ProtectedPath.Kind.DIRECTORY) {
                paths.add(p.path().toString());
            }
        }
        paths.sort(Comparator.comparingInt((String s) -> Path.of(s).getNameCount()).thenComparing(s -> s));
        return paths;
    }

    /** The bwrap command that makes the binds and runs the holder. */
    static List<String> bwrapCommand(Path bwrap, List<String> paths) {
        List<String> argv = new ArrayList<>(List.of(bwrap.toString(), "--unshare-user", "--die-with-parent",
                "--bind", "/", "/", "--dev-bind", "/dev", "/dev"));
        for (String p : paths) {
            argv.addAll(List.of("--ro-bind", p, p));
        }
        argv.addAll(List.of("--", "/bin/sh", "-c", HOLDER, "bwrap-holder"));
        return argv;
    }

    /** The stage that binds {@code paths}, joins, and runs {@code join} there (see {@link #STAGE}). */
    static Launch launch(Tools tools, List<String> paths, Command command, String join) throws EnforcementException {
        int[] ids = invokerIds();
        List<String> holder = bwrapCommand(tools.bwrap(), paths);
        List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", STAGE, "bwrap-stage",
                Integer.toString(holder.size())));
        argv.addAll(holder);
        argv.addAll(List.of(tools.nsenter().toString(), join, tools.unshare().toString(), Integer.toString(ids[0]),
                Integer.toString(ids[1]), command.cwd().toString(), command.executable().toString()));
        argv.addAll(command.argv().subList(1, command.argv().size()));
        return Launch.of(Path.of("/bin/sh"), argv, command.env());
    }

    /** This process's uid and gid. */
    static int[] invokerIds() throws EnforcementException {
        try {
            return new int[] {(Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid"),
                (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:gid")};
        } catch (IOException | RuntimeException e) {
            throw new EnforcementException("cannot read the invoking user's ids from /proc/self: " + e.getMessage());
        }
    }

    /**
     * Whether the invoker is root: this process's uid, as the initial user namespace sees it through
     * {@code /proc/self/uid_map} ("inside outside count"), is 0.
     */
    static boolean invokerIsRoot() {
        try {
            long uid = invokerIds()[0];
            for (String line : Files.readAllLines(Path.of("/proc/self/uid_map"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length == 3) {
                    long inside = Long.parseLong(f[0]);
                    long count = Long.parseLong(f[2]);
                    if (uid >= inside && uid < inside + count) {
                        return Long.parseLong(f[1]) + (uid - inside) == 0;
                    }
                }
            }
            return false;
        } catch (IOException | EnforcementException | RuntimeException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    private static Path findBwrap() {
        String env = System.getenv(BWRAP_ENV);
        if (env != null && !env.isEmpty()) {
            Path p = Path.of(env);
            return p.isAbsolute() && Files.isRegularFile(p) && Files.isExecutable(p) ? p : null;
        }
        return which("bwrap");
    }

    private static Path which(String name) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(":")) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p.toAbsolutePath();
            }
        }
        return null;
    }
}
