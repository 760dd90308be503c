package dev.ralon.linux;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * The one binding of the C library for Ralon's own native code: {@link Exec}, {@link TerminalGuard}, the Landlock
 * backend and the mount backend (host and stage) all call libc through this class, and nothing else in Ralon maps
 * libc. Constants for these calls are in {@link LinuxAbi}, error texts come from {@link Errno}.
 *
 * <p>JNA direct mapping ({@code Native.register}: one JNI stub per method, no proxy or reflection per call). Measured
 * on the start-up path: an interface mapping cost about 15 ms of every {@code ralon run} (it spins proxy and
 * method-handle classes on first call), and direct calls are about ten times faster per call, which matters with
 * 10,000 protected paths. Direct mapping takes no {@code String[]} and no varargs: argv and envp are
 * {@link com.sun.jna.StringArray}s, and {@code syscall(2)}, variadic in C, is declared once per argument shape it is
 * called with (its assembly entry takes the arguments from the registers, so a fixed signature per call is safe on
 * x86_64 and aarch64; int arguments are declared int by the kernel too).
 *
 * <p>Two error conventions, chosen per function, never both for one function:
 * <ul>
 *   <li>a method declaring {@link LastErrorException} throws it when the call set errno (JNA clears errno before the
 *       call): used where every failure is an error to report;</li>
 *   <li>a method without it returns the raw result, and the caller reads {@link Native#getLastError()} right after a
 *       failure: used where a failure is an expected answer (a missing path while planning) or where a successful call
 *       may leave errno set ({@code readdir64} at the end of a directory, {@code strerror}).</li>
 * </ul>
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("Ralon's own native layer; third-party enforcers bring their own")
public final class LibC {
    static {
        Native.register(LibC.class, "c");
    }

    private LibC() {
    }

    // ------------------------------------------------------------------ process (Exec, TerminalGuard, Landlock)

    /** execve(2). */
    public static native int execve(String path, Pointer argv, Pointer envp) throws LastErrorException;

    /** pthread_sigmask(3): returns the error number, errno is not used. */
    public static native int pthread_sigmask(int how, byte[] set, byte[] oldset);

    /** getrlimit(2): {@code rlim} is {rlim_cur, rlim_max}. */
    public static native int getrlimit(int resource, long[] rlim) throws LastErrorException;

    /** setrlimit(2). */
    public static native int setrlimit(int resource, long[] rlim) throws LastErrorException;

    /** prctl(2); -1 and errno on failure. */
    public static native int prctl(int option, long arg2, long arg3, long arg4, long arg5);

    /** unshare(2). */
    public static native int unshare(int flags) throws LastErrorException;

    /** getuid(2). */
    public static native int getuid();

    /** getgid(2). */
    public static native int getgid();

    /** geteuid(2). */
    public static native int geteuid();

    // ------------------------------------------------------------------ syscall(2), one shape per use

    /** close_range(first, last, flags) and other three-argument calls given as numbers. */
    public static native long syscall(long number, long a1, long a2, long a3) throws LastErrorException;

    /** The Landlock calls (landlock_create_ruleset, _add_rule, _restrict_self); -1 and errno on failure. */
    public static native long syscall(long number, long a1, long a2, long a3, long a4);

    /** openat2(dirfd, path, how, size). */
    public static native long syscall(long number, int dirfd, String path, Pointer how, long size)
            throws LastErrorException;

    /** open_tree(dirfd, path, flags). */
    public static native long syscall(long number, int dirfd, String path, int flags) throws LastErrorException;

    /** mount_setattr(dirfd, path, flags, attr, size). */
    public static native long syscall(long number, int dirfd, String path, int flags, Pointer attr, long size)
            throws LastErrorException;

    /** move_mount(from_dirfd, from_path, to_dirfd, to_path, flags). */
    public static native long syscall(long number, int fromDirfd, String fromPath, int toDirfd, String toPath,
            int flags) throws LastErrorException;

    /** fsopen(fs_name, flags) (the mount backend's copy of the home directory). */
    public static native long syscall(long number, String fsName, int flags) throws LastErrorException;

    /** fsconfig(fd, cmd, key, value, aux) with a string value or none (null). */
    public static native long syscall(long number, int fd, int cmd, String key, String value, int aux)
            throws LastErrorException;

    // ------------------------------------------------------------------ files

    /** open(2). */
    public static native int open(String path, int flags) throws LastErrorException;

    /** openat(2) with a NUL-terminated name in the file-name encoding; -1 and errno on failure. */
    public static native int openat(int dirfd, byte[] path, int flags);

    /** openat(2) with a mode (for O_CREAT; the landlock broker); -1 and errno on failure. */
    public static native int openat(int dirfd, byte[] path, int flags, int mode);

    /** mkdirat(2) (the landlock broker); -1 and errno on failure. */
    public static native int mkdirat(int dirfd, byte[] path, int mode);

    /** unlinkat(2) (the landlock broker); -1 and errno on failure. */
    public static native int unlinkat(int dirfd, byte[] path, int flags);

    /** renameat2(2), glibc 2.28 (the landlock broker); -1 and errno on failure. */
    public static native int renameat2(int olddirfd, byte[] oldpath, int newdirfd, byte[] newpath, int flags);

    /** symlinkat(2) (the landlock broker); -1 and errno on failure. */
    public static native int symlinkat(byte[] target, int newdirfd, byte[] linkpath);

    /** linkat(2) (the landlock broker); -1 and errno on failure. */
    public static native int linkat(int olddirfd, byte[] oldpath, int newdirfd, byte[] newpath, int flags);

    /** mknodat(2) (the landlock broker: FIFOs only); -1 and errno on failure. */
    public static native int mknodat(int dirfd, byte[] path, int mode, long dev);

    /** socketpair(2) (the landlock broker's channel); -1 and errno on failure. */
    public static native int socketpair(int domain, int type, int protocol, int[] sv);

    /** sendmsg(2); -1 and errno on failure. */
    public static native long sendmsg(int fd, Pointer msg, int flags);

    /** recvmsg(2); -1 and errno on failure. */
    public static native long recvmsg(int fd, Pointer msg, int flags);

    /** waitpid(2) (the landlock broker's shell); -1 and errno on failure. */
    public static native int waitpid(int pid, int[] status, int options);

    /** ftruncate(2) (the landlock broker); -1 and errno on failure. */
    public static native int ftruncate(int fd, long length);

    /**
     * syscall(2) for a call taking a descriptor, a buffer and its length ({@code getdents64}); the number of bytes
     * read, 0 at the end, -1 and errno on failure. The buffer is native ({@code com.sun.jna.Memory}): JNA's direct
     * mapping copies a {@code byte[]} argument in before the call and out after it, whole, whatever the call wrote (a
     * 64 KiB getdents64 buffer cost 128 KiB of copying per call); the caller copies out only what was written.
     */
    public static native long syscall(long number, int fd, Pointer buffer, long length);

    /** pipe2(2): {@code fds} receives {read end, write end}. */
    public static native int pipe2(int[] fds, int flags) throws LastErrorException;

    /** write(2) from a Java array; the count written, -1 and errno on failure. */
    public static native long write(int fd, byte[] buf, long count);

    /** kill(2); -1 and errno on failure. */
    public static native int kill(int pid, int sig);

    /** read(2) into a Java array; the count, 0 at the end, -1 and errno on failure. */
    public static native long read(int fd, byte[] buf, long count);

    /** poll(2) over {@code nfds} struct pollfd at {@code fds}; the count ready, 0 on timeout, -1 and errno. */
    public static native int poll(Pointer fds, long nfds, int timeoutMillis);

    /**
     * posix_spawn(3) with no spawn attributes: the child's pid in {@code pid[0]}; returns an error number (errno is
     * not used). glibc clones with CLONE_VM|CLONE_VFORK and no CLONE_THREAD, so it works on a thread whose children go
     * to another PID namespace, where creating a thread does not (kernel/fork.c copy_process: EINVAL).
     */
    public static native int posix_spawn(int[] pid, String path, Pointer fileActions, Pointer attrp, Pointer argv,
            Pointer envp);

    /** posix_spawn_file_actions_init(3); {@code actions} is native memory of at least 80 bytes (glibc's size). */
    public static native int posix_spawn_file_actions_init(Pointer actions);

    /** posix_spawn_file_actions_adddup2(3). */
    public static native int posix_spawn_file_actions_adddup2(Pointer actions, int fd, int newfd);

    /** posix_spawn_file_actions_addopen(3). */
    public static native int posix_spawn_file_actions_addopen(Pointer actions, int fd, String path, int flags,
            int mode);

    /** posix_spawn_file_actions_destroy(3). */
    public static native int posix_spawn_file_actions_destroy(Pointer actions);

    /** close(2); -1 and errno on failure (callers close descriptors they own, where nothing can be lost). */
    public static native int close(int fd);

    /** statx(2) with the name as a String. */
    public static native int statx(int dirfd, String path, int flags, int mask, byte[] buf) throws LastErrorException;

    /** statx(2) with a NUL-terminated name; -1 and errno on failure. */
    public static native int statx(int dirfd, byte[] path, int flags, int mask, byte[] buf);

    /** fstatfs(2): {@code buf} is a struct statfs. */
    public static native int fstatfs(int fd, byte[] buf) throws LastErrorException;

    /** fcntl(2) with an int argument. */
    public static native int fcntl(int fd, int cmd, int arg) throws LastErrorException;

    /** dup3(2). */
    public static native int dup3(int oldfd, int newfd, int flags) throws LastErrorException;

    /** lseek(2). */
    public static native long lseek(int fd, long offset, int whence) throws LastErrorException;

    /** chdir(2). */
    public static native int chdir(String path) throws LastErrorException;

    /** fdopendir(3); NULL and errno on failure. */
    public static native Pointer fdopendir(int fd);

    /** readdir64(3); NULL at the end (errno unchanged) or on error (errno set). */
    public static native Pointer readdir64(Pointer dir);

    /** closedir(3). */
    public static native int closedir(Pointer dir);

    /** strerror(3); see {@link Errno#text(int)}. */
    public static native String strerror(int errnum);
}
