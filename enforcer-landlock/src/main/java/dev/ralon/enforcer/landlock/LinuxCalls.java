package dev.ralon.enforcer.landlock;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import dev.ralon.linux.LibC;
import dev.ralon.linux.LinuxAbi;

import java.nio.charset.Charset;

/**
 * The Landlock backend's helpers over the shared native layer ({@link LibC}, {@link LinuxAbi}): open flags it
 * combines, statx decoding, file-name bytes and the Landlock structures. The {@link LibC} calls it uses return the raw
 * result; callers check it and read {@link #errno()} right after a failure (JNA keeps errno per thread after every
 * native call).
 *
 * <p>Landlock has no glibc wrapper: it is reached with {@code syscall(2)} and the numbers in {@link LinuxAbi}.
 * Structures and constants come from {@code include/uapi/linux/landlock.h}.
 */
final class LinuxCalls {
    /** landlock.h: flag of landlock_create_ruleset asking for the highest ABI version the kernel supports. */
    static final long LANDLOCK_CREATE_RULESET_VERSION = 1L;
    /** landlock.h: enum landlock_rule_type. */
    static final long LANDLOCK_RULE_PATH_BENEATH = 1L;

    /**
     * include/uapi/linux/capability.h: CAP_MKNOD 27, CAP_SYS_MODULE 16, CAP_SYS_RAWIO 17, CAP_SYS_ADMIN 21,
     * CAP_SYS_BOOT 22, CAP_PERFMON 38, CAP_BPF 39 (see LandlockEnforcer: dropped for a root invoker).
     */
    static final int[] KERNEL_CAPABILITIES = {16, 17, 21, 22, 27, 38, 39};

    /** Open a name itself, never what a symbolic link points to, without read or write access. */
    static final int OPEN_NAME = LinuxAbi.O_PATH | LinuxAbi.O_NOFOLLOW | LinuxAbi.O_CLOEXEC;
    /** Open a directory on the way: must be a real directory, not a link to one. */
    static final int OPEN_DIR = LinuxAbi.O_PATH | LinuxAbi.O_NOFOLLOW | LinuxAbi.O_DIRECTORY | LinuxAbi.O_CLOEXEC;
    /** Open / itself. */
    static final int OPEN_ROOT = LinuxAbi.O_PATH | LinuxAbi.O_DIRECTORY | LinuxAbi.O_CLOEXEC;
    /** Open a directory for listing. */
    static final int OPEN_LIST = LinuxAbi.O_RDONLY | LinuxAbi.O_DIRECTORY | LinuxAbi.O_CLOEXEC;
    /** linux/stat.h: STATX_TYPE | STATX_MODE | STATX_NLINK | STATX_INO. */
    static final int STATX_WANTED = 0x1 | 0x2 | 0x4 | 0x100;
    /** linux/stat.h: sizeof(struct statx). */
    static final int STATX_SIZE = 256;

    private LinuxCalls() {
    }

    static int errno() {
        return Native.getLastError();
    }

    /**
     * The JVM's file-name charset: {@code sun.jnu.encoding}, which the JDK reads once at start (from LC_ALL, LC_CTYPE
     * and LANG) and decodes every file name with; so it is looked up once here too, not for every name (a plan encodes
     * or decodes one per sibling).
     */
    private static final Charset FILE_NAMES = fileNameCharsetOfThisJvm();

    /** Bytes of a file name as the kernel sees it, NUL-terminated for C. */
    static byte[] cString(String s) {
        byte[] b = s.getBytes(FILE_NAMES);
        byte[] z = new byte[b.length + 1];
        System.arraycopy(b, 0, z, 0, b.length);
        return z;
    }

    static Charset fileNameCharset() {
        return FILE_NAMES;
    }

    private static Charset fileNameCharsetOfThisJvm() {
        // The JDK decodes file names with sun.jnu.encoding; encode them back the same way.
        String enc = System.getProperty("sun.jnu.encoding");
        try {
            return enc == null ? Charset.defaultCharset() : Charset.forName(enc);
        } catch (RuntimeException e) {
            return Charset.defaultCharset();
        }
    }

