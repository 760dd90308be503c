package dev.ralon.enforcer.mount;

import dev.ralon.enforcer.spi.exec.LinuxAbi;
import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;

import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.UserDefinedFileAttributeView;

/**
 * System-call level attacks run INSIDE the sandbox (and, as a control, outside it): {@code Attacks PREFIX}, in the
 * project directory. Each attack tries a trick to get a writable handle on its own target {@code PREFIX<attack>.txt}
 * and then writes through whatever it got (or the plain path). Prints one line per attack; the verdict is taken from
 * the disk, outside, by the test.
 */
public final class Attacks {
    interface LibC extends Library {
        long syscall(long number, Object... args) throws LastErrorException;

        int renameat2(int olddirfd, String oldpath, int newdirfd, String newpath, int flags) throws LastErrorException;

        int umount2(String target, int flags) throws LastErrorException;

        int mount(String source, String target, String fstype, long flags, String data) throws LastErrorException;

        int openat(int dirfd, String path, int flags) throws LastErrorException;

        long write(int fd, byte[] buf, long count) throws LastErrorException;

        int close(int fd) throws LastErrorException;

        int openat(int dirfd, String path, int flags, int mode) throws LastErrorException;

        int name_to_handle_at(int dirfd, String path, Memory handle, int[] mountId, int flags) throws LastErrorException;

        int open_by_handle_at(int mountFd, Memory handle, int flags) throws LastErrorException;
    }

    static final int AT_FDCWD = -100;
    static final int RENAME_EXCHANGE = 2;
    static final int MNT_DETACH = 2;
    static final long MS_REMOUNT = 32;
    static final long MS_BIND = 4096;
    static final int O_WRONLY = 1;
    static final int O_APPEND = 02000;
    static final int O_CREAT = 0100;
    static final int O_RDONLY = 0;

    private static LibC libc;

    private Attacks() {
    }

    public static void main(String[] args) {
        libc = Native.load("c", LibC.class);
        String p = args[0];
        Path cwd = Path.of("").toAbsolutePath();
        attempt(p + "exchange", () -> {
            Files.writeString(Path.of("free", p + "xsrc"), "pwned by exchange\n");
            libc.renameat2(AT_FDCWD, "free/" + p + "xsrc", AT_FDCWD, p + "exchange.txt", RENAME_EXCHANGE);
        });
        attempt(p + "mmap", () -> {
            try (FileChannel ch = FileChannel.open(Path.of(p + "mmap.txt"), StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, 0, 5);
                m.put("PWNED".getBytes(StandardCharsets.US_ASCII));
                m.force();
            }
        });
        attempt(p + "xattr", () -> Files.getFileAttributeView(Path.of(p + "xattr.txt"),
                UserDefinedFileAttributeView.class).write("pwned", ByteBuffer.wrap(new byte[] {1})));
        attempt(p + "umount2", () -> {
            tryQuietly(() -> libc.umount2(p + "umount2.txt", MNT_DETACH));
            append(AT_FDCWD, p + "umount2.txt");
        });
        attempt(p + "remount", () -> {
            tryQuietly(() -> libc.mount(null, cwd + "/" + p + "remount.txt", null, MS_REMOUNT | MS_BIND, null));
            append(AT_FDCWD, p + "remount.txt");
        });
        attempt(p + "setattr", () -> {
            Memory attr = new Memory(32);
            attr.clear();
            attr.setLong(8, Mounts.MOUNT_ATTR_RDONLY); // attr_clr
            tryQuietly(() -> libc.syscall(LinuxAbi.SYS_MOUNT_SETATTR, AT_FDCWD, p + "setattr.txt", 0, attr, 32L));
            append(AT_FDCWD, p + "setattr.txt");
        });
        // A non-recursive clone of the project directory would not carry the read-only binds beneath it: the kernel
        // must refuse it (fs/namespace.c: a tree with locked children cannot be cloned without them).
        attempt(p + "clone", () -> {
            int tree = -1;
            try {
                tree = (int) libc.syscall(LinuxAbi.SYS_OPEN_TREE, AT_FDCWD, cwd.toString(),
                        Mounts.OPEN_TREE_CLONE | Mounts.OPEN_TREE_CLOEXEC);
                System.out.println(p + "clone: open_tree succeeded");
            } catch (LastErrorException e) {
                System.out.println(p + "clone: open_tree refused: errno " + e.getErrorCode());
            }
            append(tree >= 0 ? tree : AT_FDCWD, p + "clone.txt");
        });
        handleAttack(p);
        attempt(p + "clonerw", () -> {
            int tree = -1;
            try {
                tree = (int) libc.syscall(LinuxAbi.SYS_OPEN_TREE, AT_FDCWD, cwd.toString(),
                        Mounts.OPEN_TREE_CLONE | Mounts.OPEN_TREE_CLOEXEC | LinuxAbi.AT_RECURSIVE);
                Memory attr = new Memory(32);
                attr.clear();
                attr.setLong(8, Mounts.MOUNT_ATTR_RDONLY);
                int t = tree;
                tryQuietly(() -> libc.syscall(LinuxAbi.SYS_MOUNT_SETATTR, t, "",
                        LinuxAbi.AT_EMPTY_PATH | LinuxAbi.AT_RECURSIVE, attr, 32L));
            } catch (LastErrorException e) {
                System.out.println(p + "clonerw: open_tree refused: errno " + e.getErrorCode());
            }
            append(tree >= 0 ? tree : AT_FDCWD, p + "clonerw.txt");
        });
    }

