package dev.ralon.enforcer.landlock;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.nio.charset.Charset;
import java.util.Locale;

/**
 * The few Linux system calls the Landlock backend makes, through JNA. Every method returns the raw result; callers
 * check it and read {@link #errno()} right after a failure (JNA keeps errno per thread after every native call).
 *
 * <p>Landlock has no glibc wrapper: it is reached with {@code syscall(2)} and the numbers from the kernel's unified
 * table. {@code include/uapi/asm-generic/unistd.h} (aarch64) and {@code arch/x86/entry/syscalls/syscall_64.tbl}
 * (x86_64) both give 444 landlock_create_ruleset, 445 landlock_add_rule, 446 landlock_restrict_self (Linux 5.13).
 * Structures and constants come from {@code include/uapi/linux/landlock.h}.
 */
final class LinuxCalls {
    static final long SYS_LANDLOCK_CREATE_RULESET = 444;
    static final long SYS_LANDLOCK_ADD_RULE = 445;
    static final long SYS_LANDLOCK_RESTRICT_SELF = 446;

    /** landlock.h: flag of landlock_create_ruleset asking for the highest ABI version the kernel supports. */
    static final long LANDLOCK_CREATE_RULESET_VERSION = 1L;
    /** landlock.h: enum landlock_rule_type. */
    static final long LANDLOCK_RULE_PATH_BENEATH = 1L;

    /** linux/prctl.h. */
    static final int PR_SET_NO_NEW_PRIVS = 38;
    static final int PR_CAPBSET_DROP = 24;
    /**
     * include/uapi/linux/capability.h: CAP_MKNOD 27, CAP_SYS_MODULE 16, CAP_SYS_RAWIO 17, CAP_SYS_ADMIN 21,
     * CAP_SYS_BOOT 22, CAP_PERFMON 38, CAP_BPF 39 (see LandlockEnforcer: dropped for a root invoker).
     */
    static final int[] KERNEL_CAPABILITIES = {16, 17, 21, 22, 27, 38, 39};

    // Open flags. O_CLOEXEC and O_PATH are the same everywhere (include/uapi/asm-generic/fcntl.h); O_DIRECTORY and
    // O_NOFOLLOW differ: arch/arm64/include/uapi/asm/fcntl.h overrides them (040000, 0100000), x86_64 uses the
    // generic values (0200000, 0400000).
    static final int O_RDONLY = 0;
    static final int O_CLOEXEC = 02000000;
    static final int O_PATH = 010000000;
    static final int O_DIRECTORY;
    static final int O_NOFOLLOW;

    static {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (arch.equals("aarch64") || arch.equals("arm64")) {
            O_DIRECTORY = 040000;
            O_NOFOLLOW = 0100000;
        } else {
            O_DIRECTORY = 0200000;
            O_NOFOLLOW = 0400000;
        }
    }

    /** Open a name itself, never what a symbolic link points to, without read or write access. */
    static final int OPEN_NAME = O_PATH | O_NOFOLLOW | O_CLOEXEC;
    /** Open a directory on the way: must be a real directory, not a link to one. */
    static final int OPEN_DIR = O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC;
    /** Open / itself. */
    static final int OPEN_ROOT = O_PATH | O_DIRECTORY | O_CLOEXEC;
    /** Open a directory for listing. */
    static final int OPEN_LIST = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
    /** openat(2): relative to the working directory. */
    static final int AT_FDCWD = -100;

    /** linux/fcntl.h. */
    static final int AT_EMPTY_PATH = 0x1000;
    /** linux/stat.h: STATX_TYPE | STATX_MODE | STATX_NLINK | STATX_INO. */
    static final int STATX_WANTED = 0x1 | 0x2 | 0x4 | 0x100;
    /** linux/stat.h: sizeof(struct statx). */
    static final int STATX_SIZE = 256;

    // errno values (asm-generic/errno-base.h, asm-generic/errno.h; same on x86_64 and aarch64)
    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int EACCES = 13;
    static final int EINVAL = 22;
    static final int ENOTDIR = 20;
    static final int ENOSYS = 38;
    static final int ELOOP = 40;
    static final int EOPNOTSUPP = 95;

    /**
     * Direct-mapped libc functions (JNA direct mapping: no proxy, no per-call reflection; this is on the startup path
     * of every sandboxed command). syscall(2) is variadic in C; every argument is passed as a 64-bit long, which is
     * what the kernel reads on x86_64 and aarch64 (pointers as their address).
     */
    static final class LibC {
        static {
            Native.register(LibC.class, "c");
        }

        private LibC() {
        }

        static native long syscall(long number, long a1, long a2, long a3, long a4);

        static native int prctl(int option, long arg2, long arg3, long arg4, long arg5);

        static native int getuid();

        static native int geteuid();

        static native int openat(int dirfd, byte[] path, int flags);

        static native int close(int fd);

        static native int statx(int dirfd, byte[] path, int flags, int mask, byte[] statxbuf);

        static native Pointer fdopendir(int fd);

        static native Pointer readdir64(Pointer dir);

        static native int closedir(Pointer dir);

        static native String strerror(int errnum);
    }

    private LinuxCalls() {
    }

    static int errno() {
        return Native.getLastError();
    }

    /** "No such file or directory (errno 2)". */
    static String describe(int errno) {
        String text;
        try {
            text = LibC.strerror(errno);
        } catch (RuntimeException | Error e) {
            text = null;
        }
        return (text == null ? "error" : text) + " (errno " + errno + ")";
    }

    /** Bytes of a file name as the kernel sees it, NUL-terminated for C. */
    static byte[] cString(String s) {
        byte[] b = s.getBytes(fileNameCharset());
        byte[] z = new byte[b.length + 1];
        System.arraycopy(b, 0, z, 0, b.length);
        return z;
    }

    static Charset fileNameCharset() {
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
        static final int S_IFMT = 0170000;
        static final int S_IFDIR = 0040000;
        static final int S_IFREG = 0100000;
        static final int S_IFLNK = 0120000;

        boolean isDirectory() {
            return (mode & S_IFMT) == S_IFDIR;
        }

        boolean isRegular() {
            return (mode & S_IFMT) == S_IFREG;
        }

        boolean isSymlink() {
            return (mode & S_IFMT) == S_IFLNK;
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
     * statx(fd, "", AT_EMPTY_PATH) (statx(2), Linux 4.11, glibc 2.28): the layout of struct statx is the same on
     * every architecture (include/uapi/linux/stat.h): stx_nlink u32 at 16, stx_mode u16 at 28, stx_ino u64 at 32,
     * stx_dev_major u32 at 136, stx_dev_minor u32 at 140.
     *
     * @return the stat, or null with errno set
     */
    static Stat fstat(int fd) {
        byte[] buf = new byte[STATX_SIZE];
        int rc = LibC.statx(fd, EMPTY, AT_EMPTY_PATH, STATX_WANTED, buf);
        if (rc != 0) {
            return null;
        }
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
        Memory m = new Memory(12);
        m.setLong(0, allowedAccess);
        m.setInt(8, parentFd);
        return m;
    }
}
