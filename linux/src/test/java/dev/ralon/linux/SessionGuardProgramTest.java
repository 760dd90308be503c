package dev.ralon.linux;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The session guard's filter decisions for the architectures this machine cannot produce for real, run with the
 * interpreter of {@link TerminalGuardProgramTest}. The real filter on the real kernel is tested end to end in the cli
 * module ({@code SessionHelpersE2ETest}: a tmux server, an abstract socket, D-Bus outside).
 */
class SessionGuardProgramTest {
    static final int ALLOW = TerminalGuard.SECCOMP_RET_ALLOW;
    static final int DENY = TerminalGuard.SECCOMP_RET_ERRNO | LinuxAbi.EPERM;
    static final int KILL = TerminalGuard.SECCOMP_RET_KILL_PROCESS;
    static final int X32 = TerminalGuard.X32_SYSCALL_BIT;

    static byte[] data(int arch, int nr, long arg0) {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
        b.putInt(0, nr).putInt(4, arch).putLong(16, arg0);
        return b.array();
    }

    static int run(byte[] data) {
        int[][] prog = SessionGuard.instructions();
        ByteBuffer d = ByteBuffer.wrap(data).order(ByteOrder.nativeOrder());
        int acc = 0;
        for (int pc = 0; pc < prog.length; ) {
            int[] i = prog[pc];
            switch (i[0]) {
                case 0x20 -> {
                    acc = d.getInt(i[3]);
                    pc++;
                }
                case 0x15 -> pc += 1 + (acc == i[3] ? i[1] : i[2]);
                case 0x06 -> {
                    return i[3];
                }
                default -> throw new AssertionError("unexpected opcode " + i[0]);
            }
        }
        throw new AssertionError("fell off the end of the program");
    }

    @Test
    void unixSocketsAreRefusedOnEveryArchitectureAndAbiWhateverTheHighBits() {
        for (long family : new long[] {1, 0x100000001L, 0xFFFFFFFF00000001L}) {
            String f = Long.toHexString(family);
            assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_X86_64, 41, family)), "x86_64 " + f);
            assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_X86_64, X32 | 41, family)), "x32 " + f);
            assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_AARCH64, 198, family)), "aarch64 " + f);
            assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_I386, 359, family)), "i386 " + f);
            assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_ARM, 281, family)), "arm " + f);
        }
    }

    @Test
    void socketcallAndIoUringAreRefusedWhole() {
        assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_I386, 102, 0)), "i386 socketcall");
        assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_ARM, 102, 0)), "arm socketcall (OABI only)");
        assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_X86_64, 425, 0)), "x86_64 io_uring_setup");
        assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_X86_64, X32 | 425, 0)), "x32 io_uring_setup");
        assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_AARCH64, 425, 0)), "aarch64 io_uring_setup");
        assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_I386, 425, 0)), "i386 io_uring_setup");
        assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_ARM, 425, 0)), "arm io_uring_setup");
    }

    @Test
    void otherFamiliesSocketpairAndOtherTablesNumbersAreAllowed() {
        assertEquals(ALLOW, run(data(TerminalGuard.AUDIT_ARCH_X86_64, 41, 2)), "AF_INET");
        assertEquals(ALLOW, run(data(TerminalGuard.AUDIT_ARCH_X86_64, 41, 10)), "AF_INET6");
        assertEquals(ALLOW, run(data(TerminalGuard.AUDIT_ARCH_X86_64, 53, 1)), "x86_64 socketpair(AF_UNIX)");
        assertEquals(ALLOW, run(data(TerminalGuard.AUDIT_ARCH_AARCH64, 199, 1)), "aarch64 socketpair(AF_UNIX)");
        assertEquals(ALLOW, run(data(TerminalGuard.AUDIT_ARCH_AARCH64, 41, 1)), "aarch64 41 is not socket");
        assertEquals(ALLOW, run(data(TerminalGuard.AUDIT_ARCH_ARM, 359, 1)), "arm 359 is pipe2");
        assertEquals(ALLOW, run(data(TerminalGuard.AUDIT_ARCH_I386, 281, 1)), "i386 281 is not socket");
        assertEquals(ALLOW, run(data(TerminalGuard.AUDIT_ARCH_X86_64, 102, 1)), "x86_64 102 is getuid");
        assertEquals(KILL, run(data(0x12345678, 41, 1)), "unknown architecture");
    }
}
