package org.example.broken;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A test enforcer with the flaw of a bubblewrap run without {@code --cap-drop ALL}: read-only bind mounts made in a
 * user + mount namespace, but the command is exec'd in that same namespace, as its root, with every capability over
 * the mount namespace that holds the binds. Nothing locks them (mount_namespaces(7): only mounts inherited by a less
 * privileged namespace are locked), so {@code umount}, a read-write remount, {@code mount_setattr} or
 * {@code move_mount} undoes them. Ordinary writes, renames and deletes are still refused: only the kit's mount-table
 * attacks can tell it from a sound enforcer.
 */
public final class CapsKeepingEnforcer implements Enforcer {
    private static final Set<Guarantee> GUARANTEES = Set.copyOf(EnumSet.of(Guarantee.MODIFY_CONTENT, Guarantee.DELETE,
            Guarantee.RENAME_AWAY, Guarantee.RENAME_OVER, Guarantee.CREATE_INSIDE, Guarantee.METADATA));

    /** Binds every path read-only, then execs the command right there: no second, locking user namespace. */
    static final String STAGE = String.join("\n",
            "cwd=$1; n=$2; shift 2",
            "while [ \"$n\" -gt 0 ]; do",
            "  p=$1; shift; n=$((n - 1))",
            "  mount --bind \"$p\" \"$p\" && mount -o remount,bind,ro \"$p\" || exit 125",
            "done",
            "cd \"$cwd\" || exit 125",
            "exec \"$@\"");

    @Override
    public String name() {
        return "caps-keeping";
    }

    @Override
    public String description() {
        return "test enforcer: read-only binds, command left as root of the namespace that owns them";
    }

    @Override
    public int rank() {
        return 1;
    }

    @Override
    public Probe probe() {
        return Files.isExecutable(Path.of("/usr/bin/unshare")) ? Probe.available("util-linux unshare")
                : Probe.unavailable("/usr/bin/unshare not found", "install util-linux");
    }

    @Override
    public Set<Guarantee> guarantees() {
        return GUARANTEES;
    }

    @Override
    public Plan plan(ProtectedSet set) {
        Plan.Builder plan = Plan.builder(name()).step("bind-readonly", null, "each path").payload(set);
        for (ProtectedPath p : set.paths()) {
            if (p.kind() != ProtectedPath.Kind.FILE && p.kind() != ProtectedPath.Kind.DIRECTORY) {
                plan.refuse(p.path(), "caps-keeping cannot protect " + p.path() + " (" + p.kind() + ")",
                        Set.of(Guarantee.CREATE_MISSING));
            }
        }
        return plan.build();
    }

    @Override
    public Launch prepare(Plan plan, Command command) throws EnforcementException {
        if (!plan.hasPayload(ProtectedSet.class)) {
            throw new EnforcementException("caps-keeping was given a plan it did not make");
        }
        ProtectedSet set = plan.payload(ProtectedSet.class);
        List<String> argv = new ArrayList<>(List.of("/usr/bin/unshare", "--user", "--map-root-user", "--mount",
                "--propagation", "private", "--", "/bin/sh", "-c", STAGE, "caps-keeping-stage",
                command.cwd().toString()));
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
        return Launch.of(Path.of("/usr/bin/unshare"), argv, command.env());
    }
}
