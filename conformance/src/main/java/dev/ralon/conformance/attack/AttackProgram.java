package dev.ralon.conformance.attack;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.nio.charset.StandardCharsets;

/**
 * The attacks a shell cannot make, run INSIDE the sandbox by the conformance kit's attack script:
 * {@code AttackProgram OP ID TARGET OTHER [OP ID TARGET OTHER ...]}. For each quadruple it makes the system calls of
 * {@code OP} on {@code TARGET} (absolute) and prints {@code RESULT ID 0} when every call succeeded, else
 * {@code RESULT ID errno=N (call)}. The verdict is never taken from this output: the kit looks at the disk from
 * outside. Pure JNA over libc, no compiler needed.
 *
 * <p>Operations:
 * <ul>
 *   <li>{@code otrunc}: {@code open(TARGET, O_RDONLY|O_TRUNC)}: truncation without asking for write access
 *       (open(2): "the effect of O_TRUNC with O_RDONLY is undefined"; Linux truncates).</li>
 *   <li>{@code punch-hole}: {@code fallocate(fd, FALLOC_FL_PUNCH_HOLE|FALLOC_FL_KEEP_SIZE, 0, 4096)}: zeroes the
 *       content without a single write(2) (fallocate(2)).</li>
 *   <li>{@code copy-file-range}: {@code copy_file_range(OTHER → TARGET)}: copies data in the kernel, no write(2)
 *       (copy_file_range(2)).</li>
 *   <li>{@code mmap}: {@code mmap(MAP_SHARED, PROT_WRITE)} of a read-write descriptor, store, {@code msync}.</li>
 *   <li>{@code exchange}: {@code renameat2(OTHER, TARGET, RENAME_EXCHANGE)}: swaps two paths atomically, a rename
 *       over that leaves no moment where TARGET is missing (rename(2)).</li>
 *   <li>{@code xattr}: {@code setxattr(TARGET, "user.ralon-kit", ...)}: an extended attribute (xattr(7)).</li>
 *   <li>{@code open-by-handle}: {@code name_to_handle_at(TARGET)}, then {@code open_by_handle_at(O_WRONLY|O_APPEND)}
 *       against a descriptor of OTHER (a directory on the same file system) and write: opens the file without walking
 *       its path. Needs CAP_DAC_READ_SEARCH in the initial user namespace (open_by_handle_at(2)), so only as root.</li>
 *   <li>{@code mount-setattr-rw}: {@code mount_setattr(TARGET, AT_RECURSIVE, attr_clr = MOUNT_ATTR_RDONLY)}
 *       (mount_setattr(2), Linux 5.12): makes the mount at TARGET writable again, where the caller may.</li>
 *   <li>{@code tiocsti}: pushes {@code echo pwned >> 'TARGET'} and a newline into the input queue of the terminal on
 *       descriptor 0, one byte per {@code ioctl(0, TIOCSTI, &c)} (tty_ioctl(4)); when refused, once more with the
 *       request's high 32 bits set ({@code 0x100005412}: the kernel ignores them, a seccomp filter comparing 64 bits
 *       would not).</li>
 *   <li>{@code move-mount}: {@code move_mount(TARGET -> OTHER)} (move_mount(2), Linux 5.2), OTHER made first as an
 *       empty file or directory like TARGET: moves the mount at TARGET away and uncovers what lies beneath it.</li>
 *   <li>{@code truncate-path}: {@code truncate(TARGET, 0)}: by path, no descriptor (truncate(2)).</li>
 *   <li>{@code exchange-aside}: {@code exchange} with OTHER an unprotected file of TARGET's own directory.</li>
 *   <li>{@code setattr-write}: {@code mount_setattr(OTHER, attr_clr = MOUNT_ATTR_RDONLY)} (OTHER: the protected path
 *       TARGET lies in), then append to TARGET whatever the first call answered.</li>
 *   <li>{@code open-tree-clone}, {@code open-tree-clone-rw}: {@code open_tree(OTHER, OPEN_TREE_CLONE)} of the project
 *       (the second recursive, then {@code mount_setattr} clearing RDONLY on the clone), then append to TARGET through
 *       the clone (by path when the clone is refused, so that the control shows the write).</li>
 *   <li>{@code open-by-handle-dir}: a handle of the directory TARGET decoded against the mount of OTHER (the root
 *       directory), then a file created in it (by path when refused).</li>
 *   <li>{@code mmap} first maps an {@code O_RDONLY} descriptor {@code PROT_WRITE|MAP_SHARED} (mmap(2) must answer
 *       EACCES), then an {@code O_RDWR} one.</li>
 *   <li>{@code race-path}: for {@value #RACE_MILLIS} ms one thread opens a path held in memory
 *       ({@code O_WRONLY|O_CREAT|O_TRUNC}) and writes, while another rewrites that memory between an unprotected name
 *       of TARGET's directory and TARGET itself: a checker that reads the caller's path again after judging it (a
 *       seccomp user-notification broker) would act on the other one. Then once with TARGET in place.</li>
 *   <li>{@code race-dir-link}: for {@value #RACE_MILLIS} ms one thread opens {@code DIR/sw-ID/NAME} for writing
 *       (DIR, NAME: TARGET's directory and name), while another moves into {@code DIR/sw-ID}, in turn, a real
 *       directory and a symbolic link to DIR (both made beside OTHER): a checker that judges the directory and then
 *       walks the path again would be led to TARGET. Then once with the link in place.</li>
 *   <li>{@code flood}: four threads create and remove files in TARGET's directory as fast as they can for
 *       {@value #RACE_MILLIS} ms while another opens TARGET for writing again and again: a checker that drops, mixes
 *       up or times out calls under load. Then once more.</li>
 * </ul>
 * Each race ends early once TARGET holds what it writes (the verdict is decided: a breach, or the control's proof);
 * under a backend that holds, it runs its full time.
 * The two mount operations act only on TARGET, which the kit takes inside its own project: without a mount there
 * the kernel answers EINVAL and nothing changes.
 */
