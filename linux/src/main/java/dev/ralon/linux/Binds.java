package dev.ralon.linux;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Binds of existing paths onto themselves, in the calling thread's mount namespace: read-only for protected paths,
 * writable for the directories on the way to them (a mount point cannot be renamed or removed). Used by the mount
 * backend's stage and by the landlock backend's contained route, each as root of the user namespace that owns the
 * mount namespace (CAP_SYS_ADMIN there: mount_namespaces(7)). Each path is resolved without following a symbolic
 * link, checked to be the object seen when the plan was made, and bound through its descriptor, so nothing swapped in
 * meanwhile can redirect a bind; afterwards each bind is checked in place: proof, not hope.
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("the backends' read-only binds")
public final class Binds {
    // include/uapi/linux/openat2.h, openat2(2)
    static final long RESOLVE_NO_SYMLINKS = 0x04; // no symlink anywhere on the path (implies NO_MAGICLINKS)
    static final long RESOLVE_BENEATH = 0x08;     // the result must lie beneath the starting directory
    static final long OPEN_HOW_SIZE = 24;         // struct open_how { u64 flags; u64 mode; u64 resolve; }
    // include/uapi/linux/mount.h
    /** open_tree(2): a detached copy of the mount (tree). */
    public static final int OPEN_TREE_CLONE = 1;
    public static final int MOVE_MOUNT_F_EMPTY_PATH = 0x04;
    public static final int MOVE_MOUNT_T_EMPTY_PATH = 0x40;
    public static final long MOUNT_ATTR_RDONLY = 0x01;
    /** struct mount_attr { u64 attr_set, attr_clr, propagation, userns_fd; }. */
    public static final long MOUNT_ATTR_SIZE_VER0 = 32;
    // statx(2), include/uapi/linux/stat.h
    public static final int STATX_TYPE = 0x1;
    public static final int STATX_INO = 0x100;
    static final long STATX_ATTR_MOUNT_ROOT = 0x2000; // Linux 5.8: the path is the root of a mount
    static final long ST_RDONLY = 1;                  // statfs(2) f_flags: mounted read-only

    /**
     * One bind to make: {@code path} (absolute, normalized) onto itself, read-only or not, with what was seen at the
     * path when the plan was made (type as in {@code S_IFMT}, device, inode).
     *
     * @since 0.1.0
     */
    @dev.ralon.enforcer.spi.Internal("the backends' read-only binds")
    public record Entry(String path, boolean readOnly, int type, long dev, long ino) {
    }

    /** Parents before children (fewer names first), then by name: the order binds are made in. */
    public static final java.util.Comparator<Path> TOP_DOWN = java.util.Comparator.comparingInt(Path::getNameCount)
            .thenComparing(java.util.Comparator.naturalOrder());

    private Binds() {
    }

    /**
     * Every directory on the way from {@code /} (exclusive) to each of {@code paths} (their ancestors), parents first:
     * the directories bound onto themselves, writable, before the protected paths beneath them, so that none of them
     * can be renamed or removed (a mount point: EBUSY).
     */
    public static java.util.SortedSet<Path> waysTo(java.util.Collection<Path> paths) {
        java.util.TreeSet<Path> way = new java.util.TreeSet<>(TOP_DOWN);
        for (Path p : paths) {
            for (Path a = p.getParent(); a != null && a.getParent() != null; a = a.getParent()) {
                way.add(a);
            }
        }
        return way;
    }

