package dev.ralon.enforcer.mount;

import com.sun.jna.LastErrorException;
import dev.ralon.linux.Binds;
import dev.ralon.linux.ExecException;
import dev.ralon.linux.LibC;
import dev.ralon.linux.LinuxAbi;

import java.util.List;

/**
 * The mount stage's system calls: binding each path of the plan onto itself (read-only for protected paths), proving
 * afterwards that every bind is in place ({@link Binds}, shared with the landlock backend's contained route), and
 * confining the session's writes to its areas. Runs as root of user namespace 1, inside {@link MountStage}; every
 * failure is a {@link StageException} and the command is not started.
 */
final class Mounts {
    private Mounts() {
    }

    /** Binds every entry, in the plan's order (ways before the protected paths beneath them), and checks each. */
    static void mountAll(List<PlanFile.Entry> entries) throws StageException {
        List<Binds.Entry> binds = entries.stream().map(Mounts::bindEntry).toList();
        try {
            Binds.bindAll(binds);
        } catch (ExecException e) {
            throw new StageException(e.getMessage());
        }
    }

    private static Binds.Entry bindEntry(PlanFile.Entry e) {
        return new Binds.Entry(e.path(), e.op() == PlanFile.Op.READONLY, e.type(), e.dev(), e.ino());
    }

    /** Whether the mount {@code fd} lies on is read-only (fstatfs(2) f_flags ST_RDONLY). */
    static boolean readOnlyMount(int fd, String name) throws StageException {
        try {
            return Binds.readOnlyMount(fd, name);
        } catch (ExecException e) {
            throw new StageException(e.getMessage());
        }
    }

    /** An O_PATH descriptor of {@code /}. */
    static int openRoot() throws StageException {
        try {
            return Binds.openRoot();
        } catch (ExecException e) {
            throw new StageException(e.getMessage());
        }
    }

    /** Whether {@code fd} is the object of type {@code type} (S_IFMT bits) on device {@code dev} with inode {@code ino}. */
    static boolean sameObject(int fd, String path, int type, long dev, long ino) throws StageException {
        try {
            return Binds.sameObject(fd, path, type, dev, ino);
        } catch (ExecException e) {
            throw new StageException(e.getMessage());
        }
    }

    /** {@link Binds#resolve}: the path without a symbolic link, checked to be the object the host saw. */
    private static int resolve(int root, PlanFile.Entry e) throws StageException {
        try {
            return Binds.resolve(root, bindEntry(e));
        } catch (ExecException x) {
            throw new StageException(x.getMessage());
        }
    }

    // include/uapi/linux/mount.h
    private static final int FSOPEN_CLOEXEC = 1;
    private static final int FSCONFIG_SET_FLAG = 0;
    private static final int FSCONFIG_SET_STRING = 1;
    private static final int FSCONFIG_CMD_CREATE = 6;
    private static final int FSMOUNT_CLOEXEC = 1;
    /** statfs(2) f_type of overlayfs (include/uapi/linux/magic.h OVERLAYFS_SUPER_MAGIC). */
    private static final long OVERLAYFS_SUPER_MAGIC = 0x794c7630L;

