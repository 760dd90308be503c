package dev.ralon.enforcer.landlock;

import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.linux.MountTable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every other path at which a protected object is reachable through another mount of its file system (a bind mount of
 * the project, of one of its ancestors, or of part of a protected directory, anywhere in the tree), added to the set as
 * a protected path of its own.
 *
 * <p>Why: Landlock rules follow paths, not objects (security/landlock/fs.c walks from the file being accessed up to
 * the root of <em>its</em> path, crossing mount points). The planner gives a full-access rule to every sibling on
 * the way; a bind mount of the project two levels below such a sibling is reached through that rule, and its
 * protected files are writable there. The planner only compares the immediate siblings' (device, inode) with the
 * paths on the way, which catches a bind of a directory on the way at a sibling, not one deeper. So each alias that
 * /proc/self/mountinfo names ({@link MountTable#aliasesOf}) and that is the same object (device and inode, not
 * following a link) is protected too: its own directories on the way get read-only rules, and the siblings there
 * full access, exactly as for the original. The mount backend binds the same aliases read-only (MountPlanner).
 * What is left: a mount made <em>during</em> the run is not seen (and an unprivileged process cannot mount outside a
 * user namespace of its own, where Landlock still applies).
 */
final class MountAliases {
    private MountAliases() {
    }

    /** {@code set} with each verified alias added (sorted by path); a note per alias added to {@code notes}. */
    static ProtectedSet withAliases(ProtectedSet set, MountTable mounts, List<String> notes) {
        Map<Path, ProtectedPath> all = new LinkedHashMap<>();
        for (ProtectedPath p : set.paths()) {
            all.put(p.path(), p);
        }
        List<ProtectedPath> added = new ArrayList<>();
        for (ProtectedPath pp : set.paths()) {
            if (pp.kind() == ProtectedPath.Kind.MISSING) {
                continue;
            }
            Path p = pp.path();
            Object id = id(p);
            if (id == null) {
                continue; // the planner refuses what it cannot open
            }
            for (MountTable.Alias a : mounts.aliasesOf(p, pp.kind() == ProtectedPath.Kind.DIRECTORY)) {
                Path alias = a.alias();
                if (all.containsKey(alias) || coveredByDirectory(all, alias)) {
                    continue;
                }
                Object original = a.original().equals(p) ? id : id(a.original());
                Object there = id(alias);
                if (original == null || !original.equals(there)) {
                    continue; // hidden beneath another mount there, or not reachable: not an alias
                }
                List<String> reasons = new ArrayList<>(pp.reasons());
                reasons.add("the same object as " + a.original() + ", reached through another mount");
                ProtectedPath extra = ProtectedPath.of(alias, kind(alias), reasons);
                all.put(alias, extra);
                added.add(extra);
                notes.add(a.original() + " is also reachable at " + alias + " (another mount of its file system):"
                        + " protected there too");
            }
        }
        if (added.isEmpty()) {
            return set;
        }
        List<ProtectedPath> paths = new ArrayList<>(all.values());
        paths.sort(Comparator.comparing(ProtectedPath::path));
        return ProtectedSet.of(set.root(), set.policyFile(), paths, set.warnings());
    }

    private static boolean coveredByDirectory(Map<Path, ProtectedPath> all, Path p) {
        for (Path a = p.getParent(); a != null; a = a.getParent()) {
            ProtectedPath q = all.get(a);
            if (q != null && q.kind() == ProtectedPath.Kind.DIRECTORY) {
                return true;
            }
        }
        return false;
    }

    /** (device, inode) of {@code p} not following a final link, or null when it cannot be examined. */
    private static Object id(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.fileKey();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static ProtectedPath.Kind kind(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isDirectory() ? ProtectedPath.Kind.DIRECTORY : a.isRegularFile() ? ProtectedPath.Kind.FILE
                    : a.isSymbolicLink() ? ProtectedPath.Kind.SYMLINK : ProtectedPath.Kind.OTHER;
        } catch (IOException | RuntimeException e) {
            return ProtectedPath.Kind.MISSING;
        }
    }
}
