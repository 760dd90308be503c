package dev.ralon.enforcer.mount;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import dev.ralon.enforcer.spi.exec.Errno;
import dev.ralon.enforcer.spi.exec.LibC;
import dev.ralon.enforcer.spi.exec.LinuxAbi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The mount stage's system calls: resolving each path of the plan without following symbolic links, binding it onto
 * itself (read-only for protected paths) and proving afterwards that every bind is in place. Runs as root of user
 * namespace 1, inside {@link MountStage}; every failure is a {@link StageException} and the command is not started.
 */
final class Mounts {
    // include/uapi/linux/openat2.h, openat2(2)
    static final long RESOLVE_NO_SYMLINKS = 0x04; // no symlink anywhere on the path (implies NO_MAGICLINKS)
    static final long RESOLVE_BENEATH = 0x08;     // the result must lie beneath the starting directory
    static final long OPEN_HOW_SIZE = 24;         // struct open_how { u64 flags; u64 mode; u64 resolve; }
    // include/uapi/linux/mount.h
    static final int OPEN_TREE_CLONE = 1;         // open_tree(2): detached copy of the mount (tree)
    static final int OPEN_TREE_CLOEXEC = LinuxAbi.O_CLOEXEC;
    static final int MOVE_MOUNT_F_EMPTY_PATH = 0x04;
    static final int MOVE_MOUNT_T_EMPTY_PATH = 0x40;
    static final long MOUNT_ATTR_RDONLY = 0x01;
    static final long MOUNT_ATTR_SIZE_VER0 = 32;  // struct mount_attr { u64 attr_set, attr_clr, propagation, userns_fd; }
    // statx(2), include/uapi/linux/stat.h
    static final int STATX_TYPE = 0x1;
    static final int STATX_INO = 0x100;
    static final long STATX_ATTR_MOUNT_ROOT = 0x2000; // Linux 5.8: the path is the root of a mount
    static final long ST_RDONLY = 1;                  // statfs(2) f_flags: mounted read-only

    private Mounts() {
    }

    /** Binds every entry, in the plan's order (ways before the protected paths beneath them). */
    static void mountAll(List<PlanFile.Entry> entries) throws StageException {
        int root = openRoot();
        try {
            for (PlanFile.Entry e : entries) {
                int fd = resolve(root, e);
                try {
                    bind(fd, e);
                } finally {
                    close(fd);
                }
            }
        } finally {
            close(root);
        }
    }

    /** Every path must now lead to the root of a mount, read-only for protected paths: proof, not hope. */
    static void verifyAll(List<PlanFile.Entry> entries) throws StageException {
        int root = openRoot();
        try {
            byte[] stx = new byte[256];
            for (PlanFile.Entry e : entries) {
                int fd = resolve(root, e);
                try {
                    long mask = statx(fd, e.path(), stx);
                    long attributes = u64(stx, 8);
                    long attributesMask = u64(stx, 56);
                    if ((attributesMask & STATX_ATTR_MOUNT_ROOT) != 0 && (attributes & STATX_ATTR_MOUNT_ROOT) == 0) {
                        throw new StageException("after the bind, " + e.path() + " is not a mount point (statx)");
                    }
                    if (e.op() == PlanFile.Op.READONLY && !readOnlyMount(fd, e.path())) {
                        throw new StageException("after the bind, " + e.path() + " is still writable (fstatfs)");
                    }
                    if (mask == 0) {
                        throw new StageException("cannot check " + e.path() + " (statx returned no fields)");
                    }
                } finally {
                    close(fd);
                }
            }
        } finally {
            close(root);
        }
    }

    /** Whether the mount {@code fd} lies on is read-only (fstatfs(2) f_flags ST_RDONLY). */
    static boolean readOnlyMount(int fd, String name) throws StageException {
        byte[] sfs = new byte[120];
        try {
            LibC.fstatfs(fd, sfs);
        } catch (LastErrorException x) {
            throw new StageException("cannot examine the mount of " + name + ": " + err(x) + " (fstatfs)");
        }
        return (u64(sfs, 80) & ST_RDONLY) != 0; // struct statfs on 64-bit Linux: f_flags is the 11th 8-byte word
    }

    /** An O_PATH descriptor of {@code /}. */
    static int openRoot() throws StageException {
        try {
            return LibC.open("/", LinuxAbi.O_PATH | LinuxAbi.O_DIRECTORY | LinuxAbi.O_CLOEXEC);
        } catch (LastErrorException e) {
            throw new StageException("cannot open / : " + err(e) + " (open)");
        }
    }

    /**
     * An O_PATH descriptor of the absolute {@code path}, resolved from {@code root} without following any symbolic
     * link on the way or at the end (openat2(2) RESOLVE_NO_SYMLINKS with RESOLVE_BENEATH; O_NOFOLLOW with O_PATH
     * returns a final link itself).
     */
    static int openNoSymlinks(int root, String path) throws LastErrorException {
        String rel = path.equals("/") ? "." : path.substring(1);
        Memory how = new Memory(OPEN_HOW_SIZE);
        how.clear();
        how.setLong(0, LinuxAbi.O_PATH | LinuxAbi.O_NOFOLLOW | LinuxAbi.O_CLOEXEC);
        how.setLong(16, RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH);
        return (int) LibC.syscall(LinuxAbi.SYS_OPENAT2, root, rel, how, OPEN_HOW_SIZE);
    }

