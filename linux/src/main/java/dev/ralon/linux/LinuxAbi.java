package dev.ralon.linux;

import java.util.Locale;

/**
 * The one set of Linux constants Ralon's native code uses, with the architecture they depend on decided once here.
 * Ralon's native code supports x86_64 and aarch64. Each value names the kernel header it comes from.
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("Ralon's own native layer; third-party enforcers bring their own")
public final class LinuxAbi {
    private LinuxAbi() {
    }

    /**
     * True on 64-bit ARM. The JVM reports it as {@code aarch64} (OpenJDK's {@code os.arch} on Linux); {@code arm64} is
     * the name other platforms and some builds use for the same architecture, so both are accepted.
     */
    public static final boolean ARM64 = isArm64(System.getProperty("os.arch", ""));

    static boolean isArm64(String osArch) {
        String a = osArch.toLowerCase(Locale.ROOT);
        return a.equals("aarch64") || a.equals("arm64");
    }

    // System call numbers. x86_64 (arch/x86/entry/syscalls/syscall_64.tbl) and aarch64
    // (include/uapi/asm-generic/unistd.h) share one table for the calls added after Linux 5.0; ioctl is older.
    /** open_tree(2), Linux 5.2. */
    public static final long SYS_OPEN_TREE = 428;
    /** unshare(2) flag: a new PID namespace for the caller's children (include/uapi/linux/sched.h). */
    public static final int CLONE_NEWPID = 0x20000000;
    /** move_mount(2), Linux 5.2. */
    public static final long SYS_MOVE_MOUNT = 429;
    /** unshare(2) flag: a new mount namespace for the caller (include/uapi/linux/sched.h). */
    public static final int CLONE_NEWNS = 0x00020000;
    /** close_range(2), Linux 5.9. */
    public static final long SYS_CLOSE_RANGE = 436;
    /** openat2(2), Linux 5.6. */
    public static final long SYS_OPENAT2 = 437;
    /** fsopen(2), fsconfig(2), fsmount(2) (Linux 5.2; the same numbers on x86_64 and aarch64, asm-generic/unistd.h). */
    public static final long SYS_FSOPEN = 430;
    public static final long SYS_FSCONFIG = 431;
    public static final long SYS_FSMOUNT = 432;
    /** mount_setattr(2), Linux 5.12. */
    public static final long SYS_MOUNT_SETATTR = 442;
    /** landlock_create_ruleset(2), Linux 5.13. */
    public static final long SYS_LANDLOCK_CREATE_RULESET = 444;
    /** landlock_add_rule(2). */
    public static final long SYS_LANDLOCK_ADD_RULE = 445;
    /** landlock_restrict_self(2). */
    public static final long SYS_LANDLOCK_RESTRICT_SELF = 446;
    /** ioctl(2): 16 on x86_64, 29 on aarch64. */
    public static final long SYS_IOCTL = ARM64 ? 29 : 16;
    /**
     * getdents64(2): arch/x86/entry/syscalls/syscall_64.tbl (217) and include/uapi/asm-generic/unistd.h (61). Called
     * through syscall(2), not glibc's wrapper (glibc 2.30 and later only): a missing symbol would fail the binding of
     * every function of {@link LibC}.
     */
    public static final long SYS_GETDENTS64 = ARM64 ? 61 : 217;

    // Open flags: include/uapi/asm-generic/fcntl.h. O_CLOEXEC and O_PATH are the same on both architectures;
    // arch/arm64/include/uapi/asm/fcntl.h overrides O_DIRECTORY and O_NOFOLLOW (040000, 0100000).
    public static final int O_RDONLY = 0;
    public static final int O_CLOEXEC = 02000000;
    public static final int O_PATH = 010000000;
    public static final int O_DIRECTORY = ARM64 ? 040000 : 0200000;
    public static final int O_NOFOLLOW = ARM64 ? 0100000 : 0400000;

    // include/uapi/linux/fcntl.h
    /** openat(2) and friends: relative to the working directory. */
    public static final int AT_FDCWD = -100;
    /** The descriptor itself when the path is empty. */
    public static final int AT_EMPTY_PATH = 0x1000;
    /** Do not follow a final symbolic link (statx, fstatat): the link itself. */
    public static final int AT_SYMLINK_NOFOLLOW = 0x100;
    /** Apply to the whole mount subtree (open_tree, mount_setattr). */
    public static final int AT_RECURSIVE = 0x8000;

    // File types, include/uapi/linux/stat.h (S_IFMT of st_mode / stx_mode)
    public static final int S_IFMT = 0170000;
    public static final int S_IFDIR = 0040000;
    public static final int S_IFLNK = 0120000;
    public static final int S_IFREG = 0100000;

    // errno values, include/uapi/asm-generic/errno-base.h and errno.h (the same on x86_64 and aarch64)
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int ENOEXEC = 8;
    public static final int EBADF = 9;
    public static final int EACCES = 13;
    public static final int ENOTDIR = 20;
    public static final int EINVAL = 22;
    public static final int ENOSYS = 38;
    public static final int ELOOP = 40;
    public static final int EOPNOTSUPP = 95;

    // include/uapi/linux/prctl.h
    public static final int PR_CAPBSET_DROP = 24;
    public static final int PR_SET_SECCOMP = 22;
    public static final int PR_SET_NO_NEW_PRIVS = 38;
}
