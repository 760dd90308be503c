package dev.ralon.enforcer.mount;

import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.KernelInterfaces;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.linux.Binds;
import dev.ralon.linux.LinuxAbi;
import dev.ralon.linux.MountTable;
import dev.ralon.linux.SessionContainer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The mount backend's planner: from the protected set to the ordered binds the stage makes, with the plan's steps. */
final class MountPlanner {
    private MountPlanner() {
    }

    /**
     * Orders the mounts: first every directory on the way from {@code /} (exclusive) to each protected path, parents
     * before children (a later bind of an ancestor would clone the tree as it is then, but binding the ancestor
     * first and the protected paths into it afterwards is the order in which nothing is shadowed), then every protected
     * path, one bind each (a protected directory is one recursive bind, not one per file inside it).
     */
    static Plan plan(String backend, ProtectedSet policySet) {
        // A root command is global uid 0 here (0 maps to 0): /proc/sys and /sys must be read-only too (KernelInterfaces)
        ProtectedSet set = KernelInterfaces.forRootInvoker(policySet, dev.ralon.linux.LauncherNamespace.invokerIsRoot());
        List<Plan.Step> steps = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<Plan.Refusal> refusals = new ArrayList<>();
        Map<Path, PlanFile.Entry> protect = new LinkedHashMap<>();
        Map<Path, Path> aliasOf = new HashMap<>();
        MountTable mounts = MountTable.read();
        steps.add(Plan.Step.of("unshare", null, "new user namespace (you are root in it, mapped to your uid) and"
                + " mount namespace with private propagation, where the binds below are made"));
        for (ProtectedPath pp : set.paths()) {
            Path p = pp.path().normalize();
            if (pp.kind() == ProtectedPath.Kind.MISSING) {
                // Not a declared guarantee (a bind mount needs an existing target, and making one would create the
                // file in the project): the host says so in one line (host-side admission); no refusal here.
                steps.add(Plan.Step.of("not-protected", p, "missing: creating it is NOT prevented by this backend"));
                continue;
            }
            Map<String, Object> attrs;
            try {
                attrs = Files.readAttributes(p, "unix:mode,dev,ino,nlink", LinkOption.NOFOLLOW_LINKS);
            } catch (IOException | UnsupportedOperationException e) {
                refusals.add(Plan.Refusal.of(p, "cannot examine " + p + ": " + e.getMessage(), MountEnforcer.GUARANTEES));
                steps.add(Plan.Step.of("refuse", p, "cannot be examined"));
                continue;
            }
            int type = ((Integer) attrs.get("mode")) & LinuxAbi.S_IFMT;
            int nlink = (Integer) attrs.get("nlink");
            if (type != LinuxAbi.S_IFDIR && nlink > 1) {
                warnings.add(p + " has " + nlink + " hard links: its other names are not protected");
            }
            protect.put(p, new PlanFile.Entry(PlanFile.Op.READONLY, p.toString(), type, (Long) attrs.get("dev"),
                    (Long) attrs.get("ino")));
            for (MountTable.Alias a : mounts.aliasesOf(p, type == LinuxAbi.S_IFDIR)) {
                // The same file system is mounted at another place too: the object (p, or for a directory a part of
                // it mounted elsewhere) is reachable by that path, which a bind at p does not cover. Protect it there
                // as well, when it is the same object.
                Path alias = a.alias();
                try {
                    Map<String, Object> orig = a.original().equals(p) ? attrs
                            : Files.readAttributes(a.original(), "unix:mode,dev,ino", LinkOption.NOFOLLOW_LINKS);
                    Map<String, Object> aa = Files.readAttributes(alias, "unix:mode,dev,ino", LinkOption.NOFOLLOW_LINKS);
                    if (aa.get("dev").equals(orig.get("dev")) && aa.get("ino").equals(orig.get("ino"))
                            && !protect.containsKey(alias)) {
                        aliasOf.put(alias, a.original());
                        protect.put(alias, new PlanFile.Entry(PlanFile.Op.READONLY, alias.toString(),
                                ((Integer) aa.get("mode")) & LinuxAbi.S_IFMT, (Long) aa.get("dev"), (Long) aa.get("ino")));
                    }
                } catch (IOException | UnsupportedOperationException e) {
                    // hidden beneath another mount or unreadable: not reachable by that path
                }
            }
        }
        // an alias beneath another protected directory is already covered by that directory's bind
        protect.keySet().removeIf(a -> aliasOf.containsKey(a) && protect.keySet().stream()
                .anyMatch(d -> !d.equals(a) && a.startsWith(d) && protect.get(d).type() == LinuxAbi.S_IFDIR));
        List<PlanFile.Entry> entries = new ArrayList<>();
        for (Path a : Binds.waysTo(protect.keySet())) {
            if (protect.containsKey(a)) {
                continue; // cannot happen with a well-formed set (nothing beneath a protected directory)
            }
            try {
                Binds.Entry w = Binds.examine(a, false);
                entries.add(new PlanFile.Entry(PlanFile.Op.WAY, w.path(), w.type(), w.dev(), w.ino()));
                steps.add(Plan.Step.of("bind-on-the-way", a, "bound onto itself, recursive, stays writable: a mount"
                        + " point cannot be renamed or removed"));
            } catch (IOException e) {
                refusals.add(Plan.Refusal.of(a, "cannot examine " + a + " (on the way to a protected path): "
                        + e.getMessage(), Set.of(Guarantee.ANCESTOR_RENAME)));
            }
        }
        List<Path> sorted = new ArrayList<>(protect.keySet());
        sorted.sort(Binds.TOP_DOWN);
        for (Path p : sorted) {
            PlanFile.Entry e = protect.get(p);
            entries.add(e);
            // A symbolic link (a protected link, or a link on the way to a protected path) is bound as the link itself:
            // MountStage opens it O_PATH|O_NOFOLLOW and open_tree(2)/move_mount(2) take that descriptor with
            // AT_EMPTY_PATH/MOVE_MOUNT_T_EMPTY_PATH, so the bind lands on the link, not its target. A mount point
            // cannot be unlinked, or renamed away or over, in a namespace where it is mounted: fs/namei.c vfs_unlink()
            // and vfs_rename() return EBUSY for is_local_mountpoint() (unlink(2), rename(2): EBUSY, "in use by the
            // system (for example as a mount point)"). Lookups through the link still follow it. Checked on Linux 6.18
            // by LinksOnTheWayE2ETest (ln -sfn, rm + ln, mv -T over: EBUSY).
            String what = e.type() == LinuxAbi.S_IFDIR ? "directory and everything beneath it"
                    : e.type() == LinuxAbi.S_IFLNK ? "the symbolic link itself" : "file";
            if (aliasOf.containsKey(p)) {
                what = "the same " + what + " as " + aliasOf.get(p) + ", reachable here through another mount of its"
                        + " file system";
            }
            steps.add(Plan.Step.of("bind-readonly", p, what + "; bound onto itself, recursive, mount_setattr read-only"));
        }
        String notContained = SessionContainer.unavailableReason();
        if (notContained == null) {
            steps.add(Plan.Step.of("pid-namespace", null, "the command runs in a PID namespace of its own, child of"
                    + " its PID 1 (timeout(1), which passes signals on): when it ends, every process it started ends"));
        } else {
            refusals.add(Plan.Refusal.of(null, "processes the command starts could outlive it: " + notContained,
                    Set.of(Guarantee.LEFTOVERS)));
        }
        steps.add(Plan.Step.of("unshare", null, "nested user and mount namespace with your own uid/gid: every mount"
                + " above becomes locked (cannot be unmounted, remounted writable or moved), then the command runs"));
        long mountMax = parseLong(MountProbe.readSysctl("/proc/sys/fs/mount-max"), 100_000);
        long current = countMounts();
        if (current + entries.size() >= mountMax) {
            refusals.add(Plan.Refusal.of(null, "the plan needs " + entries.size() + " mounts on top of " + current
                    + " existing, over the limit fs.mount-max=" + mountMax + "; protect directories rather than files",
                    MountEnforcer.GUARANTEES));
        }
        Plan.Builder plan = Plan.builder(backend).payload(new MountEnforcer.Payload(entries));
        steps.forEach(plan::step);
        warnings.forEach(plan::warning);
        refusals.forEach(plan::refuse);
        return plan.build();
    }

    private static long countMounts() {
        try (var lines = Files.lines(Path.of("/proc/self/mountinfo"))) {
            return lines.count();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0;
        }
    }

    private static long parseLong(String s, long dflt) {
        try {
            return s == null ? dflt : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return dflt;
        }
    }
}