public final class AttackProgram {
    interface LibC extends Library {
        int open(String path, int flags, int mode) throws LastErrorException;

        int close(int fd) throws LastErrorException;

        int fallocate(int fd, int mode, long offset, long len) throws LastErrorException;

        long copy_file_range(int fdIn, Pointer offIn, int fdOut, Pointer offOut, long len, int flags)
                throws LastErrorException;

        Pointer mmap(Pointer addr, long length, int prot, int flags, int fd, long offset) throws LastErrorException;

        int msync(Pointer addr, long length, int flags) throws LastErrorException;

        int munmap(Pointer addr, long length) throws LastErrorException;

        int renameat2(int olddirfd, String oldpath, int newdirfd, String newpath, int flags) throws LastErrorException;

        int setxattr(String path, String name, byte[] value, long size, int flags) throws LastErrorException;

        int name_to_handle_at(int dirfd, String path, Pointer handle, int[] mountId, int flags)
                throws LastErrorException;

        int open_by_handle_at(int mountFd, Pointer handle, int flags) throws LastErrorException;

        long write(int fd, byte[] buf, long count) throws LastErrorException;

        int mkdir(String path, int mode) throws LastErrorException;

        int truncate(String path, long length) throws LastErrorException;

        int openat(int dirfd, String path, int flags, int mode) throws LastErrorException;

        int openat(int dirfd, Pointer path, int flags, int mode) throws LastErrorException;

        int rename(String oldpath, String newpath) throws LastErrorException;

        int symlink(String target, String linkpath) throws LastErrorException;

        int unlink(String path) throws LastErrorException;

        long syscall(long number, Object... args) throws LastErrorException;
    }

    // Same numbers on x86_64 and aarch64 (unified table for calls added after 5.0): include/uapi/asm-generic/unistd.h
    private static final long SYS_MOVE_MOUNT = 429;
    private static final long SYS_MOUNT_SETATTR = 442;
    private static final long SYS_OPEN_TREE = 428;
    // include/uapi/linux/mount.h (OPEN_TREE_CLOEXEC is O_CLOEXEC), linux/fcntl.h
    private static final int OPEN_TREE_CLONE = 1;
    private static final int OPEN_TREE_CLOEXEC = 02000000;
    private static final int AT_EMPTY_PATH = 0x1000;
    // include/uapi/linux/mount.h, linux/fcntl.h
    private static final long MOUNT_ATTR_RDONLY = 0x01;
    private static final int AT_RECURSIVE = 0x8000;
    private static final int O_CREAT = 0100;
    // arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h; asm-generic/ioctls.h
    private static final long SYS_IOCTL = dev.ralon.linux.LinuxAbi.SYS_IOCTL;
    private static final long TIOCSTI = 0x5412;
    private static final long TIOCSTI_HIGH_BITS = 0x100005412L;

