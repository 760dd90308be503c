package dev.ralon.enforcer.landlock;

import dev.ralon.linux.LibC;
import dev.ralon.linux.LinuxAbi;
import dev.ralon.linux.Errno;
import com.sun.jna.Memory;
import dev.ralon.enforcer.landlock.LinuxCalls.Id;
import dev.ralon.enforcer.landlock.LinuxCalls.Stat;
import dev.ralon.enforcer.spi.Confinement;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns a protected set into Landlock rules ("everything but these paths", docs/backend-landlock.md). Landlock rules only
 * grant, and a rule on a directory covers everything beneath it (security/landlock/fs.c walks from the file up to the
 * real root, crossing mount points, and unions the rights of every rule it meets). So:
 * <ul>
 *   <li>one read-only rule (execute, read-file, read-dir) on {@code /}: every directory on the way and every
 *       protected path inherits it, and nothing more;</li>
 *   <li>one full-access rule on each <em>sibling</em>: every entry of a directory on the way that is neither on the
 *       way nor protected. The rest of the file system is reached through those rules.</li>
 * </ul>
 * Only the directories on the way are listed, never whole trees. Each directory on the way is opened with
 * {@code O_PATH|O_NOFOLLOW}; every entry in it is examined with one statx(2) relative to that descriptor, not
 * following a link ({@link LinuxCalls#statAt}), and identified by (device, inode), so a sibling that is another name
 * (hard link, bind mount) for a protected path or a directory on the way never gets a rule. (The applier opens and
 * re-identifies each rule's path when it adds the rule: the plan's stat is what the plan says, not what is trusted.)
 *
 * <p>Why a rule per sibling and not fewer: Landlock rules only grant, and a rule on a directory grants everything
 * beneath it (security/landlock/fs.c, is_access_to_paths_allowed: the rights of every rule met from the file up to
 * the root are unioned). A directory on the way holds a protected path, so it cannot get a write rule; every other
 * entry in it must get its own. There is no deny rule (Documentation/userspace-api/landlock.rst). The cost is thus
 * one rule per entry of each directory on the way, whatever the planner does; what it can make cheap is the work per
 * entry: one listing per directory (getdents64(2), a call per 32 KiB of entries) and one statx per entry.
 *
 * <p>Read-only: this class opens and lists, it changes nothing.
 */
final class RulePlanner {

    /**
     * One landlock-rule to add: {@code path} gets {@code rights}; {@code directory} as seen when planned;
     * {@code fromRoot}: a writable area (or /dev) whose parent is not on the way, opened from {@code /} without
     * following any link (else opened in its parent on the way).
     */
    record Rule(Path path, long rights, boolean directory, boolean fromRoot) {
        Rule(Path path, long rights, boolean directory) {
            this(path, rights, directory, false);
        }
    }

    /** What {@link #plan} found. */
    record Result(List<Path> onTheWay, List<Path> createRestricted, List<Rule> rules, List<String> warnings,
                  List<String> refusals, Set<Path> refusedPaths, int symlinksSkipped) {
    }

    private final Map<Path, Integer> dirFds = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<String> refusals = new ArrayList<>();
    private final Set<Path> refusedPaths = new HashSet<>();

    private RulePlanner() {
    }

    static Result plan(ProtectedSet set, long handled) {
        return plan(set.paths(), handled, null);
    }

    /**
     * The rules for {@code paths} when writes are confined to {@code areas} (null: not confined, the whole file system
     * is the one area). Confined, the sibling rules are made only in the directories on the way that lie in an area,
     * each area without a protected path in it gets one rule of its own, and {@code /dev} gets the rights to write,
     * truncate and ioctl its existing device files (nothing created or removed there); everything else keeps the
     * read-only rule on {@code /}.
     */
    static Result plan(List<ProtectedPath> paths, long handled, List<Confinement.Area> areas) {
        RulePlanner p = new RulePlanner();
        try {
            return p.run(paths, handled, areas);
        } finally {
            p.closeAll();
        }
    }

    /** The area {@code p} lies in (strictly beneath a directory area), or null. */
    private static Confinement.Area areaOf(Path p, List<Confinement.Area> areas) {
        for (Confinement.Area a : areas) {
            if (a.directory() && p.startsWith(a.path()) && !p.equals(a.path())) {
                return a;
            }
        }
        return null;
    }

    private Result run(List<ProtectedPath> paths, long handled, List<Confinement.Area> areas) {
        // Directories on the way: every ancestor of every protected path, parents before children.
        Map<Path, Boolean> ancestors = new TreeMap<>(); // path -> needed by a protected path that exists
        Map<Path, ProtectedPath> protectedByPath = new LinkedHashMap<>();
        Set<Path> expand = new HashSet<>(); // confined: the directories on the way whose other entries get rules
        List<Confinement.Area> skippedAreas = new ArrayList<>();
        for (ProtectedPath pp : paths) {
            Path p = pp.path().normalize();
            protectedByPath.put(p, pp);
            if (areas != null) {
                for (Confinement.Area a : areas) {
                    if (a.path().startsWith(p) && !skippedAreas.contains(a)) {
                        skippedAreas.add(a); // an area in (or at) a protected path stays read-only
                        warnings.add("the writable area " + a.path() + " lies in the protected path " + p
                            + ": it stays read-only");
                    }
                }
                Confinement.Area area = areaOf(p, areas);
                if (area != null) {
                    for (Path a = p.getParent(); a != null && a.startsWith(area.path()); a = a.getParent()) {
                        expand.add(a);
                    }
                }
            }
            boolean exists = pp.kind() != ProtectedPath.Kind.MISSING;
            for (Path a = p.getParent(); a != null; a = a.getParent()) {
                Boolean before = ancestors.get(a);
                if (before != null && (before || !exists)) {
                    break; // a was put with its ancestors, each at least as needed as this path makes them
                }
                ancestors.put(a, exists);
            }
        }
        Map<Id, Path> forbiddenNames = new HashMap<>();
        List<Path> onTheWay = new ArrayList<>();
        Set<Path> unreachable = new HashSet<>();
        for (Map.Entry<Path, Boolean> e : ancestors.entrySet()) {
            Path dir = e.getKey();
            boolean needed = e.getValue();
            Path parent = dir.getParent();
            if (parent != null && unreachable.contains(parent)) {
                unreachable.add(dir);
                continue;
            }
            int fd = parent == null
                ? LibC.openat(LinuxAbi.AT_FDCWD, LinuxCalls.cString("/"), LinuxCalls.OPEN_ROOT)
                : LibC.openat(dirFds.get(parent), name(dir), LinuxCalls.OPEN_DIR);
            if (fd < 0) {
                int errno = LinuxCalls.errno();
                unreachable.add(dir);
                if (needed || (errno != LinuxAbi.ENOENT && errno != LinuxAbi.ENOTDIR)) {
                    refusals.add("cannot open " + dir + ", a directory on the way to a protected path: openat: "
                        + Errno.text(errno));
                    refusedPaths.add(dir);
                }
                // else: a missing protected path below a directory that does not exist yet; its nearest existing
                // ancestor is on the way, so the missing directory cannot be created either.
                continue;
            }
            dirFds.put(dir, fd);
            Stat st = LinuxCalls.fstat(fd);
            if (st == null) {
                refusals.add("cannot stat " + dir + ": statx: " + Errno.text(LinuxCalls.errno()));
                refusedPaths.add(dir);
                continue;
            }
            forbiddenNames.put(st.id(), dir);
            onTheWay.add(dir);
        }

        // The protected paths themselves: each must open; their identities must never be granted under another name.
        Set<Long> protectedDirDevices = new HashSet<>();
        for (ProtectedPath pp : protectedByPath.values()) {
            Path p = pp.path().normalize();
            Integer parentFd = p.getParent() == null ? null : dirFds.get(p.getParent());
            if (parentFd == null) {
                if (pp.kind() != ProtectedPath.Kind.MISSING && !refusedPaths.contains(p.getParent())) {
                    refusals.add("cannot open " + p + ": its directory could not be opened");
                    refusedPaths.add(p);
                }
                continue;
            }
            // opened, not only examined: a protected path that cannot be opened is refused in these words
            int fd = LibC.openat(parentFd, name(p), LinuxCalls.OPEN_NAME);
            if (fd < 0) {
                int errno = LinuxCalls.errno();
                if (pp.kind() != ProtectedPath.Kind.MISSING) {
                    refusals.add("cannot open protected path " + p + ": openat: " + Errno.text(errno));
                    refusedPaths.add(p);
                }
                continue;
            }
            try {
                Stat st = LinuxCalls.fstat(fd);
                if (st == null) {
                    refusals.add("cannot stat protected path " + p + ": statx: "
                        + Errno.text(LinuxCalls.errno()));
                    refusedPaths.add(p);
                    continue;
                }
                forbiddenNames.put(st.id(), p);
                if (st.isDirectory()) {
                    protectedDirDevices.add(st.dev());
                } else if (st.nlink() > 1) {
                    warnings.add(p + " has " + st.nlink() + " hard links: its other names outside the directories on"
                        + " the way stay writable (Landlock rules follow paths); remove the extra links or protect"
                        + " them");
                }
            } finally {
                LibC.close(fd);
            }
        }

        // Siblings: every other entry of every directory on the way gets full access.
        List<Rule> rules = new ArrayList<>();
        rules.add(new Rule(Path.of("/"), Access.READ_ONLY & handled, true));
        Set<Path> onTheWaySet = new HashSet<>(onTheWay);
        int symlinks = 0;
        for (Path dir : onTheWay) {
            if (areas != null && !expand.contains(dir)) {
                continue; // above every area: read-only like the rest of the file system
            }
            int dirFd = dirFds.get(dir);
            for (String entry : list(dir, dirFd)) {
                Path child = dir.resolve(entry);
                if (onTheWaySet.contains(child) || protectedByPath.containsKey(child)) {
                    continue;
                }
                Stat st = LinuxCalls.statAt(dirFd, LinuxCalls.cString(entry));
                if (st == null) {
                    int errno = LinuxCalls.errno();
                    if (errno != LinuxAbi.ENOENT) {
                        warnings.add("cannot examine " + child + " (statx: " + Errno.text(errno)
                            + "): it gets no rule and stays read-only");
                    }
                    continue;
                }
                if (st.isSymlink()) {
                    // No rule: following the link is checked on the target's own path, and removing or
                    // replacing the link itself is governed by its directory (on the way: refused).
                    symlinks++;
                    continue;
                }
                Path same = forbiddenNames.get(st.id());
                if (same != null) {
                    warnings.add(child + " is another name for " + same + " (same device and inode): it gets no"
                        + " rule and stays read-only");
                    continue;
                }
                if (st.isRegular() && st.nlink() > 1 && protectedDirDevices.contains(st.dev())) {
                    warnings.add(child + " has " + st.nlink() + " hard links and might be another name for a file"
                        + " in a protected directory: it gets no rule and stays read-only");
                    continue;
                }
                long rights = st.isDirectory() ? handled : handled & Access.FILE_RIGHTS;
                rules.add(new Rule(child, rights, st.isDirectory()));
            }
        }
        if (areas != null) {
            for (Confinement.Area a : areas) {
                if (skippedAreas.contains(a) || onTheWaySet.contains(a.path())) {
                    continue; // a protected path inside: its siblings got their rules above
                }
                rules.add(new Rule(a.path(), a.directory() ? handled : handled & Access.FILE_RIGHTS, a.directory(),
                    true));
            }
            Path dev = Path.of("/dev");
            if (protectedByPath.keySet().stream().noneMatch(p -> p.startsWith(dev))
                && areas.stream().noneMatch(a -> dev.startsWith(a.path()) && a.directory())) {
                rules.add(new Rule(dev, handled & (Access.READ_ONLY | Access.DEVICE_WRITE), true, true));
            }
        }
        List<Path> restricted = areas == null ? onTheWay : onTheWay.stream().filter(expand::contains).toList();
        return new Result(List.copyOf(onTheWay), List.copyOf(restricted), rules, warnings, refusals, refusedPaths,
            symlinks);
    }

    /** getdents64's buffer, native: JNA copies a byte[] argument in and out whole on every call (LibC's doc). */
    private static final int BUFFER_SIZE = 32 * 1024;
    /** struct linux_dirent64 (getdents64(2)): d_ino u64, d_off s64, d_reclen u16 at 16, d_type u8, d_name at 19. */
    private static final int RECLEN = 16;
    private static final int NAME = 19;

    private Memory buffer;
    private byte[] records;

    /**
     * The entry names of a directory on the way, sorted; a directory that cannot be listed is warned about. Read with
     * getdents64(2) into one buffer, a call per 32 KiB of entries (what readdir(3) does beneath, without a native call
     * per entry); a failure is worded as readdir's, which it is.
     */
    private List<String> list(Path dir, int pathFd) {
        TreeSet<String> names = new TreeSet<>();
        int fd = LibC.openat(pathFd, LinuxCalls.cString("."), LinuxCalls.OPEN_LIST);
        if (fd < 0) {
            warnings.add("cannot list " + dir + " (openat: " + Errno.text(LinuxCalls.errno())
                + "): none of its other entries gets a rule, so they stay read-only");
            return List.of();
        }
        if (buffer == null) {
            buffer = new Memory(BUFFER_SIZE);
            records = new byte[BUFFER_SIZE];
        }
        try {
            long n;
            while ((n = LibC.syscall(LinuxAbi.SYS_GETDENTS64, fd, buffer, BUFFER_SIZE)) != 0) {
                if (n < 0) {
                    warnings.add("listing " + dir + " stopped (readdir: " + Errno.text(LinuxCalls.errno())
                        + "): entries not listed get no rule and stay read-only");
                    break;
                }
                buffer.read(0, records, 0, (int) n);
                ByteBuffer b = ByteBuffer.wrap(records, 0, (int) n).order(ByteOrder.nativeOrder());
                for (int at = 0; at < n; at += b.getShort(at + RECLEN) & 0xffff) {
                    int end = at + NAME;
                    while (records[end] != 0) {
                        end++;
                    }
                    String name = new String(records, at + NAME, end - at - NAME, LinuxCalls.fileNameCharset());
                    if (!name.equals(".") && !name.equals("..")) {
                        names.add(name);
                    }
                }
            }
        } finally {
            LibC.close(fd);
        }
        return new ArrayList<>(names);
    }

    private static byte[] name(Path p) {
        return LinuxCalls.cString(p.getFileName().toString());
    }

    private void closeAll() {
        for (int fd : dirFds.values()) {
            LibC.close(fd);
        }
        dirFds.clear();
    }
}
