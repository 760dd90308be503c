package dev.ralon.enforcer.mount;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import dev.ralon.enforcer.spi.exec.Exec;
import dev.ralon.enforcer.spi.exec.ExecException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The second link of the mount backend's exec chain: a small JVM main that runs as root of user namespace 1 (created
 * by {@code unshare --user --map-root-user --mount --propagation private}), makes every bind mount of the plan, then
 * execs {@code unshare --user --mount --map-user=UID --map-group=GID -- CMD} so that the command runs in a second
 * user and mount namespace in which every mount made here is locked.
 *
 * <p>Usage (built by {@link MountEnforcer#prepare}, never by hand):
 * {@code MountStage PLAN_FILE SHA256 -- EXECUTABLE ARG1 ...}. The plan file is read, deleted, and checked against the
 * SHA-256 given in argv (argv cannot be changed by another process once exec'd, so a plan file swapped or edited
 * between the two stages is detected). Any failure prints one line and exits {@value #EXIT_SETUP_FAILED} without
 * starting the command: fail closed.
 *
 * <p>Kept deliberately small (this class, its nested types, {@link Exec}, JNA): it is on every run's startup path.
 */
public final class MountStage {
    /** Exit status when the sandbox could not be set up; the command was not started. */
    public static final int EXIT_SETUP_FAILED = 2;
    /** First line of a plan file, naming its format version. */
    static final String MAGIC = "RALON-MOUNT-PLAN-1";
    /** Environment variables that would change the stage JVM are renamed with this prefix, then restored for CMD. */
    static final String STASH_PREFIX = "RALON_STASHED_";
    /**
     * Environment variables a {@code java} launcher reads: they must not reach the stage JVM, only the command. LC_ALL
     * is among them: the stage JVM runs under {@link #STAGE_LC_ALL} (it decodes the command's arguments and encodes
     * the paths it mounts with the locale's file-name encoding, ASCII under C or no locale), the command gets the
     * user's LC_ALL back, set or unset.
     */
    static final List<String> JVM_ENV = List.of("JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "LC_ALL");
    /** The stage JVM's LC_ALL: file names and arguments as UTF-8, as the ralon launcher does for the first JVM. */
    static final String STAGE_LC_ALL = "C.UTF-8";

    /** A bind of the plan: a directory on the way (stays writable) or a protected path (read-only). */
    enum Op {
        /** Directory on the way, bound onto itself, recursive, writable: it becomes a mount point (not renamable). */
        WAY('W'),
        /** Protected path bound onto itself, recursive, then made read-only with mount_setattr. */
        READONLY('R');

        final char code;

        Op(char code) {
            this.code = code;
        }

        static Op of(String s) {
            for (Op op : values()) {
                if (s.length() == 1 && s.charAt(0) == op.code) {
                    return op;
                }
            }
            throw new IllegalArgumentException("unknown plan operation '" + s + "'");
        }
    }

    /** File types as in {@code S_IFMT} of {@code <sys/stat.h>}. */
    static final int S_IFMT = 0170000;
    static final int S_IFDIR = 0040000;
    static final int S_IFLNK = 0120000;
    static final int S_IFREG = 0100000;

    /**
     * One mount to make, with what the host saw at the path when it planned (type, device, inode), so that anything
     * swapped in between the plan and the mount is detected.
     */
    record Entry(Op op, String path, int type, long dev, long ino) {
    }

    /** What the stage needs besides the command line. */
    record StagePlan(int uid, int gid, String cwd, String unshare, List<Entry> entries) {
    }

    // ---------------------------------------------------------------- plan file encoding (NUL-separated fields)

    static byte[] encode(StagePlan plan) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + plan.entries().size() * 96);
        field(out, MAGIC);
        field(out, Integer.toString(plan.uid()));
        field(out, Integer.toString(plan.gid()));
        field(out, plan.cwd());
        field(out, plan.unshare());
        field(out, Integer.toString(plan.entries().size()));
        for (Entry e : plan.entries()) {
            field(out, String.valueOf(e.op().code));
            field(out, e.path());
            field(out, Integer.toString(e.type()));
            field(out, Long.toString(e.dev()));
            field(out, Long.toString(e.ino()));
        }
        return out.toByteArray();
    }

    private static void field(ByteArrayOutputStream out, String s) {
        if (s.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a path or value holds a NUL byte: " + s.replace('\0', '?'));
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
        out.write(0);
    }

    static StagePlan decode(byte[] bytes) {
        List<String> f = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                f.add(new String(bytes, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (start != bytes.length || f.size() < 6 || !f.get(0).equals(MAGIC)) {
            throw new IllegalArgumentException("the plan file is not a " + MAGIC + " file");
        }
        int n = Integer.parseInt(f.get(5));
        if (f.size() != 6 + 5 * n) {
            throw new IllegalArgumentException("the plan file announces " + n + " mounts but holds " + (f.size() - 6) / 5);
        }
        List<Entry> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int b = 6 + 5 * i;
            entries.add(new Entry(Op.of(f.get(b)), f.get(b + 1), Integer.parseInt(f.get(b + 2)),
                    Long.parseLong(f.get(b + 3)), Long.parseLong(f.get(b + 4))));
        }
        return new StagePlan(Integer.parseInt(f.get(1)), Integer.parseInt(f.get(2)), f.get(3), f.get(4), entries);
    }

    /** Lower-case hex SHA-256 ({@link Sha256}: no JCA initialisation on the stage's start). */
    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(Sha256.digest(bytes));
    }

    // ---------------------------------------------------------------- native interface

    /**
     * libc through JNA direct mapping (Native.register: one JNI stub per method, no proxy or reflection per call;
     * measured about 10 times faster than an interface mapping, which matters with 10,000 paths). The new mount API
     * has no glibc wrappers before 2.36: it goes through syscall(2), whose assembly entry takes its arguments from the
     * registers, so fixed signatures per call are safe; int arguments are declared int by the kernel too.
     */
    static final class LibC {
        static {
            Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
        }

        private LibC() {
        }

        /** openat2(dirfd, path, how, size). */
        static native long syscall(long number, int dirfd, String path, Pointer how, long size) throws LastErrorException;

        /** open_tree(dirfd, path, flags). */
        static native long syscall(long number, int dirfd, String path, int flags) throws LastErrorException;

        /** mount_setattr(dirfd, path, flags, attr, size). */
        static native long syscall(long number, int dirfd, String path, int flags, Pointer attr, long size)
                throws LastErrorException;

        /** move_mount(from_dirfd, from_path, to_dirfd, to_path, flags). */
        static native long syscall(long number, int fromDirfd, String fromPath, int toDirfd, String toPath, int flags)
                throws LastErrorException;

        static native int open(String path, int flags) throws LastErrorException;

        static native int close(int fd) throws LastErrorException;

        static native int chdir(String path) throws LastErrorException;

        static native int statx(int dirfd, String path, int flags, int mask, byte[] buf) throws LastErrorException;

        static native int fstatfs(int fd, byte[] buf) throws LastErrorException;

        static native int fcntl(int fd, int cmd, int arg) throws LastErrorException;

        static native int dup3(int oldfd, int newfd, int flags) throws LastErrorException;

        static native long lseek(int fd, long offset, int whence) throws LastErrorException;

        static native String strerror(int errnum);
    }

    // Syscall numbers: the same on x86_64 and aarch64, which share the unified table for syscalls added after 5.0
    // (arch/x86/entry/syscalls/syscall_64.tbl and include/uapi/asm-generic/unistd.h).
    static final long SYS_OPEN_TREE = 428;      // open_tree(2), Linux 5.2
    static final long SYS_MOVE_MOUNT = 429;     // move_mount(2), Linux 5.2
    static final long SYS_OPENAT2 = 437;        // openat2(2), Linux 5.6
    static final long SYS_MOUNT_SETATTR = 442;  // mount_setattr(2), Linux 5.12

    // include/uapi/linux/fcntl.h and asm-generic/fcntl.h: O_PATH and O_CLOEXEC are the same on both architectures,
    // O_NOFOLLOW is not (x86_64 0400000, asm-generic as used by aarch64 0100000).
    static final int O_PATH = 010000000;
    static final int O_CLOEXEC = 02000000;
    static final int O_NOFOLLOW = "aarch64".equals(System.getProperty("os.arch")) ? 0100000 : 0400000;
    static final int O_DIRECTORY = "aarch64".equals(System.getProperty("os.arch")) ? 040000 : 0200000;
    static final int AT_EMPTY_PATH = 0x1000;     // include/uapi/linux/fcntl.h
    static final int AT_RECURSIVE = 0x8000;      // include/uapi/linux/fcntl.h: apply to the whole subtree
    // include/uapi/linux/openat2.h, openat2(2)
    static final long RESOLVE_NO_SYMLINKS = 0x04; // no symlink anywhere on the path (implies NO_MAGICLINKS)
    static final long RESOLVE_BENEATH = 0x08;     // the result must lie beneath the starting directory
    static final long OPEN_HOW_SIZE = 24;         // struct open_how { u64 flags; u64 mode; u64 resolve; }
    // include/uapi/linux/mount.h
    static final int OPEN_TREE_CLONE = 1;         // open_tree(2): detached copy of the mount (tree)
    static final int OPEN_TREE_CLOEXEC = O_CLOEXEC;
    static final int MOVE_MOUNT_F_EMPTY_PATH = 0x04;
    static final int MOVE_MOUNT_T_EMPTY_PATH = 0x40;
    static final long MOUNT_ATTR_RDONLY = 0x01;
    static final long MOUNT_ATTR_SIZE_VER0 = 32;  // struct mount_attr { u64 attr_set, attr_clr, propagation, userns_fd; }
    // statx(2)
    static final int STATX_TYPE = 0x1;
    static final int STATX_INO = 0x100;
    static final long STATX_ATTR_MOUNT_ROOT = 0x2000; // Linux 5.8: the path is the root of a mount
    static final long ST_RDONLY = 1;                  // statfs(2) f_flags: mounted read-only

    /** A system call failed: the message is one line naming the path and the call. */
    static final class StageException extends Exception {
        private static final long serialVersionUID = 1L;

        StageException(String message) {
            super(message);
        }
    }

    private MountStage() {
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (StageException | ExecException | RuntimeException e) {
            System.err.println("ralon: mount backend: " + e.getMessage());
            System.err.flush();
            System.exit(EXIT_SETUP_FAILED);
        }
    }

    private static void run(String[] args) throws StageException, ExecException {
        int sep = Arrays.asList(args).indexOf("--");
        if (args.length < 4 || sep != 2) {
            throw new StageException("usage: MountStage PLAN_FILE SHA256 -- EXECUTABLE [ARG...]");
        }
        Path planFile = Path.of(args[0]);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(planFile);
        } catch (IOException e) {
            throw new StageException("cannot read the plan file " + planFile + ": " + e.getMessage());
        } finally {
            try {
                Files.deleteIfExists(planFile);
            } catch (IOException e) {
                // reported below only if the content is wrong; a stale temp file is harmless
            }
        }
        if (!sha256(bytes).equals(args[1])) {
            throw new StageException("the plan file " + planFile + " was changed after ralon wrote it; refusing to run");
        }
        StagePlan plan = decode(bytes);
        MountStage stage = new MountStage();
        stage.mountAll(plan.entries());
        stage.verifyAll(plan.entries());
        // The working directory was resolved before the binds: it still names the old (unprotected) mounts. Resolve
        // it again so relative paths go through the new mounts (path_resolution(7): lookups start at the cwd's
        // mount and dentry).
        try {
            LibC.chdir(plan.cwd());
        } catch (LastErrorException e) {
            throw new StageException("cannot change directory to " + plan.cwd() + ": " + stage.err(e) + " (chdir)");
        }
        // Descriptors 0-2 opened before the namespaces exist still lead to the host's mounts: reopen or refuse them.
        new StandardDescriptors(stage).secure();
        List<String> argv = new ArrayList<>();
        argv.add(plan.unshare());
        argv.add("--user");
        argv.add("--mount");
        argv.add("--map-user=" + Integer.toUnsignedString(plan.uid()));
        argv.add("--map-group=" + Integer.toUnsignedString(plan.gid()));
        argv.add("--");
        argv.addAll(Arrays.asList(args).subList(3, args.length));
        Exec.replaceProcess(Path.of(plan.unshare()), argv, commandEnvironment(System.getenv()));
    }

    /** The environment for the command: the stage's own, with the stashed JVM variables put back. */
    static Map<String, String> commandEnvironment(Map<String, String> stageEnv) {
        Map<String, String> env = new HashMap<>(stageEnv);
        for (String name : JVM_ENV) {
            env.remove(name);
            String v = env.remove(STASH_PREFIX + name);
            if (v != null) {
                env.put(name, v);
            }
        }
        return env;
    }

    private void mountAll(List<Entry> entries) throws StageException {
        int root = openRoot();
        try {
            for (Entry e : entries) {
                int fd = resolve(root, e);
                try {
                    bind(fd, e);
                } finally {
                    closeQuietly(fd);
                }
            }
        } finally {
            closeQuietly(root);
        }
    }

    /** Every path must now lead to the root of a mount, read-only for protected paths: proof, not hope. */
    private void verifyAll(List<Entry> entries) throws StageException {
        int root = openRoot();
        try {
            byte[] stx = new byte[256];
            byte[] sfs = new byte[120];
            for (Entry e : entries) {
                int fd = resolve(root, e);
                try {
                    long mask = statx(fd, e.path(), stx);
                    long attributes = u64(stx, 8);
                    long attributesMask = u64(stx, 56);
                    if ((attributesMask & STATX_ATTR_MOUNT_ROOT) != 0 && (attributes & STATX_ATTR_MOUNT_ROOT) == 0) {
                        throw new StageException("after the bind, " + e.path() + " is not a mount point (statx)");
                    }
                    if (e.op() == Op.READONLY) {
                        try {
                            LibC.fstatfs(fd, sfs);
                        } catch (LastErrorException x) {
                            throw new StageException("cannot check " + e.path() + ": " + err(x) + " (fstatfs)");
                        }
                        // struct statfs on 64-bit Linux: f_flags is the 11th 8-byte word (offset 80)
                        if ((u64(sfs, 80) & ST_RDONLY) == 0) {
                            throw new StageException("after the bind, " + e.path() + " is still writable (fstatfs)");
                        }
                    }
                    if (mask == 0) {
                        throw new StageException("cannot check " + e.path() + " (statx returned no fields)");
                    }
                } finally {
                    closeQuietly(fd);
                }
            }
        } finally {
            closeQuietly(root);
        }
    }

    private int openRoot() throws StageException {
        try {
            return LibC.open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        } catch (LastErrorException e) {
            throw new StageException("cannot open / : " + err(e) + " (open)");
        }
    }

    /**
     * Opens {@code e.path()} as an O_PATH descriptor without following any symbolic link on the way or at the end
     * (openat2(2) RESOLVE_NO_SYMLINKS from the root with RESOLVE_BENEATH; O_NOFOLLOW with O_PATH returns the link
     * itself), then checks it is the object the host saw when it planned (type, device, inode).
     */
    private int resolve(int root, Entry e) throws StageException {
        String rel = e.path().equals("/") ? "." : e.path().substring(1);
        Memory how = new Memory(OPEN_HOW_SIZE);
        how.clear();
        how.setLong(0, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        how.setLong(16, RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH);
        int fd;
        try {
            fd = (int) LibC.syscall(SYS_OPENAT2, root, rel, how, OPEN_HOW_SIZE);
        } catch (LastErrorException x) {
            String why = x.getErrorCode() == 40 /* ELOOP */
                    ? "a symbolic link is on the way (it was not there when ralon planned)"
                    : err(x);
            throw new StageException("cannot open " + e.path() + ": " + why + " (openat2)");
        }
        // struct statx (include/uapi/linux/stat.h): stx_mode u16 @28, stx_ino u64 @32, stx_attributes u64 @8,
        // stx_attributes_mask u64 @56, stx_dev_major u32 @136, stx_dev_minor u32 @140
        byte[] stx = new byte[256];
        statx(fd, e.path(), stx);
        int type = u16(stx, 28) & S_IFMT;
        long ino = u64(stx, 32);
        long dev = makedev(u32(stx, 136), u32(stx, 140));
        if (type != e.type() || ino != e.ino() || dev != e.dev()) {
            closeQuietly(fd);
            throw new StageException(e.path() + " changed between the plan and the mount (type, device or inode"
                    + " differs); refusing to run");
        }
        return fd;
    }

    private long statx(int fd, String path, byte[] stx) throws StageException {
        try {
            LibC.statx(fd, "", AT_EMPTY_PATH, STATX_TYPE | STATX_INO, stx);
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
    private void bind(int fd, Entry e) throws StageException {
        int tree;
        try {
            tree = (int) LibC.syscall(SYS_OPEN_TREE, fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE);
        } catch (LastErrorException x) {
            throw new StageException("cannot clone the mount at " + e.path() + ": " + err(x) + " (open_tree)");
        }
        try {
            if (e.op() == Op.READONLY) {
                Memory attr = new Memory(MOUNT_ATTR_SIZE_VER0);
                attr.clear();
                attr.setLong(0, MOUNT_ATTR_RDONLY);
                try {
                    LibC.syscall(SYS_MOUNT_SETATTR, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, attr, MOUNT_ATTR_SIZE_VER0);
                } catch (LastErrorException x) {
                    throw new StageException("cannot make the bind of " + e.path() + " read-only: " + err(x)
                            + " (mount_setattr)");
                }
            }
            try {
                LibC.syscall(SYS_MOVE_MOUNT, tree, "", fd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
            } catch (LastErrorException x) {
                throw new StageException("cannot bind " + e.path() + " onto itself: " + err(x) + " (move_mount)");
            }
        } finally {
            closeQuietly(tree);
        }
    }

    private void closeQuietly(int fd) {
        try {
            LibC.close(fd);
        } catch (LastErrorException ignored) {
            // close(2) of an O_PATH fd we own cannot lose data
        }
    }

    String err(LastErrorException e) {
        String text;
        try {
            text = LibC.strerror(e.getErrorCode());
        } catch (RuntimeException x) {
            text = null;
        }
        return (text == null ? "error" : text.toLowerCase(Locale.ROOT)) + " (errno " + e.getErrorCode() + ")";
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