    // <asm-generic/fcntl.h>, same values on x86_64 and aarch64
    private static final int O_RDONLY = 0;
    private static final int O_RDWR = 2;
    private static final int O_WRONLY = 1;
    private static final int O_TRUNC = 01000;
    private static final int O_APPEND = 02000;
    // <linux/falloc.h>
    private static final int FALLOC_FL_KEEP_SIZE = 0x01;
    private static final int FALLOC_FL_PUNCH_HOLE = 0x02;
    // <sys/mman.h>
    private static final int PROT_READ = 1;
    private static final int PROT_WRITE = 2;
    private static final int MAP_SHARED = 1;
    private static final int MS_SYNC = 4;
    // <linux/fcntl.h>, <linux/fs.h>
    private static final int AT_FDCWD = -100;
    private static final int RENAME_EXCHANGE = 2;

    private static final byte[] PWNED = "PWNED".getBytes(StandardCharsets.US_ASCII);
    /** How long each race runs before its last, plain attempt. */
    static final long RACE_MILLIS = 500;

    /** Opens {@code path} (NUL-terminated in native memory) for writing, truncating or creating, and writes. */
    private static void overwrite(LibC libc, Pointer path) {
        int fd = libc.openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        try {
            libc.write(fd, PWNED, PWNED.length);
        } finally {
            libc.close(fd);
        }
    }

    /** The directory part of an absolute path ({@code /a/b} for {@code /a/b/c}). */
    private static String directoryOf(String absolute) {
        return absolute.substring(0, Math.max(0, absolute.lastIndexOf('/')));
    }