    /**
     * open_by_handle_at(2): decode a handle of the protected directory against the root file system's mount (which
     * is writable) instead of the read-only bind, then create a file in it. The kernel only allows it with
     * CAP_DAC_READ_SEARCH in the initial namespace, or (Linux 6.10+, fs/fhandle.c may_decode_fh) over a mount without
     * locked children, directories only, within the mount's subtree.
     */
    private static void handleAttack(String p) {
        attempt(p + "handle", () -> {
            int dirfd = -1;
            try {
                Memory fh = new Memory(8 + 128);
                fh.clear();
                fh.setInt(0, 128); // handle_bytes
                int[] mountId = new int[1];
                libc.name_to_handle_at(AT_FDCWD, p + "hdir", fh, mountId, 0);
                int mountFd = libc.openat(AT_FDCWD, "/", O_RDONLY);
                dirfd = libc.open_by_handle_at(mountFd, fh, O_RDONLY);
                System.out.println(p + "handle: open_by_handle_at succeeded");
            } catch (LastErrorException e) {
                System.out.println(p + "handle: refused: errno " + e.getErrorCode());
            }
            int fd = dirfd >= 0 ? libc.openat(dirfd, "new.txt", O_WRONLY | O_CREAT, 0644)
                    : libc.openat(AT_FDCWD, p + "hdir/new.txt", O_WRONLY | O_CREAT, 0644);
            libc.close(fd);
        });
    }

    interface Body {
        void run() throws Exception;
    }

    private static void attempt(String name, Body body) {
        try {
            body.run();
            System.out.println(name + ": succeeded");
        } catch (Exception e) {
            System.out.println(name + ": failed: " + e);
        }
    }

    private static void tryQuietly(Body body) {
        try {
            body.run();
            System.out.println("  (step succeeded)");
        } catch (Exception e) {
            System.out.println("  (step failed: " + e.getMessage() + ")");
        }
    }

    private static void append(int dirfd, String path) {
        int fd = libc.openat(dirfd, path, O_WRONLY | O_APPEND);
        try {
            byte[] b = "pwned\n".getBytes(StandardCharsets.US_ASCII);
            libc.write(fd, b, b.length);
        } finally {
            libc.close(fd);
        }
    }
}
