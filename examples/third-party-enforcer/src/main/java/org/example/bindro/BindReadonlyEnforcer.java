package org.example.bindro;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * An example third-party enforcer, {@code bind-ro}: each protected file or directory becomes a read-only bind mount of
 * itself, made by a small shell stage with util-linux {@code mount} inside an unprivileged user + mount namespace
 * ({@code unshare -U -r -m}); the command then runs in a second, nested user + mount namespace, which locks those
 * mounts (mount_namespaces(7): mounts of a less privileged namespace are locked, they cannot be unmounted or made
 * writable from inside). Nothing on the host changes: the mounts exist only in the private namespace.
 *
 * <p>Declares what a read-only bind of the path itself keeps: content, delete, rename away or over (a mount point
 * cannot be unlinked or renamed: EBUSY, rename(2)), entries of a protected directory, metadata (EROFS). Does NOT
 * declare {@link Guarantee#ANCESTOR_RENAME}: a directory above a mount point can still be renamed, and the conformance
 * kit shows it; nor {@link Guarantee#CREATE_MISSING}: a bind needs an existing path. It covers files and directories
 * only (the default {@link #coveredKinds()}): {@code mount} would follow a symbolic link, so a policy protecting one is
 * refused by the host, unless the user runs degraded.
 *
 * <p>Simplified on purpose: Ralon's own {@code mount} backend also resolves every path by file descriptor against
 * symlink races, keeps locked mount flags and protects aliases of the same file system; this example does none of that.
 */
public final class BindReadonlyEnforcer implements Enforcer {
    private static final Set<Guarantee> GUARANTEES = Set.copyOf(EnumSet.of(Guarantee.MODIFY_CONTENT, Guarantee.DELETE,
            Guarantee.RENAME_AWAY, Guarantee.RENAME_OVER, Guarantee.CREATE_INSIDE, Guarantee.METADATA));

    /**
     * The stage, run by {@code /bin/sh} as root of user namespace 1: binds every path read-only, re-enters the working
     * directory (the old cwd still points below the unbound mounts), then execs the command in namespace 2 as the
     * invoking user. Any failure exits 125 before the command starts (fail closed).
     */
    static final String STAGE = String.join("\n",
            "uid=$1; gid=$2; cwd=$3; unshare=$4; n=$5; shift 5",
            "while [ \"$n\" -gt 0 ]; do",
            "  p=$1; shift; n=$((n - 1))",
            "  mount --bind \"$p\" \"$p\" || { echo \"bind-ro: mount --bind $p failed\" >&2; exit 125; }",
            "  mount -o remount,bind,ro \"$p\" || { echo \"bind-ro: read-only remount of $p failed\" >&2; exit 125; }",
            "done",
            "cd \"$cwd\" || { echo \"bind-ro: cannot enter $cwd\" >&2; exit 125; }",
            "exec \"$unshare\" --user --mount --map-user=\"$uid\" --map-group=\"$gid\" -- \"$@\"");

    @Override
    public String name() {
        return "bind-ro";
    }

    @Override
    public String description() {
        return "example: read-only bind mounts made by a shell stage in an unprivileged mount namespace";
    }

    // rank(): the default (1) is right for a third-party backend: chosen only when no built-in one is available

    @Override
    public Probe probe() {
        Path unshare = which("unshare");
        Path mount = which("mount");
        if (unshare == null || mount == null) {
            return Probe.unavailable("util-linux unshare and mount are needed", "install util-linux (2.36 or later)");
        }
        try {
            Process p = new ProcessBuilder(unshare.toString(), "--user", "--map-root-user", "--mount", "--",
                    unshare.toString(), "--user", "--mount", "--", "true").redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return Probe.unavailable("cannot create nested user and mount namespaces: " + out,
                        "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, "
                                + "user.max_user_namespaces > 0)");
            }
        } catch (IOException e) {
            return Probe.unavailable("cannot run unshare: " + e.getMessage(), "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Probe.unavailable("interrupted while probing", "");
        }
        return Probe.available("user and mount namespaces with " + unshare + " and " + mount);
    }

    @Override
    public Set<Guarantee> guarantees() {
        return GUARANTEES;
    }

    /**
     * One read-only bind per existing file or directory. A path that does not exist, a symbolic link ({@code mount}
     * would follow it) and a special file get no bind and no refusal: the host decides what they mean from what this
     * backend declares (it does not declare {@link Guarantee#CREATE_MISSING}, and {@link #coveredKinds()} keeps its
     * default, files and directories), and says so or refuses, for every backend alike.
     */
    @Override
    public Plan plan(ProtectedSet set) {
        Plan.Builder plan = Plan.builder(name()).payload(set);
        plan.step("unshare", null, "user + mount namespace 1 (root inside, mapped to you)");
        for (ProtectedPath p : set.paths()) {
            switch (p.kind()) {
                case FILE, DIRECTORY -> plan.step("bind-readonly", p.path(), "mount --bind, then mount -o"
                        + " remount,bind,ro");
                default -> plan.step("skip", p.path(), "no bind for a " + p.kind().name()
                        .toLowerCase(java.util.Locale.ROOT) + " (the host decides what that means)");
            }
        }
        plan.step("unshare", null, "user + mount namespace 2 as you: locks every mount above");
        return plan.build();
    }

    @Override
    public Launch prepare(Plan plan, Command command) throws EnforcementException {
        if (!name().equals(plan.backend()) || !plan.hasPayload(ProtectedSet.class)) {
            throw new EnforcementException("bind-ro was given a plan it did not make");
        }
        ProtectedSet set = plan.payload(ProtectedSet.class);
        Path unshare = which("unshare");
        if (unshare == null) {
            throw new EnforcementException("unshare not found on PATH");
        }
        int uid;
        int gid;
        try {
            uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            gid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:gid");
        } catch (IOException | RuntimeException e) {
            throw new EnforcementException("cannot read the invoking user's ids from /proc/self: " + e.getMessage());
        }
        List<String> argv = new ArrayList<>(List.of(unshare.toString(), "--user", "--map-root-user", "--mount",
                "--propagation", "private", "--", "/bin/sh", "-c", STAGE, "bind-ro-stage", Integer.toString(uid),
                Integer.toString(gid), command.cwd().toString(), unshare.toString()));
        List<String> paths = new ArrayList<>();
        for (ProtectedPath p : set.paths()) {
            if (p.kind() == ProtectedPath.Kind.FILE || p.kind() == ProtectedPath.Kind.DIRECTORY) {
                paths.add(p.path().toString());
            }
        }
        argv.add(Integer.toString(paths.size()));
        argv.addAll(paths);
        argv.add(command.executable().toString());
        argv.addAll(command.argv().subList(1, command.argv().size()));
        return Launch.of(unshare, argv, command.env());
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