    /** Whether {@code fd} is the object of type {@code type} (S_IFMT bits) on device {@code dev} with inode {@code ino}. */
    static boolean sameObject(int fd, String path, int type, long dev, long ino) throws StageException {
        // struct statx (include/uapi/linux/stat.h): stx_mode u16 @28, stx_ino u64 @32, stx_attributes u64 @8,
        // stx_attributes_mask u64 @56, stx_dev_major u32 @136, stx_dev_minor u32 @140
        byte[] stx = new byte[256];
        statx(fd, path, stx);
        return (u16(stx, 28) & LinuxAbi.S_IFMT) == type && u64(stx, 32) == ino
                && makedev(u32(stx, 136), u32(stx, 140)) == dev;
    }

    /** {@link #openNoSymlinks}, then checks it is the object the host saw when it planned (type, device, inode). */
    private static int resolve(int root, PlanFile.Entry e) throws StageException {
        int fd;
        try {
            fd = openNoSymlinks(root, e.path());
        } catch (LastErrorException x) {
            String why = x.getErrorCode() == LinuxAbi.ELOOP
                    ? "a symbolic link is on the way (it was not there when ralon planned)"
                    : err(x);
            throw new StageException("cannot open " + e.path() + ": " + why + " (openat2)");
        }
        boolean same;
        try {
            same = sameObject(fd, e.path(), e.type(), e.dev(), e.ino());
        } catch (StageException x) {
            close(fd);
            throw x;
        }
        if (!same) {
            close(fd);
            throw new StageException(e.path() + " changed between the plan and the mount (type, device or inode"
                    + " differs); refusing to run");
        }
        return fd;
    }

    /** statx(fd, "", AT_EMPTY_PATH) into {@code stx}; returns stx_mask. */
    static long statx(int fd, String path, byte[] stx) throws StageException {
        try {
            LibC.statx(fd, "", LinuxAbi.AT_EMPTY_PATH, STATX_TYPE | STATX_INO, stx);
        } catch (LastErrorException x) {
            throw new StageException("cannot examine " + path + ": " + err(x) + " (statx)");
        }
        return u32(stx, 0);
    }