    private static com.sun.jna.Memory cString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        com.sun.jna.Memory m = new com.sun.jna.Memory(b.length + 1L);
        m.write(0, b, 0, b.length);
        m.setByte(b.length, (byte) 0);
        return m;
    }

    /**
     * Runs {@code attempt} (errors counted, not thrown) while {@code meddler} runs on {@code threads} other threads,
     * for {@link #RACE_MILLIS}, or until {@code target} holds what the attempt writes: then the attack has changed the
     * protected file, the kit's verdict is decided (a breach, or under noop the control's proof that the attack
     * works), and more attempts could not undo it. Under a backend that holds, the race runs its full time. Prints how
     * many attempts succeeded as a comment.
     */
    private static void race(String id, int threads, String target, Runnable meddler, Call attempt) {
        long end = System.nanoTime() + RACE_MILLIS * 1_000_000;
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.List<Thread> meddlers = new java.util.ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    meddler.run();
                }
            });
            t.setDaemon(true);
            t.start();
            meddlers.add(t);
        }
        int tries = 0;
        int through = 0;
        boolean written = false;
        try {
            while (!written && System.nanoTime() < end) {
                tries++;
                try {
                    attempt.call();
                    through++;
                    written = holdsPwned(target);
                } catch (LastErrorException e) {
                    // refused, or the meddler's state was not the one it needed: try again
                }
            }
        } finally {
            stop.set(true);
            for (Thread t : meddlers) {
                try {
                    t.join(5000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        System.out.println("# " + id + ": " + through + " of " + tries + " attempts during the race went through"
                + (written ? "; stopped early: the target was written" : ""));
    }

    /** Whether {@code path} begins with what {@link #overwrite} writes (false when it cannot be read). */
    private static boolean holdsPwned(String path) {
        byte[] head = new byte[PWNED.length];
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(java.nio.file.Path.of(path))) {
            return in.readNBytes(head, 0, head.length) == head.length && java.util.Arrays.equals(head, PWNED);
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    /** Ignores the failure of a meddler's step: the race goes on. */
    private static void quietly(Call call) {
        try {
            call.call();
        } catch (LastErrorException e) {
            // the other thread's state, or refused: either way the next step
        }
    }

    private AttackProgram() {
    }

    /** A step whose failure does not end the attack (what comes next decides): its errno is printed as a comment. */
    private interface Call {
        long call() throws LastErrorException;
    }

    private static void trying(String id, String step, Call call) {
        try {
            call.call();
        } catch (LastErrorException e) {
            System.out.println("# " + id + ": " + step + ": errno=" + e.getErrorCode());
        }
    }

    /** struct mount_attr { u64 attr_set; u64 attr_clr; u64 propagation; u64 userns_fd; } clearing RDONLY. */
    private static com.sun.jna.Memory rdonlyCleared() {
        com.sun.jna.Memory attr = new com.sun.jna.Memory(32);
        attr.clear();
        attr.setLong(8, MOUNT_ATTR_RDONLY);
        return attr;
    }

    /** Opens {@code path} with {@code mode}, maps it shared and writable, stores, msyncs. */
    private static long mapAndStore(LibC libc, String path, int mode) {
        int fd = libc.open(path, mode, 0);
        try {
            Pointer m = libc.mmap(null, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            m.write(0, PWNED, 0, PWNED.length);
            libc.msync(m, 4096, MS_SYNC);
            libc.munmap(m, 4096);
            return 0;
        } finally {
            libc.close(fd);
        }
    }

    private static void append(LibC libc, int dirfd, String path) {
        int fd = libc.openat(dirfd, path, O_WRONLY | O_APPEND, 0);
        try {
            libc.write(fd, PWNED, PWNED.length);
        } finally {
            libc.close(fd);
        }
    }

    private static void inject(LibC libc, long request, byte[] line) {
        for (byte b : line) {
            libc.syscall(SYS_IOCTL, 0, request, new byte[] {b});
        }
    }

    public static void main(String[] args) {
        LibC libc = Native.load("c", LibC.class);
        if (args.length % 4 != 0) {
            System.err.println("usage: AttackProgram (OP ID TARGET OTHER)...");
            System.exit(64);
        }
        for (int i = 0; i < args.length; i += 4) {
            String op = args[i];
            String id = args[i + 1];
            String target = args[i + 2];
            String other = args[i + 3];
            String step = op;
            try {
                switch (op) {
                    case "otrunc" -> {
                        step = "open O_RDONLY|O_TRUNC";
                        libc.close(libc.open(target, O_RDONLY | O_TRUNC, 0));
                    }
                    case "punch-hole" -> {
                        step = "open O_WRONLY";
                        int fd = libc.open(target, O_WRONLY, 0);
                        try {
                            step = "fallocate PUNCH_HOLE";
                            libc.fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096);
                        } finally {
                            libc.close(fd);
                        }
                    }
                    case "copy-file-range" -> {
                        step = "open source";
                        int in = libc.open(other, O_RDONLY, 0);
                        try {
                            step = "open O_WRONLY";
                            int out = libc.open(target, O_WRONLY, 0);
                            try {
                                step = "copy_file_range";
                                libc.copy_file_range(in, null, out, null, 64, 0);
                            } finally {
                                libc.close(out);
                            }
                        } finally {
                            libc.close(in);
                        }
                    }
                    case "mmap" -> {
                        // first a read-only descriptor: mmap(2) must refuse PROT_WRITE|MAP_SHARED on it (EACCES)
                        step = "mmap MAP_SHARED PROT_WRITE of an O_RDONLY descriptor";
                        trying(id, step, () -> mapAndStore(libc, target, O_RDONLY));
                        step = "mmap MAP_SHARED PROT_WRITE of an O_RDWR descriptor, msync";
                        mapAndStore(libc, target, O_RDWR);
                    }
                    case "exchange", "exchange-aside" -> {
                        step = "renameat2 RENAME_EXCHANGE";
                        libc.renameat2(AT_FDCWD, other, AT_FDCWD, target, RENAME_EXCHANGE);
                    }
                    case "xattr" -> {
                        step = "setxattr user.ralon-kit";
                        libc.setxattr(target, "user.ralon-kit", PWNED, PWNED.length, 0);
                    }
                    case "open-by-handle" -> {
                        // struct file_handle: u32 handle_bytes, s32 handle_type, then the opaque handle
                        com.sun.jna.Memory handle = new com.sun.jna.Memory(8 + 128);
                        handle.clear();
                        handle.setInt(0, 128);
                        step = "name_to_handle_at";
                        libc.name_to_handle_at(AT_FDCWD, target, handle, new int[1], 0);
                        step = "open mount directory";
                        int mountFd = libc.open(other, O_RDONLY, 0);
                        try {
                            step = "open_by_handle_at O_WRONLY|O_APPEND";
                            int fd = libc.open_by_handle_at(mountFd, handle, O_WRONLY | O_APPEND);
                            try {
                                step = "write";
                                libc.write(fd, PWNED, PWNED.length);
                            } finally {
                                libc.close(fd);
                            }
                        } finally {
                            libc.close(mountFd);
                        }
                    }
                    case "mount-setattr-rw" -> {
                        step = "mount_setattr attr_clr=RDONLY";
                        libc.syscall(SYS_MOUNT_SETATTR, AT_FDCWD, target, AT_RECURSIVE, rdonlyCleared(), 32L);
                    }
                    case "truncate-path" -> {
                        step = "truncate(2)";
                        libc.truncate(target, 0);
                    }
                    case "setattr-write" -> {
                        // OTHER: the protected path the target lies in (the root of its read-only mount, if any)
                        step = "mount_setattr attr_clr=RDONLY";
                        trying(id, step, () -> libc.syscall(SYS_MOUNT_SETATTR, AT_FDCWD, other, AT_RECURSIVE,
                                rdonlyCleared(), 32L));
                        step = "write";
                        append(libc, AT_FDCWD, target);
                    }
                    case "open-tree-clone", "open-tree-clone-rw" -> {
                        // OTHER: the project. A clone without the mounts beneath it would uncover the files under
                        // read-only binds; the kernel refuses to clone a tree with locked children non-recursively
                        // (fs/namespace.c), and a clone of locked read-only mounts stays read-only
                        boolean recursive = op.endsWith("-rw");
                        step = "open_tree OPEN_TREE_CLONE" + (recursive ? "|AT_RECURSIVE" : "");
                        int[] tree = {-1};
                        trying(id, step, () -> tree[0] = (int) libc.syscall(SYS_OPEN_TREE, AT_FDCWD, other,
                                OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | (recursive ? AT_RECURSIVE : 0)));
                        if (recursive && tree[0] >= 0) {
                            trying(id, "mount_setattr on the clone", () -> libc.syscall(SYS_MOUNT_SETATTR, tree[0],
                                    "", AT_EMPTY_PATH | AT_RECURSIVE, rdonlyCleared(), 32L));
                        }
                        step = tree[0] >= 0 ? "write through the clone" : "write by path";
                        append(libc, tree[0] >= 0 ? tree[0] : AT_FDCWD, tree[0] >= 0
                                ? java.nio.file.Path.of(other).relativize(java.nio.file.Path.of(target)).toString()
                                : target);
                    }
                    case "open-by-handle-dir" -> {
                        // OTHER: the root directory, whose mount is not the protected path's; a handle of the
                        // directory decoded against it opens the directory on that mount (open_by_handle_at(2): needs
                        // CAP_DAC_READ_SEARCH, or since Linux 6.10 a mount whose subtree holds it, fs/fhandle.c)
                        int[] dir = {-1};
                        trying(id, "open_by_handle_at", () -> {
                            com.sun.jna.Memory handle = new com.sun.jna.Memory(8 + 128);
                            handle.clear();
                            handle.setInt(0, 128);
                            libc.name_to_handle_at(AT_FDCWD, target, handle, new int[1], 0);
                            int mountFd = libc.open(other, O_RDONLY, 0);
                            try {
                                dir[0] = libc.open_by_handle_at(mountFd, handle, O_RDONLY);
                            } finally {
                                libc.close(mountFd);
                            }
                            return dir[0];
                        });
                        step = dir[0] >= 0 ? "create through the handle" : "create by path";
                        libc.close(libc.openat(dir[0] >= 0 ? dir[0] : AT_FDCWD, dir[0] >= 0 ? "by-handle-" + id
                                : target + "/by-handle-" + id, O_CREAT | O_WRONLY, 0644));
                    }
                    case "tiocsti" -> {
                        byte[] line = ("echo pwned >> '" + target.replace("'", "'\\''") + "'\n")
                                .getBytes(StandardCharsets.UTF_8);
                        step = "ioctl TIOCSTI";
                        try {
                            inject(libc, TIOCSTI, line);
                        } catch (LastErrorException e) {
                            step = "ioctl TIOCSTI with the high bits set";
                            inject(libc, TIOCSTI_HIGH_BITS, line);
                        }
                    }
                    case "move-mount" -> {
                        step = "make the destination";
                        if (new java.io.File(target).isDirectory()) {
                            libc.mkdir(other, 0700);
                        } else {
                            libc.close(libc.open(other, O_CREAT | O_WRONLY, 0600));
                        }
                        step = "move_mount";
                        libc.syscall(SYS_MOVE_MOUNT, AT_FDCWD, target, AT_FDCWD, other, 0);
                    }
                    case "race-path" -> {
                        // the same length for both names, so that the memory always holds one or the other (or a mix
                        // of their last components: another name in the same directory)
                        String dir = directoryOf(target);
                        byte[] decoy = (dir + "/" + "r".repeat(target.length() - dir.length() - 1))
                                .getBytes(StandardCharsets.UTF_8);
                        byte[] real = target.getBytes(StandardCharsets.UTF_8);
                        com.sun.jna.Memory path = cString(new String(decoy, StandardCharsets.UTF_8));
                        step = "race: open a path rewritten by another thread";
                        race(id, 1, target, () -> {
                            path.write(0, real, 0, real.length);
                            path.write(0, decoy, 0, decoy.length);
                        }, () -> {
                            overwrite(libc, path);
                            return 0;
                        });
                        step = "open O_WRONLY|O_CREAT|O_TRUNC";
                        path.write(0, real, 0, real.length);
                        overwrite(libc, path);
                    }
                    case "race-dir-link" -> {
                        String parent = directoryOf(target);
                        String swapped = parent + "/sw-" + id;
                        String link = other + ".link";
                        String dir = other + ".dir";
                        step = "make the link and the directory";
                        libc.symlink(parent, link);
                        libc.mkdir(dir, 0755);
                        com.sun.jna.Memory through = cString(swapped + target.substring(parent.length()));
                        step = "race: open through a directory swapped with a link";
                        race(id, 1, target, () -> {
                            quietly(() -> libc.rename(link, swapped));
                            quietly(() -> libc.rename(swapped, link));
                            quietly(() -> libc.rename(dir, swapped));
                            quietly(() -> libc.rename(swapped, dir));
                        }, () -> {
                            overwrite(libc, through);
                            return 0;
                        });
                        step = "move the link in";
                        libc.rename(link, swapped);
                        step = "open through the link";
                        overwrite(libc, through);
                    }
                    case "flood" -> {
                        String base = directoryOf(target) + "/flood-" + id + "-";
                        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
                        com.sun.jna.Memory path = cString(target);
                        step = "flood: open FILE while four threads create and remove beside it";
                        race(id, 4, target, () -> quietly(() -> {
                            String f = base + n.incrementAndGet();
                            libc.close(libc.open(f, O_WRONLY | O_CREAT, 0644));
                            return libc.unlink(f);
                        }), () -> {
                            overwrite(libc, path);
                            return 0;
                        });
                        step = "open O_WRONLY|O_CREAT|O_TRUNC";
                        overwrite(libc, path);
                    }
                    case "unix-connect" -> {
                        step = "connect to the Unix socket " + other;
                        try (java.nio.channels.SocketChannel ch = java.nio.channels.SocketChannel.open(
                                java.net.StandardProtocolFamily.UNIX)) {
                            ch.connect(java.net.UnixDomainSocketAddress.of(other));
                            ch.write(java.nio.ByteBuffer.wrap(PWNED));
                        } catch (java.io.IOException e) {
                            throw new IllegalStateException(e.toString(), e);
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown attack operation " + op);
                }
                System.out.println("RESULT " + id + " 0");
            } catch (LastErrorException e) {
                System.out.println("RESULT " + id + " errno=" + e.getErrorCode() + " (" + step + ")");
            } catch (RuntimeException e) {
                System.out.println("RESULT " + id + " error (" + step + ": " + e + ")");
            }
        }
        System.out.flush();
    }
}