    /**
     * Confines the session's writes to the areas of {@code entries} ({@link PlanFile.Op#AREA}): every mount of this
     * namespace becomes read-only, the areas excepted; with a copy ({@link PlanFile.Op#COPY} and its store and layers),
     * the home directory becomes a copy-on-write view whose changes land in the copy's upper layer, the areas beneath
     * it put back over it (the real places), and the store hidden. In steps, so that no path is looked up again between
     * them but where said:
     * <ol>
     *   <li>each area is opened without following a link and checked to be what the host listed (as a bind is), and
     *       its mount tree cloned (open_tree(2) OPEN_TREE_CLONE|AT_RECURSIVE: a detached copy with every mount
     *       beneath it, the read-only binds of protected paths inside it included, flags and all);</li>
     *   <li>with a copy: the home directory, the store and both layers are opened and checked the same way, and the
     *       overlay is made detached (fsopen(2)/fsconfig(2)/fsmount(2), {@code userxattr}, layers named by those
     *       descriptors through /proc/self/fd). Overlayfs takes private clones of its layers' mounts when it is made
     *       (fs/overlayfs/super.c: clone_private_mount), so the read-only step below cannot reach its upper layer.
     *       The read-only binds of protected paths beneath the home directory and outside the areas there are cloned
     *       too, to be put back over the copy;</li>
     *   <li>every mount of the namespace is made read-only at once: mount_setattr(2) on {@code /} with AT_RECURSIVE
     *       and MOUNT_ATTR_RDONLY (only adds read-only, allowed on the locked mounts inherited from the host; EBUSY
     *       if a file is open for writing through one: fail closed). The detached clones are not in the tree, so
     *       they keep their flags;</li>
     *   <li>each clone of an area outside the home directory is attached onto its area (move_mount(2) onto the
     *       descriptor of step 1);</li>
     *   <li>with a copy: the home directory is looked up again (an area above it, /tmp for a home there, has just been
     *       put back), checked to be the same directory, and the overlay attached onto it; then each area beneath it,
     *       and each protected path cloned in step 2, is looked up in the copy (no symbolic link on the way: a link an
     *       earlier session left in the copy is refused) and its clone attached there; the directory of the stores,
     *       when it lies in the home directory, gets an empty read-only tmpfs over it.</li>
     * </ol>
     * Devices stay usable: opening a device file for writing does not need a writable mount (fs/open.c
     * do_dentry_open: {@code special_file()} skips mnt_get_write_access), so {@code /dev/null} and the terminal work.
     * The nested namespace the command runs in locks all of it (MNT_LOCK_READONLY: mount_namespaces(7)). Then each
     * area is checked writable, {@code /} read-only, the copy an overlay and writable, the stores hidden: proof, not
     * hope.
     */
    static void confine(List<PlanFile.Entry> entries, List<PlanFile.Entry> protectedPaths) throws StageException {
        // A mount namespace of this thread's own first (unshare(2) CLONE_NEWNS implies only CLONE_FS, which a
        // multithreaded process may unshare: kernel/fork.c check_unshare_flags refuses CLONE_NEWUSER, not this). Its
        // mounts are new copies (mount_namespaces(7)), through which no file is open: the ones this JVM holds open
        // for writing stay on the mounts they were opened through. Without it, mount_setattr below met EBUSY at
        // random: libffi (inside JNA's library) maps its closures from a deleted file it made in /tmp, open for
        // writing, which counts as a writer of that mount for as long as the mapping lives (seen here). The thread
        // execs the command's chain, which inherits this namespace; the JVM's other threads end with that exec.
        try {
            LibC.unshare(LinuxAbi.CLONE_NEWNS);
        } catch (LastErrorException x) {
            throw new StageException("cannot make the confined mount namespace: " + Binds.err(x) + " (unshare)");
        }
        List<PlanFile.Entry> areas = entries.stream().filter(e -> e.op() == PlanFile.Op.AREA).toList();
        PlanFile.Entry copy = only(entries, PlanFile.Op.COPY);
        java.nio.file.Path home = copy == null ? null : java.nio.file.Path.of(copy.path());
        List<PlanFile.Entry> overCopy = new java.util.ArrayList<>(); // protected paths put back over the copy
        if (home != null) {
            for (PlanFile.Entry p : protectedPaths) {
                java.nio.file.Path path = java.nio.file.Path.of(p.path());
                // beneath an area inside the home directory, the area's clone brings its read-only bind back; beneath
                // one outside it (/tmp over a home there), the copy hides it: put back itself
                if (path.startsWith(home) && !path.equals(home) && areas.stream().noneMatch(
                        a -> java.nio.file.Path.of(a.path()).startsWith(home) && beneath(path, a))) {
                    overCopy.add(p);
                }
            }
        }
        int root = openRoot();
        int[] targets = new int[areas.size()];
        int[] trees = new int[areas.size()];
        int[] overTrees = new int[overCopy.size()];
        boolean[] wasReadOnly = new boolean[areas.size()];
        java.util.Arrays.fill(targets, -1);
        java.util.Arrays.fill(trees, -1);
        java.util.Arrays.fill(overTrees, -1);
        int overlay = -1;
        try {
            for (int i = 0; i < areas.size(); i++) {
                PlanFile.Entry e = areas.get(i);
                targets[i] = resolve(root, e);
                wasReadOnly[i] = readOnlyMount(targets[i], e.path()); // a protected path, a read-only file system
                trees[i] = cloneTree(targets[i], "the writable area " + e.path());
            }
            if (copy != null) {
                overlay = overlay(root, copy, only(entries, PlanFile.Op.UPPER), only(entries, PlanFile.Op.WORK),
                        only(entries, PlanFile.Op.STORE));
                for (int i = 0; i < overCopy.size(); i++) {
                    int fd = resolve(root, overCopy.get(i));
                    try {
                        overTrees[i] = cloneTree(fd, "the protected path " + overCopy.get(i).path());
                    } finally {
                        close(fd);
                    }
                }
            }
            // EBUSY would mean a file open for writing through one of this namespace's mounts (fs/namespace.c
            // mnt_hold_writers); the namespace is this thread's own, made above, and nothing has opened one since
            try {
                Binds.makeReadOnly(root);
            } catch (LastErrorException x) {
                throw new StageException("cannot make the file system read-only outside the writable areas: " + Binds.err(x)
                        + " (mount_setattr)");
            }
            for (int i = 0; i < areas.size(); i++) {
                if (home == null || !java.nio.file.Path.of(areas.get(i).path()).startsWith(home)) { // beneath: after the copy
                    attach(trees[i], targets[i], "the writable area " + areas.get(i).path());
                }
            }
            if (copy != null) {
                int h = resolve(root, copy); // again: through an area just put back above it (a home under /tmp)
                try {
                    attach(overlay, h, "the copy of the home directory " + home);
                } finally {
                    close(h);
                }
                for (int i = 0; i < areas.size(); i++) {
                    if (java.nio.file.Path.of(areas.get(i).path()).startsWith(home)) {
                        attachInCopy(root, trees[i], areas.get(i), "the writable area");
                    }
                }
                for (int i = 0; i < overCopy.size(); i++) {
                    attachInCopy(root, overTrees[i], overCopy.get(i), "the protected path");
                }
                hideStores(root, home, only(entries, PlanFile.Op.STORE));
            }
        } finally {
            for (int i = 0; i < areas.size(); i++) {
                if (trees[i] >= 0) {
                    close(trees[i]);
                }
                if (targets[i] >= 0) {
                    close(targets[i]);
                }
            }
            for (int t : overTrees) {
                if (t >= 0) {
                    close(t);
                }
            }
            if (overlay >= 0) {
                close(overlay);
            }
            close(root);
        }
        int again = openRoot();
        try {
            if (!readOnlyMount(again, "/")) {
                throw new StageException("after the confinement, / is still writable (fstatfs)");
            }
            for (int i = 0; i < areas.size(); i++) {
                PlanFile.Entry e = areas.get(i);
                boolean inCopy = home != null && java.nio.file.Path.of(e.path()).startsWith(home);
                int fd = inCopy ? openInCopy(again, e) : resolve(again, e);
                try {
                    if (readOnlyMount(fd, e.path()) != wasReadOnly[i]) {
                        throw new StageException("after the confinement, the writable area " + e.path()
                                + " is read-only (fstatfs), and was not before");
                    }
                } finally {
                    close(fd);
                }
            }
            if (home != null) {
                int fd = openInCopy(again, copy);
                try {
                    if (readOnlyMount(fd, copy.path()) || fsType(fd, copy.path()) != OVERLAYFS_SUPER_MAGIC) {
                        throw new StageException("after the confinement, the home directory " + copy.path()
                                + " is not a writable copy (fstatfs)");
                    }
                } finally {
                    close(fd);
                }
            }
        } finally {
            close(again);
        }
    }