    /** One file as statx(2) reported it (not following a final symbolic link: the fd itself). */
    record Stat(long dev, long ino, int mode, int nlink) {
        boolean isDirectory() {
            return (mode & LinuxAbi.S_IFMT) == LinuxAbi.S_IFDIR;
        }

        boolean isRegular() {
            return (mode & LinuxAbi.S_IFMT) == LinuxAbi.S_IFREG;
        }

        boolean isSymlink() {
            return (mode & LinuxAbi.S_IFMT) == LinuxAbi.S_IFLNK;
        }

        /** Identity of the inode: (device, inode number). */
        Id id() {
            return new Id(dev, ino);
        }
    }

    /** (device, inode): what makes two names the same file. A plain class: record equality would use invokedynamic. */
    static final class Id {
        final long dev;
        final long ino;

        Id(long dev, long ino) {
            this.dev = dev;
            this.ino = ino;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Id && ((Id) o).dev == dev && ((Id) o).ino == ino;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(dev * 31 + ino);
        }
    }

    private static final byte[] EMPTY = {0};

    /**
     * statx(fd, "", LinuxAbi.AT_EMPTY_PATH) (statx(2), Linux 4.11, glibc 2.28): the layout of struct statx is the same on
     * every architecture (include/uapi/linux/stat.h): stx_nlink u32 at 16, stx_mode u16 at 28, stx_ino u64 at 32,
     * stx_dev_major u32 at 136, stx_dev_minor u32 at 140.
     *
     * @return the stat, or null with errno set
     */
    static Stat fstat(int fd) {
        byte[] buf = new byte[STATX_SIZE];
        return LibC.statx(fd, EMPTY, LinuxAbi.AT_EMPTY_PATH, STATX_WANTED, buf) == 0 ? decode(buf) : null;
    }

    /**
     * The entry {@code name} of the directory {@code dirFd}, not following it if it is a symbolic link: one statx(2)
     * with {@code AT_SYMLINK_NOFOLLOW}. The kernel resolves the name as {@code openat(dirFd, name, O_PATH |
     * O_NOFOLLOW)} followed by {@link #fstat} would (the same search permission on the directory, the same final
     * component; without {@code AT_NO_AUTOMOUNT} an automount point is mounted, as that open mounts it), in one call
     * instead of three (openat, statx, close).
     *
     * @return the stat, or null with errno set
     */
    static Stat statAt(int dirFd, byte[] name) {
        byte[] buf = new byte[STATX_SIZE];
        int rc = LibC.statx(dirFd, name, LinuxAbi.AT_SYMLINK_NOFOLLOW, STATX_WANTED, buf);
        return rc == 0 ? decode(buf) : null;
    }

    private static Stat decode(byte[] buf) {
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(buf).order(java.nio.ByteOrder.nativeOrder());
        int nlink = bb.getInt(16);
        int mode = bb.getShort(28) & 0xffff;
        long ino = bb.getLong(32);
        long major = bb.getInt(136) & 0xffffffffL;
        long minor = bb.getInt(140) & 0xffffffffL;
        return new Stat((major << 32) | minor, ino, mode, nlink);
    }

    /**
     * struct landlock_ruleset_attr, sized for the ABI: 8 bytes (handled_access_fs), 16 with handled_access_net
     * (ABI 4), 24 with scoped (ABI 6).
     */
    static Memory rulesetAttr(long handledAccessFs, int abi) {
        int size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8;
        Memory m = new Memory(size);
        m.clear();
        m.setLong(0, handledAccessFs); // handled_access_fs; handled_access_net and scoped stay 0: not handled
        return m;
    }

    /** struct landlock_path_beneath_attr is packed: __u64 allowed_access; __s32 parent_fd; = 12 bytes. */
    static Memory pathBeneathAttr(long allowedAccess, int parentFd) {
        return pathBeneathAttr(new Memory(12), allowedAccess, parentFd);
    }

    /** {@link #pathBeneathAttr(long, int)} written into {@code m} (12 bytes or more), which is returned. */
    static Memory pathBeneathAttr(Memory m, long allowedAccess, int parentFd) {
        m.setLong(0, allowedAccess);
        m.setInt(8, parentFd);
        return m;
    }
}
