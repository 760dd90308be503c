package dev.ralon.enforcer.landlock;

import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.linux.Binds;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A contained session has a mount namespace of its own, made before the restriction by a thread that is root of the
 * launcher's user namespace ({@link dev.ralon.linux.SessionContainer#startPid1}): there, a protected path
 * outside the project can be a read-only bind instead of a Landlock rule. Why: Landlock's rules only grant, so a rule
 * set protects a path by granting its siblings, and every directory on the way to it becomes create-restricted
 * (docs/backend-landlock.md). Outside the project that stopped whole directories the session must write in: an agent's
 * state directory holding its configuration ({@code ~/.claude/settings.json}), which the baseline therefore dropped
 * under landlock. A bind costs no directory anything.
 *
 * <p>Chosen: every protected path outside the policy's root (not the root, nor one of its ancestors) that exists as a
 * regular file or a directory; each bound onto itself, recursive, read-only, after every directory on the way to it
 * (from {@code /}, exclusive) was bound onto itself writable, as the mount backend does: a mount point cannot be
 * renamed or removed (rename(2), rmdir(2), unlink(2): EBUSY, fs/namei.c {@code is_local_mountpoint}), so neither the
 * path nor a directory above it can be moved away and replaced. A read-only mount refuses every write beneath it
 * (EROFS, fs/namespace.c {@code mnt_want_write}). The restricted command cannot undo a bind: Landlock refuses every
 * mount, unmount and move to a restricted process (security/landlock/fs.c {@code hook_sb_mount},
 * {@code hook_sb_umount}, {@code hook_move_mount}). Kept as rules: paths in the project (a rule's create-restriction
 * there is the backend's documented cost, and a bind would not cover their creation), missing paths (a bind needs an
 * object) and symbolic links.
 */
final class ContainedBinds {
    /** The set left to Landlock's rules, the binds to make (ways first, parents first), and the plan's steps. */
    record Result(ProtectedSet rules, List<Binds.Entry> binds, List<Plan.Step> steps) {
    }

    private ContainedBinds() {
    }

    static Result select(ProtectedSet set) {
        Path root = set.root();
        Map<Path, Binds.Entry> readOnly = new LinkedHashMap<>();
        List<ProtectedPath> rules = new ArrayList<>();
        for (ProtectedPath pp : set.paths()) {
            Path p = pp.path().normalize();
            boolean candidate = (pp.kind() == ProtectedPath.Kind.FILE || pp.kind() == ProtectedPath.Kind.DIRECTORY)
                    && p.getParent() != null && (root == null || !p.startsWith(root) && !root.startsWith(p));
            Binds.Entry e = candidate ? examine(p, true) : null;
            if (e == null) {
                rules.add(pp);
            } else {
                readOnly.put(p, e);
            }
        }
        // the directories on the way first, parents first; one that cannot be examined now sends the protected paths
        // beneath it back to rules (the ways already bound stay: a writable bind changes nothing else)
        List<Binds.Entry> binds = new ArrayList<>();
        List<Plan.Step> steps = new ArrayList<>();
        for (Path a : Binds.waysTo(readOnly.keySet())) {
            Binds.Entry e = examine(a, false);
            if (e == null) {
                for (Path p : readOnly.keySet().stream().filter(p -> p.startsWith(a)).toList()) {
                    readOnly.remove(p);
                    set.paths().stream().filter(pp -> pp.path().normalize().equals(p)).forEach(rules::add);
                }
                continue;
            }
            binds.add(e);
            steps.add(Plan.Step.of("bind-on-the-way", a, "in the session's mount namespace, bound onto itself,"
                    + " recursive, stays writable: a mount point cannot be renamed or removed"));
        }
        List<Path> sorted = new ArrayList<>(readOnly.keySet());
        sorted.sort(Binds.TOP_DOWN);
        for (Path p : sorted) {
            Binds.Entry e = readOnly.get(p);
            binds.add(e);
            steps.add(Plan.Step.of("bind-readonly", p, (e.type() == dev.ralon.linux.LinuxAbi.S_IFDIR
                    ? "directory and everything beneath it" : "file") + " outside the project; in the session's mount"
                    + " namespace, bound onto itself, recursive, read-only (no Landlock rule: its directories stay"
                    + " free)"));
        }
        rules.sort(Comparator.comparing(ProtectedPath::path));
        return new Result(ProtectedSet.of(set.root(), set.policyFile(), rules, set.warnings()), List.copyOf(binds),
                steps);
    }

    private static Binds.Entry examine(Path p, boolean readOnly) {
        try {
            return Binds.examine(p, readOnly);
        } catch (IOException e) {
            return null;
        }
    }
}