    /** The one entry of {@code op}, or null. */
    private static PlanFile.Entry only(List<PlanFile.Entry> entries, PlanFile.Op op) {
        return entries.stream().filter(e -> e.op() == op).findFirst().orElse(null);
    }

    /** Whether {@code path} lies in (or is) the area {@code a}. */
    private static boolean beneath(java.nio.file.Path path, PlanFile.Entry a) {
        java.nio.file.Path ap = java.nio.file.Path.of(a.path());
        return a.type() == LinuxAbi.S_IFDIR ? path.startsWith(ap) : path.equals(ap);
    }

    /** open_tree(2) OPEN_TREE_CLONE|AT_RECURSIVE of the mount (tree) at {@code fd}: detached. */
    private static int cloneTree(int fd, String what) throws StageException {
        try {
            return (int) LibC.syscall(LinuxAbi.SYS_OPEN_TREE, fd, "",
                    Binds.OPEN_TREE_CLONE | LinuxAbi.O_CLOEXEC | LinuxAbi.AT_EMPTY_PATH | LinuxAbi.AT_RECURSIVE);
        } catch (LastErrorException x) {
            throw new StageException("cannot clone the mount at " + what + ": " + Binds.err(x) + " (open_tree)");
        }
    }

    /** move_mount(2) of the detached {@code tree} onto the object {@code target} names. */
    private static void attach(int tree, int target, String what) throws StageException {
        try {
            LibC.syscall(LinuxAbi.SYS_MOVE_MOUNT, tree, "", target, "",
                    Binds.MOVE_MOUNT_F_EMPTY_PATH | Binds.MOVE_MOUNT_T_EMPTY_PATH);
        } catch (LastErrorException x) {
            throw new StageException("cannot put " + what + " in place: " + Binds.err(x) + " (move_mount)");
        }
    }

