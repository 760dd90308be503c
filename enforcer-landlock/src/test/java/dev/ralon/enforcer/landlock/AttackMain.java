package dev.ralon.enforcer.landlock;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Attacks the shell cannot make, run inside the sandbox: truncate(2), O_RDONLY|O_TRUNC, ftruncate(2), reopen through
 * /proc/self/fd, mmap(MAP_SHARED, PROT_WRITE) of a read-only fd and of a read-write one, FileChannel.map, a hard link
 * made inside the sandbox then written, renameat2(RENAME_EXCHANGE). Usage: {@code AttackMain PROJECT}. Prints one
 * line per attack: {@code RESULT name rc}, rc 0 when the attack call succeeded, else the errno (the verdict is
 * decided from outside, on disk).
 */
public final class AttackMain {
    interface C extends Library {
        int open(String path, int flags, int mode);

        int close(int fd);

        int truncate(String path, long length);

        int ftruncate(int fd, long length);

        long write(int fd, byte[] buf, long count);

        Pointer mmap(Pointer addr, long length, int prot, int flags, int fd, long offset);

        int msync(Pointer addr, long length, int flags);

        int renameat2(int olddirfd, String oldpath, int newdirfd, String newpath, int flags);

        int name_to_handle_at(int dirfd, String path, Pointer handle, int[] mountId, int flags);

        int open_by_handle_at(int mountFd, Pointer handle, int flags);
    }

    private static final C LIBC = Native.load("c", C.class);
    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 1;
    private static final int O_RDWR = 2;
    private static final int O_TRUNC = 01000;           // asm-generic/fcntl.h (same on x86_64 and aarch64)
    private static final int PROT_READ = 1;
    private static final int PROT_WRITE = 2;
    private static final int MAP_SHARED = 1;
    private static final int MS_SYNC = 4;
    private static final int AT_FDCWD = -100;
    private static final int RENAME_EXCHANGE = 2;        // linux/fs.h
    private static final byte[] PWNED = "pwned\n".getBytes(StandardCharsets.US_ASCII);

    private AttackMain() {
    }

    public static void main(String[] args) {
        Path proj = Path.of(args[0]);
        String p = proj.toString() + "/";
        report("j-truncate", LIBC.truncate(p + "f-jtruncate", 0));
        int fd = LIBC.open(p + "f-jotrunc", O_RDONLY | O_TRUNC, 0);
        report("j-rdonly-otrunc", fd);
        closeQuietly(fd);
        fd = LIBC.open(p + "f-jftruncate", O_WRONLY, 0);
        report("j-ftruncate", fd < 0 ? fd : LIBC.ftruncate(fd, 0));
        closeQuietly(fd);
        report("j-procfd-reopen", procFdReopen(p + "f-procfd"));
        report("j-mmap-rdonly-fd", mmapWrite(p + "f-mmap", O_RDONLY));
        report("j-mmap-rdwr-fd", mmapWrite(p + "f-mmap2", O_RDWR));
        report("j-filechannel-map", fileChannelMap(proj.resolve("f-mmap3")));
        report("j-link-then-write", linkThenWrite(proj.resolve("f-jlink"), proj.resolve("src/jlink")));
        report("j-open-by-handle", openByHandle(p + "f-handle", p));
        report("j-exchange-sibling", LIBC.renameat2(AT_FDCWD, p + "src/evil-x", AT_FDCWD, p + "f-exchange", RENAME_EXCHANGE));
        report("j-exchange-samedir", LIBC.renameat2(AT_FDCWD, p + "notes-x.txt", AT_FDCWD, p + "f-exchange2", RENAME_EXCHANGE));
        report("j-exchange-ancestor", LIBC.renameat2(AT_FDCWD, p + "src/fake-deep", AT_FDCWD, p + "deep", RENAME_EXCHANGE));
        report("j-exchange-protected-dir", LIBC.renameat2(AT_FDCWD, p + "src/fake-locked", AT_FDCWD, p + "locked", RENAME_EXCHANGE));
    }

    private static int procFdReopen(String path) {
        int ro = LIBC.open(path, O_RDONLY, 0);
        if (ro < 0) {
            return ro;
        }
        int rw = LIBC.open("/proc/self/fd/" + ro, O_WRONLY | O_TRUNC, 0);
        int rc = rw < 0 ? rw : (int) LIBC.write(rw, PWNED, PWNED.length);
        closeQuietly(rw);
        closeQuietly(ro);
        return rc < 0 ? rc : 0;
    }

    /**
     * open_by_handle_at(2) opens a file without walking its path (needs CAP_DAC_READ_SEARCH, so it only bites as
     * root). struct file_handle: u32 handle_bytes, s32 handle_type, then the opaque handle.
     */
    private static int openByHandle(String path, String dir) {
        com.sun.jna.Memory handle = new com.sun.jna.Memory(8 + 128);
        handle.clear();
        handle.setInt(0, 128);
        int[] mountId = new int[1];
        if (LIBC.name_to_handle_at(AT_FDCWD, path, handle, mountId, 0) != 0) {
            return -1;
        }
        int mountFd = LIBC.open(dir, O_RDONLY, 0);
        if (mountFd < 0) {
            return mountFd;
        }
        int fd = LIBC.open_by_handle_at(mountFd, handle, O_WRONLY | O_TRUNC);
        closeQuietly(mountFd);
        if (fd < 0) {
            return fd;
        }
        int rc = (int) LIBC.write(fd, PWNED, PWNED.length);
        closeQuietly(fd);
        return rc < 0 ? rc : 0;
    }

    private static int mmapWrite(String path, int mode) {
        int fd = LIBC.open(path, mode, 0);
        if (fd < 0) {
            return fd;
        }
        try {
            Pointer m = LIBC.mmap(null, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (Pointer.nativeValue(m) == -1L) {
                return -1;
            }
            m.write(0, PWNED, 0, PWNED.length);
            return LIBC.msync(m, 4096, MS_SYNC);
        } finally {
            closeQuietly(fd);
        }
    }

    private static int fileChannelMap(Path path) {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_WRITE, 0, ch.size());
            b.put(ByteBuffer.wrap(PWNED, 0, Math.min(PWNED.length, (int) ch.size())));
            b.force();
            return 0;
        } catch (Exception e) {
            return errnoOf(e);
        }
    }

    private static int linkThenWrite(Path target, Path link) {
        try {
            Files.createLink(link, target);
            Files.write(link, PWNED);
            return 0;
        } catch (Exception e) {
            return errnoOf(e);
        }
    }

    private static int errnoOf(Exception e) {
        System.out.println("# " + e);
        return -1;
    }

    private static void report(String name, int rc) {
        System.out.println("RESULT " + name + " " + (rc < 0 ? "errno=" + Native.getLastError() : "0"));
    }

    private static void closeQuietly(int fd) {
        if (fd >= 0) {
            LIBC.close(fd);
        }
    }
}