    /**
     * Clones the mount tree at {@code fd} (open_tree(2) OPEN_TREE_CLONE|AT_RECURSIVE: the mount and every mount
     * beneath it, which a non-recursive bind would hide and which the kernel refuses to hide anyway when they are
     * locked), makes the clone read-only for protected paths (mount_setattr(2) MOUNT_ATTR_RDONLY only adds
     * read-only: the nosuid/nodev/noexec/atime flags a locked mount carries are left alone, so no EPERM), and attaches
     * it onto the very object {@code fd} names (move_mount(2) with MOVE_MOUNT_T_EMPTY_PATH: no path is resolved
     * again, so nothing swapped in meanwhile can redirect the bind).
     */
    private static void bind(int fd, PlanFile.Entry e) throws StageException {
        int tree;
        try {
            tree = (int) LibC.syscall(LinuxAbi.SYS_OPEN_TREE, fd, "",
                    OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | LinuxAbi.AT_EMPTY_PATH | LinuxAbi.AT_RECURSIVE);
        } catch (LastErrorException x) {
            throw new StageException("cannot clone the mount at " + e.path() + ": " + err(x) + " (open_tree)");
        }
        try {
            if (e.op() == PlanFile.Op.READONLY) {
                Memory attr = new Memory(MOUNT_ATTR_SIZE_VER0);
                attr.clear();
                attr.setLong(0, MOUNT_ATTR_RDONLY);
                try {
                    LibC.syscall(LinuxAbi.SYS_MOUNT_SETATTR, tree, "", LinuxAbi.AT_EMPTY_PATH | LinuxAbi.AT_RECURSIVE,
                            attr, MOUNT_ATTR_SIZE_VER0);
                } catch (LastErrorException x) {
                    throw new StageException("cannot make the bind of " + e.path() + " read-only: " + err(x)
                            + " (mount_setattr)");
                }
            }
            try {
                LibC.syscall(LinuxAbi.SYS_MOVE_MOUNT, tree, "", fd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
            } catch (LastErrorException x) {
                throw new StageException("cannot bind " + e.path() + " onto itself: " + err(x) + " (move_mount)");
            }
        } finally {
            close(tree);
        }
    }

    /**
     * Confines the session's writes to {@code areas}: every mount of this namespace becomes read-only, the areas
     * excepted. In three steps, so that no path is looked up again between them:
     * <ol>
     *   <li>each area is opened without following a link and checked to be what the host listed (as a bind is), and
     *       its mount tree cloned (open_tree(2) OPEN_TREE_CLONE|AT_RECURSIVE: a detached copy with every mount
     *       beneath it, the read-only binds of protected paths inside it included, flags and all);</li>
     *   <li>every mount of the namespace is made read-only at once: mount_setattr(2) on {@code /} with AT_RECURSIVE
     *       and MOUNT_ATTR_RDONLY (only adds read-only, allowed on the locked mounts inherited from the host; EBUSY
     *       if a file is open for writing through one: fail closed). The detached clones are not in the tree, so
     *       they keep their flags;</li>
     *   <li>each clone is attached onto its area (move_mount(2) onto the descriptor of step 1).</li>
     * </ol>
     * Devices stay usable: opening a device file for writing does not need a writable mount (fs/open.c
     * do_dentry_open: {@code special_file()} skips mnt_get_write_access), so {@code /dev/null} and the terminal work.
     * The nested namespace the command runs in locks all of it (MNT_LOCK_READONLY: mount_namespaces(7)). Then each
     * area is checked writable and {@code /} read-only: proof, not hope.
     */
    static void confine(List<PlanFile.Entry> areas) throws StageException {
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
            throw new StageException("cannot make the confined mount namespace: " + err(x) + " (unshare)");
        }
        int root = openRoot();
        int[] targets = new int[areas.size()];
        int[] trees = new int[areas.size()];
        boolean[] wasReadOnly = new boolean[areas.size()];
        java.util.Arrays.fill(targets, -1);
        java.util.Arrays.fill(trees, -1);
        try {
            for (int i = 0; i < areas.size(); i++) {
                PlanFile.Entry e = areas.get(i);
                targets[i] = resolve(root, e);
                wasReadOnly[i] = readOnlyMount(targets[i], e.path()); // a protected path, a read-only file system
                try {
                    trees[i] = (int) LibC.syscall(LinuxAbi.SYS_OPEN_TREE, targets[i], "",
                            OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | LinuxAbi.AT_EMPTY_PATH | LinuxAbi.AT_RECURSIVE);
                } catch (LastErrorException x) {
                    throw new StageException("cannot clone the mount at the writable area " + e.path() + ": " + err(x)
                            + " (open_tree)");
                }
            }
            Memory attr = new Memory(MOUNT_ATTR_SIZE_VER0);
            attr.clear();
            attr.setLong(0, MOUNT_ATTR_RDONLY);
            // EBUSY would mean a file open for writing through one of this namespace's mounts (fs/namespace.c
            // mnt_hold_writers); the namespace is this thread's own, made above, and nothing has opened one since
            try {
                LibC.syscall(LinuxAbi.SYS_MOUNT_SETATTR, root, "", LinuxAbi.AT_EMPTY_PATH | LinuxAbi.AT_RECURSIVE,
                        attr, MOUNT_ATTR_SIZE_VER0);
            } catch (LastErrorException x) {
                throw new StageException("cannot make the file system read-only outside the writable areas: " + err(x)
                        + " (mount_setattr)");
            }
            for (int i = 0; i < areas.size(); i++) {
                try {
                    LibC.syscall(LinuxAbi.SYS_MOVE_MOUNT, trees[i], "", targets[i], "",
                            MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
                } catch (LastErrorException x) {
                    throw new StageException("cannot put the writable area " + areas.get(i).path() + " back: " + err(x)
                            + " (move_mount)");
                }
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
            close(root);
        }
        int again = openRoot();
        try {
            if (!readOnlyMount(again, "/")) {
                throw new StageException("after the confinement, / is still writable (fstatfs)");
            }
            for (int i = 0; i < areas.size(); i++) {
                PlanFile.Entry e = areas.get(i);
                int fd = resolve(again, e);
                try {
                    if (readOnlyMount(fd, e.path()) != wasReadOnly[i]) {
                        throw new StageException("after the confinement, the writable area " + e.path()
                                + " is read-only (fstatfs), and was not before");
                    }
                } finally {
                    close(fd);
                }
            }
        } finally {
            close(again);
        }
    }

    /** close(2) of a descriptor the stage owns (O_PATH or read-only): nothing can be lost, a failure is ignored. */
    static void close(int fd) {
        LibC.close(fd);
    }

    /** The error text in the stage's messages (lower case: it follows a colon mid-sentence). */
    static String err(LastErrorException e) {
        String t = Errno.text(e);
        return t.isEmpty() ? t : Character.toLowerCase(t.charAt(0)) + t.substring(1);
    }

    /** glibc's makedev(3), so a statx major/minor pair compares with the st_dev Java reports. */
    static long makedev(long major, long minor) {
        return ((major & 0xfffff000L) << 32) | ((major & 0xfffL) << 8) | ((minor & 0xffffff00L) << 12) | (minor & 0xffL);
    }

    // Kernel structures are in the machine's byte order.
    static int u16(byte[] b, int off) {
        return ByteBuffer.wrap(b).order(ByteOrder.nativeOrder()).getShort(off) & 0xffff;
    }

    static long u32(byte[] b, int off) {
        return ByteBuffer.wrap(b).order(ByteOrder.nativeOrder()).getInt(off) & 0xffffffffL;
    }

    static long u64(byte[] b, int off) {
        return ByteBuffer.wrap(b).order(ByteOrder.nativeOrder()).getLong(off);
    }
}