    /**
     * The path of {@code e} as the copy shows it: opened with no symbolic link on the way (openat2
     * RESOLVE_NO_SYMLINKS), of the type the host saw (its device and inode are the overlay's there).
     */
    private static int openInCopy(int root, PlanFile.Entry e) throws StageException {
        int fd;
        try {
            fd = Binds.openNoSymlinks(root, e.path());
        } catch (LastErrorException x) {
            throw new StageException("the copy of the home directory has no " + e.path() + " as the home directory has"
                    + " (" + Binds.err(x) + "): a symbolic link or a removal an earlier session left there; remove the"
                    + " copy to start a fresh one (openat2)");
        }
        byte[] stx = new byte[256];
        try {
            Binds.statx(fd, e.path(), stx);
        } catch (ExecException x) {
            close(fd);
            throw new StageException(x.getMessage());
        }
        if ((Binds.u16(stx, 28) & LinuxAbi.S_IFMT) != e.type()) {
            close(fd);
            throw new StageException("the copy of the home directory holds " + e.path() + " as another kind of file than"
                    + " the home directory does; remove the copy to start a fresh one");
        }
        return fd;
    }

    /** Attaches {@code tree} (a clone of {@code e}'s real place) onto {@code e}'s path in the copy. */
    private static void attachInCopy(int root, int tree, PlanFile.Entry e, String what) throws StageException {
        int fd = openInCopy(root, e);
        try {
            attach(tree, fd, what + " " + e.path() + " over the copy");
        } finally {
            close(fd);
        }
    }

