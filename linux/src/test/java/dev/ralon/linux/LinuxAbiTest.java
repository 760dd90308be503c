package dev.ralon.linux;

import com.sun.jna.Native;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared constants against the running kernel: the architecture-dependent open flags must make the kernel do what
 * their names say on this machine (a wrong O_NOFOLLOW would follow a link the backends mean to bind or refuse), and
 * both names of 64-bit ARM select its values.
 */
class LinuxAbiTest {
    @TempDir
    Path dir;

    @Test
    void bothNamesOf64BitArmAreArm() {
        assertTrue(LinuxAbi.isArm64("aarch64"));
        assertTrue(LinuxAbi.isArm64("arm64"));
        assertTrue(LinuxAbi.isArm64("AArch64"));
        assertFalse(LinuxAbi.isArm64("amd64"));
        assertFalse(LinuxAbi.isArm64("x86_64"));
        assertFalse(LinuxAbi.isArm64("arm"));
        assertEquals(LinuxAbi.isArm64(System.getProperty("os.arch")), LinuxAbi.ARM64);
    }

    @Test
    void openFlagsMeanWhatTheySayOnThisKernel() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        Path link = Files.createSymbolicLink(dir.resolve("l"), file);
        // O_PATH|O_NOFOLLOW opens the link itself: statx reports a link, not the file it points to
        int fd = LibC.openat(LinuxAbi.AT_FDCWD, c(link), LinuxAbi.O_PATH | LinuxAbi.O_NOFOLLOW | LinuxAbi.O_CLOEXEC);
        assertTrue(fd >= 0, Errno.text(Native.getLastError()));
        try {
            byte[] stx = new byte[256];
            assertEquals(0, LibC.statx(fd, new byte[] {0}, LinuxAbi.AT_EMPTY_PATH, 0x1, stx));
            int mode = (stx[28] & 0xff) | (stx[29] & 0xff) << 8; // stx_mode, little-endian on x86_64 and aarch64
            assertEquals(LinuxAbi.S_IFLNK, mode & LinuxAbi.S_IFMT);
        } finally {
            LibC.close(fd);
        }
        // O_DIRECTORY refuses a regular file with ENOTDIR
        assertEquals(-1, LibC.openat(LinuxAbi.AT_FDCWD, c(file), LinuxAbi.O_RDONLY | LinuxAbi.O_DIRECTORY));
        assertEquals(LinuxAbi.ENOTDIR, Native.getLastError());
        // O_NOFOLLOW without O_PATH refuses a final link with ELOOP
        assertEquals(-1, LibC.openat(LinuxAbi.AT_FDCWD, c(link), LinuxAbi.O_RDONLY | LinuxAbi.O_NOFOLLOW));
        assertEquals(LinuxAbi.ELOOP, Native.getLastError());
    }

    @Test
    void errnoTextNamesTheErrorAndItsNumber() {
        assertEquals("No such file or directory (errno 2)", Errno.text(LinuxAbi.ENOENT));
        assertTrue(Errno.text(4095).endsWith("(errno 4095)"), Errno.text(4095));
    }

    private static byte[] c(Path p) {
        byte[] b = p.toString().getBytes(StandardCharsets.UTF_8);
        byte[] z = new byte[b.length + 1];
        System.arraycopy(b, 0, z, 0, b.length);
        return z;
    }
}