    /**
     * The entry for {@code path} as it is now, without following a final symbolic link.
     *
     * @throws IOException when it cannot be examined (absent, unreadable)
     */
    public static Entry examine(Path path, boolean readOnly) throws IOException {
        Map<String, Object> a;
        try {
            a = Files.readAttributes(path, "unix:mode,dev,ino", LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException e) {
            throw new IOException("no unix attributes on this file system", e);
        }
        return new Entry(path.toString(), readOnly, ((Integer) a.get("mode")) & LinuxAbi.S_IFMT, (Long) a.get("dev"),
                (Long) a.get("ino"));
    }

    /** Binds every entry, in the given order (ways before the protected paths beneath them), then checks each. */
    public static void bindAll(List<Entry> entries) throws ExecException {
        int root = openRoot();
        try {
            for (Entry e : entries) {
                int fd = resolve(root, e);
                try {
                    bind(fd, e);
                } finally {
                    LibC.close(fd);
                }
            }
        } finally {
            LibC.close(root);
        }
        verifyAll(entries);
    }

    /** Every path must now lead to the root of a mount, read-only for the read-only entries. */
    public static void verifyAll(List<Entry> entries) throws ExecException {
        int root = openRoot();
        try {
            byte[] stx = new byte[256];
            for (Entry e : entries) {
                int fd = resolve(root, e);
                try {
                    long mask = statx(fd, e.path(), stx);
                    long attributes = u64(stx, 8);
                    long attributesMask = u64(stx, 56);
                    if ((attributesMask & STATX_ATTR_MOUNT_ROOT) != 0 && (attributes & STATX_ATTR_MOUNT_ROOT) == 0) {
                        throw new ExecException("after the bind, " + e.path() + " is not a mount point (statx)");
                    }
                    if (e.readOnly() && !readOnlyMount(fd, e.path())) {
                        throw new ExecException("after the bind, " + e.path() + " is still writable (fstatfs)");
                    }
                    if (mask == 0) {
                        throw new ExecException("cannot check " + e.path() + " (statx returned no fields)");
                    }
                } finally {
                    LibC.close(fd);
                }
            }
        } finally {
            LibC.close(root);
        }
    }

    /** Whether the mount {@code fd} lies on is read-only (fstatfs(2) f_flags ST_RDONLY). */
    public static boolean readOnlyMount(int fd, String name) throws ExecException {
        byte[] sfs = new byte[120];
        try {
            LibC.fstatfs(fd, sfs);
        } catch (LastErrorException x) {
            throw new ExecException("cannot examine the mount of " + name + ": " + err(x) + " (fstatfs)");
        }
        return (u64(sfs, 80) & ST_RDONLY) != 0; // struct statfs on 64-bit Linux: f_flags is the 11th 8-byte word
    }

    /** An O_PATH descriptor of {@code /}. */
    public static int openRoot() throws ExecException {
        try {
            return LibC.open("/", LinuxAbi.O_PATH | LinuxAbi.O_DIRECTORY | LinuxAbi.O_CLOEXEC);
        } catch (LastErrorException e) {
            throw new ExecException("cannot open / : " + err(e) + " (open)");
        }
    }

    /**
     * An O_PATH descriptor of the absolute {@code path}, resolved from {@code root} without following any symbolic
     * link on the way or at the end (openat2(2) RESOLVE_NO_SYMLINKS with RESOLVE_BENEATH; O_NOFOLLOW with O_PATH
     * returns a final link itself).
     */
    public static int openNoSymlinks(int root, String path) throws LastErrorException {
        String rel = path.equals("/") ? "." : path.substring(1);
        Memory how = new Memory(OPEN_HOW_SIZE);
        how.clear();
        how.setLong(0, LinuxAbi.O_PATH | LinuxAbi.O_NOFOLLOW | LinuxAbi.O_CLOEXEC);
        how.setLong(16, RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH);
        return (int) LibC.syscall(LinuxAbi.SYS_OPENAT2, root, rel, how, OPEN_HOW_SIZE);
    }

    /** Whether {@code fd} is the object of type {@code type} (S_IFMT bits) on device {@code dev} with inode {@code ino}. */
    public static boolean sameObject(int fd, String path, int type, long dev, long ino) throws ExecException {
        // struct statx (include/uapi/linux/stat.h): stx_mode u16 @28, stx_ino u64 @32, stx_attributes u64 @8,
        // stx_attributes_mask u64 @56, stx_dev_major u32 @136, stx_dev_minor u32 @140
        byte[] stx = new byte[256];
        statx(fd, path, stx);
        return (u16(stx, 28) & LinuxAbi.S_IFMT) == type && u64(stx, 32) == ino
                && makedev(u32(stx, 136), u32(stx, 140)) == dev;
    }

    /**
     * {@link #openNoSymlinks}, then checks it is the object seen when the plan was made (type, device, inode).
     */
    public static int resolve(int root, Entry e) throws ExecException {
        int fd;
        try {
            fd = openNoSymlinks(root, e.path());
        } catch (LastErrorException x) {
            String why = x.getErrorCode() == LinuxAbi.ELOOP
                    ? "a symbolic link is on the way (it was not there when ralon planned)"
                    : err(x);
            throw new ExecException("cannot open " + e.path() + ": " + why + " (openat2)");
        }
        boolean same;
        try {
            same = sameObject(fd, e.path(), e.type(), e.dev(), e.ino());
        } catch (ExecException x) {
            LibC.close(fd);
            throw x;
        }
        if (!same) {
            LibC.close(fd);
            throw new ExecException(e.path() + " changed between the plan and the mount (type, device or inode"
                    + " differs); refusing to run");
        }
        return fd;
    }

    /** statx(fd, "", AT_EMPTY_PATH) into {@code stx}; returns stx_mask. */
    public static long statx(int fd, String path, byte[] stx) throws ExecException {
        try {
            LibC.statx(fd, "", LinuxAbi.AT_EMPTY_PATH, STATX_TYPE | STATX_INO, stx);
        } catch (LastErrorException x) {
            throw new ExecException("cannot examine " + path + ": " + err(x) + " (statx)");
        }
        return u32(stx, 0);
    }

    /**
     * Clones the mount tree at {@code fd} (open_tree(2) OPEN_TREE_CLONE|AT_RECURSIVE: the mount and every mount
     * beneath it, which a non-recursive bind would hide and which the kernel refuses to hide anyway when they are
     * locked), makes the clone read-only for read-only entries (mount_setattr(2) MOUNT_ATTR_RDONLY only adds
     * read-only: the nosuid/nodev/noexec/atime flags a locked mount carries are left alone, so no EPERM), and attaches
     * it onto the very object {@code fd} names (move_mount(2) with MOVE_MOUNT_T_EMPTY_PATH: no path is resolved
     * again, so nothing swapped in meanwhile can redirect the bind).
     */
    private static void bind(int fd, Entry e) throws ExecException {
        int tree;
        try {
            tree = (int) LibC.syscall(LinuxAbi.SYS_OPEN_TREE, fd, "",
                    OPEN_TREE_CLONE | LinuxAbi.O_CLOEXEC | LinuxAbi.AT_EMPTY_PATH | LinuxAbi.AT_RECURSIVE);
        } catch (LastErrorException x) {
            throw new ExecException("cannot clone the mount at " + e.path() + ": " + err(x) + " (open_tree)");
        }
        try {
            if (e.readOnly()) {
                try {
                    makeReadOnly(tree);
                } catch (LastErrorException x) {
                    throw new ExecException("cannot make the bind of " + e.path() + " read-only: " + err(x)
                            + " (mount_setattr)");
                }
            }
            try {
                LibC.syscall(LinuxAbi.SYS_MOVE_MOUNT, tree, "", fd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
            } catch (LastErrorException x) {
                throw new ExecException("cannot bind " + e.path() + " onto itself: " + err(x) + " (move_mount)");
            }
        } finally {
            LibC.close(tree);
        }
    }

    /**
     * mount_setattr(2) on the mount (tree) {@code fd}, AT_RECURSIVE, MOUNT_ATTR_RDONLY: only adds read-only, so the
     * nosuid/nodev/noexec/atime flags a locked mount carries are left alone (no EPERM).
     */
    public static void makeReadOnly(int fd) throws LastErrorException {
        Memory attr = new Memory(MOUNT_ATTR_SIZE_VER0);
        attr.clear();
        attr.setLong(0, MOUNT_ATTR_RDONLY);
        LibC.syscall(LinuxAbi.SYS_MOUNT_SETATTR, fd, "", LinuxAbi.AT_EMPTY_PATH | LinuxAbi.AT_RECURSIVE, attr,
                MOUNT_ATTR_SIZE_VER0);
    }

    /** The error text in messages (lower case: it follows a colon mid-sentence). */
    public static String err(LastErrorException e) {
        String t = Errno.text(e);
        return t.isEmpty() ? t : Character.toLowerCase(t.charAt(0)) + t.substring(1);
    }

    /** glibc's makedev(3), so a statx major/minor pair compares with the st_dev Java reports. */
    public static long makedev(long major, long minor) {
        return ((major & 0xfffff000L) << 32) | ((major & 0xfffL) << 8) | ((minor & 0xffffff00L) << 12) | (minor & 0xffL);
    }

    // Kernel structures are in the machine's byte order.
    public static int u16(byte[] b, int off) {
        return ByteBuffer.wrap(b).order(ByteOrder.nativeOrder()).getShort(off) & 0xffff;
    }

    public static long u32(byte[] b, int off) {
        return ByteBuffer.wrap(b).order(ByteOrder.nativeOrder()).getInt(off) & 0xffffffffL;
    }

    public static long u64(byte[] b, int off) {
        return ByteBuffer.wrap(b).order(ByteOrder.nativeOrder()).getLong(off);
    }
}