    /**
     * The copy's overlay, detached: lower layer the home directory, upper and work layers the store's, each named by
     * its checked descriptor (/proc/self/fd/N: nothing swapped in after the check is used), {@code userxattr} (the
     * overlay's own attributes in the user.* namespace: trusted.* needs real root; Linux 5.11 allows overlayfs in a
     * user namespace). The store is checked to be the one the host made (its identity) and to hold both layers.
     */
    private static int overlay(int root, PlanFile.Entry home, PlanFile.Entry upper, PlanFile.Entry work,
                               PlanFile.Entry store) throws StageException {
        if (upper == null || work == null || store == null) {
            throw new StageException("the plan names a copy of the home directory without its store and layers");
        }
        int[] fds = {-1, -1, -1, -1};
        int fs = -1;
        try {
            fds[0] = resolve(root, home);
            fds[1] = resolve(root, upper);
            fds[2] = resolve(root, work);
            fds[3] = resolve(root, store);
            try {
                fs = (int) LibC.syscall(LinuxAbi.SYS_FSOPEN, "overlay", FSOPEN_CLOEXEC);
                LibC.syscall(LinuxAbi.SYS_FSCONFIG, fs, FSCONFIG_SET_STRING, "lowerdir", "/proc/self/fd/" + fds[0], 0);
                LibC.syscall(LinuxAbi.SYS_FSCONFIG, fs, FSCONFIG_SET_STRING, "upperdir", "/proc/self/fd/" + fds[1], 0);
                LibC.syscall(LinuxAbi.SYS_FSCONFIG, fs, FSCONFIG_SET_STRING, "workdir", "/proc/self/fd/" + fds[2], 0);
                LibC.syscall(LinuxAbi.SYS_FSCONFIG, fs, FSCONFIG_SET_FLAG, "userxattr", null, 0);
                LibC.syscall(LinuxAbi.SYS_FSCONFIG, fs, FSCONFIG_CMD_CREATE, null, null, 0);
                return (int) LibC.syscall(LinuxAbi.SYS_FSMOUNT, fs, FSMOUNT_CLOEXEC, 0);
            } catch (LastErrorException x) {
                throw new StageException("cannot make the copy of the home directory " + home.path() + ": " + Binds.err(x)
                        + " (overlayfs; `ralon run --write-anywhere` runs without it)");
            }
        } finally {
            for (int fd : fds) {
                if (fd >= 0) {
                    close(fd);
                }
            }
            if (fs >= 0) {
                close(fs);
            }
        }
    }

    /**
     * The directory of the stores ({@code ~/.local/state/ralon/homes}, the store's parent), when it lies in the home
     * directory, seen through the copy: an empty read-only tmpfs goes over it, so that the session sees no layer of
     * any copy (its own it reaches through the overlay only).
     */
    private static void hideStores(int root, java.nio.file.Path home, PlanFile.Entry store) throws StageException {
        java.nio.file.Path stores = java.nio.file.Path.of(store.path()).getParent();
        if (stores == null || !stores.startsWith(home) || stores.equals(home)) {
            return;
        }
        int fd;
        try {
            fd = Binds.openNoSymlinks(root, stores.toString());
        } catch (LastErrorException x) {
            throw new StageException("cannot hide the copies' store " + stores + " from the session: " + Binds.err(x)
                    + " (openat2)");
        }
        int fs = -1;
        try {
            fs = (int) LibC.syscall(LinuxAbi.SYS_FSOPEN, "tmpfs", FSOPEN_CLOEXEC);
            LibC.syscall(LinuxAbi.SYS_FSCONFIG, fs, FSCONFIG_SET_STRING, "size", "4k", 0);
            LibC.syscall(LinuxAbi.SYS_FSCONFIG, fs, FSCONFIG_CMD_CREATE, null, null, 0);
            int empty = (int) LibC.syscall(LinuxAbi.SYS_FSMOUNT, fs, FSMOUNT_CLOEXEC, Binds.MOUNT_ATTR_RDONLY);
            try {
                attach(empty, fd, "the empty directory over the copies' store " + stores);
            } finally {
                close(empty);
            }
        } catch (LastErrorException x) {
            throw new StageException("cannot hide the copies' store " + stores + " from the session: " + Binds.err(x)
                    + " (tmpfs)");
        } finally {
            if (fs >= 0) {
                close(fs);
            }
            close(fd);
        }
    }

    /** statfs(2) f_type of the file system {@code fd} lies on. */
    private static long fsType(int fd, String name) throws StageException {
        byte[] sfs = new byte[120];
        try {
            LibC.fstatfs(fd, sfs);
        } catch (LastErrorException x) {
            throw new StageException("cannot examine the mount of " + name + ": " + Binds.err(x) + " (fstatfs)");
        }
        return Binds.u64(sfs, 0); // struct statfs on 64-bit Linux: f_type is the first 8-byte word
    }

    /** close(2) of a descriptor the stage owns (O_PATH or read-only): nothing can be lost, a failure is ignored. */
    static void close(int fd) {
        LibC.close(fd);
    }
}
