package dev.ralon.linux;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The filter's decisions for the cases this machine cannot produce for real (x32, i386, aarch64 and ARM system calls,
 * an unknown architecture), by running the program over {@code struct seccomp_data} the way the kernel's classic BPF
 * interpreter does for the three instructions it uses (net/core/filter.c: LD|W|ABS loads 32 bits, JEQ|K compares,
 * RET|K returns). The real filter on the real kernel is tested end to end in the cli-e2e module
 * ({@code TerminalInjectionE2ETest}: TIOCSTI, TIOCSTI with high bits and TIOCLINUX on a real pty).
 */
class TerminalGuardProgramTest {
    static final int ALLOW = TerminalGuard.SECCOMP_RET_ALLOW;
    static final int DENY = TerminalGuard.SECCOMP_RET_ERRNO | LinuxAbi.EPERM;
    static final int KILL = TerminalGuard.SECCOMP_RET_KILL_PROCESS;

    /** struct seccomp_data { int nr; u32 arch; u64 ip; u64 args[6]; } in the machine's byte order. */
    static byte[] data(int arch, int nr, long request) {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
        b.putInt(0, nr).putInt(4, arch).putLong(16, 0).putLong(24, request);
        return b.array();
    }

    static int run(byte[] data) {
        int[][] prog = TerminalGuard.instructions();
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
    void tiocstiAndTioclinuxAreRefusedOnEveryArchitectureAndAbi() {
        int x86 = TerminalGuard.AUDIT_ARCH_X86_64;
        for (long req : new long[] {0x5412, 0x541C, 0x100005412L, 0xFFFFFFFF00005412L, 0x10000541CL}) {
            assertEquals(DENY, run(data(x86, 16, req)), "x86_64 ioctl " + Long.toHexString(req));
            assertEquals(DENY, run(data(x86, 0x40000000 | 514, req)), "x32 ioctl");
            assertEquals(DENY, run(data(x86, 0x40000000 | 16, req)), "x32 bit on the 64-bit number");
            assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_AARCH64, 29, req)), "aarch64");
            assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_I386, 54, req)), "i386 (int 0x80)");
            assertEquals(DENY, run(data(TerminalGuard.AUDIT_ARCH_ARM, 54, req)), "arm");
        }
    }

    @Test
    void everythingElseIsAllowedAndAnUnknownArchitectureKills() {
        int x86 = TerminalGuard.AUDIT_ARCH_X86_64;
        assertEquals(ALLOW, run(data(x86, 16, 0x5413)), "TIOCGWINSZ-like neighbours stay allowed");
        assertEquals(ALLOW, run(data(x86, 16, 0x540F)), "TIOCGPGRP (job control)");
        assertEquals(ALLOW, run(data(x86, 16, 0x5410)), "TIOCSPGRP (job control)");
        assertEquals(ALLOW, run(data(x86, 0, 0x5412)), "read(2) with the same argument");
        assertEquals(ALLOW, run(data(TerminalGuard.AUDIT_ARCH_AARCH64, 16, 0x5412)), "aarch64 nr 16 is not ioctl");
        assertEquals(ALLOW, run(data(TerminalGuard.AUDIT_ARCH_I386, 16, 0x5412)), "i386 nr 16 is not ioctl");
        assertEquals(KILL, run(data(0x12345678, 16, 0x5412)), "unknown architecture");
        assertTrue(TerminalGuard.instructions().length <= 255, "jump offsets fit in a byte");
    }
}
