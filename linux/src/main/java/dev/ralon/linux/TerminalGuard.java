package dev.ralon.linux;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.nio.ByteOrder;

/**
 * A seccomp filter that makes {@code ioctl(fd, TIOCSTI, …)} and {@code ioctl(fd, TIOCLINUX, …)} fail with EPERM in
 * the calling thread and everything it execs or spawns, and allows every other system call.
 *
 * <p>Why: {@code ralon run} keeps the user's terminal (same process, same foreground process group), so without this
 * the command could push {@code echo PWNED > secret.txt\n} into the terminal's input queue with TIOCSTI, one byte
 * per call (tty_ioctl(4)); the user's interactive shell reads and runs it, outside any sandbox, once the command
 * returns. TIOCLINUX (ioctl_console(2), subcode 2/3: selection and paste) injects on a virtual console. Since Linux
 * 6.2 {@code dev.tty.legacy_tiocsti=0} makes TIOCSTI need CAP_SYS_ADMIN (drivers/tty/tty_io.c {@code tiocsti()}), but
 * many distributions keep 1, and root has the capability anyway. A new session ({@code setsid}) would also stop it
 * but loses job control; this is bubblewrap's and Flatpak's answer instead (CVE-2017-5226).
 *
 * <h2>The filter (classic BPF over {@code struct seccomp_data}, include/uapi/linux/seccomp.h)</h2>
 * <ol>
 *   <li>The architecture field first: x86_64, i386 (a 64-bit process can make i386 system calls with {@code int
 *       0x80}, and 32-bit programs run on x86_64 kernels), aarch64 and 32-bit ARM each have their own ioctl number;
 *       any other architecture value kills the process (a filter that only knows numbers of another table would
 *       otherwise let everything through).</li>
 *   <li>x86_64: number 16; x32 system calls carry {@code __X32_SYSCALL_BIT} (0x40000000) on top of their number,
 *       and x32's ioctl is 514 (arch/x86/entry/syscalls/syscall_64.tbl); both {@code 16|X32} and {@code 514|X32}
 *       are checked. aarch64: 29 (include/uapi/asm-generic/unistd.h). i386 and ARM EABI: 54.</li>
 *   <li>The request: only the <em>low 32 bits</em> of args[1] are compared. The kernel's ioctl takes the request as
 *       {@code unsigned int} (fs/ioctl.c), so {@code 0x100005412} is TIOCSTI to the kernel; a filter comparing 64
 *       bits is bypassed with high bits set (Flatpak CVE-2019-10063). TIOCSTI is 0x5412, TIOCLINUX 0x541C on every
 *       architecture here (include/uapi/asm-generic/ioctls.h; x86 and arm64 use the generic values).</li>
 * </ol>
 *
 * <h2>Installation</h2>
 * seccomp(2): a filter is per thread, inherited by children and kept across execve(2); it can never be removed.
 * Installing one needs CAP_SYS_ADMIN in the caller's user namespace, or no_new_privs. So {@link #install()} first
 * tries without no_new_privs (root, or root of the mount backend's first user namespace, keeps set-user-ID programs
 * as they were); only when the kernel answers EACCES does it set {@code PR_SET_NO_NEW_PRIVS} (prctl(2)) and retry.
 * Must run on the thread that then execs: {@link Exec#replaceProcess} calls it last, just before execve.
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("installed by Exec; enforcers do not call it")
public final class TerminalGuard {
    /** ioctl requests refused (include/uapi/asm-generic/ioctls.h). */
    public static final int TIOCSTI = 0x5412;
    public static final int TIOCLINUX = 0x541C;

    // include/uapi/linux/audit.h: AUDIT_ARCH_* = EM_* | __AUDIT_ARCH_64BIT (0x80000000) | __AUDIT_ARCH_LE (0x40000000)
    static final int AUDIT_ARCH_X86_64 = 0xC000003E;
    static final int AUDIT_ARCH_I386 = 0x40000003;
    static final int AUDIT_ARCH_AARCH64 = 0xC00000B7;
    static final int AUDIT_ARCH_ARM = 0x40000028;
    static final int X32_SYSCALL_BIT = 0x40000000;
    static final int NR_IOCTL_X86_64 = 16;
    static final int NR_IOCTL_X32 = X32_SYSCALL_BIT | 514;
    static final int NR_IOCTL_AARCH64 = 29;
    static final int NR_IOCTL_32BIT = 54; // i386 and ARM EABI

    // include/uapi/linux/seccomp.h
    static final int SECCOMP_RET_KILL_PROCESS = 0x80000000;
    static final int SECCOMP_RET_ERRNO = 0x00050000;
    static final int SECCOMP_RET_ALLOW = 0x7FFF0000;
    static final int SECCOMP_MODE_FILTER = 2;

    // include/uapi/linux/bpf_common.h / filter.h
    private static final short LD_W_ABS = 0x20;  // BPF_LD | BPF_W | BPF_ABS
    private static final short JEQ_K = 0x15;     // BPF_JMP | BPF_JEQ | BPF_K
    private static final short RET_K = 0x06;     // BPF_RET | BPF_K

    // struct seccomp_data { int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]; }
    private static final int OFF_NR = 0;
    private static final int OFF_ARCH = 4;
    /** args[1] is at 24; its low 32 bits come first on a little-endian machine, second on a big-endian one. */
    private static final int OFF_ARG1_LOW = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? 24 : 28;

    private TerminalGuard() {
    }

    /**
     * Installs the filter on the calling thread (see the class comment for no_new_privs).
     *
     * @throws ExecException when the kernel refuses it: the command must not start without it
     */
    public static void install() throws ExecException {
        installFilter(filterMemory(instructions()), "cannot block terminal injection (TIOCSTI)");
    }

    /**
     * Installs {@code filter} (see the class comment for no_new_privs); {@code what} starts the refusal's message.
     * Shared with {@link SessionGuard}.
     */
    static void installFilter(Memory filter, String what) throws ExecException {
        Memory fprog = new Memory(16); // struct sock_fprog { unsigned short len; struct sock_filter *filter; }
        fprog.clear();
        fprog.setShort(0, (short) (filter.size() / 8));
        fprog.setPointer(8, filter);
        try {
            long prog = Pointer.nativeValue(fprog);
            if (LibC.prctl(LinuxAbi.PR_SET_SECCOMP, SECCOMP_MODE_FILTER, prog, 0, 0) != 0) {
                int errno = Native.getLastError();
                if (errno != LinuxAbi.EACCES) {
                    throw refused(what, errno);
                }
                // no CAP_SYS_ADMIN in this user namespace: the kernel requires no_new_privs (seccomp(2))
                if (LibC.prctl(LinuxAbi.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                        || LibC.prctl(LinuxAbi.PR_SET_SECCOMP, SECCOMP_MODE_FILTER, prog, 0, 0) != 0) {
                    throw refused(what, Native.getLastError());
                }
            }
        } finally {
            java.lang.ref.Reference.reachabilityFence(filter);
            java.lang.ref.Reference.reachabilityFence(fprog);
        }
    }

    private static ExecException refused(String what, int errno) {
        return new ExecException(what + " with a seccomp filter: "
                + Errno.text(errno) + "; refusing to start the command");
    }

    /** The filter as the kernel reads it: 8 bytes per instruction, in the machine's byte order. */
    static Memory filterMemory(int[][] prog) {
        Memory m = new Memory(prog.length * 8L);
        for (int i = 0; i < prog.length; i++) {
            long base = i * 8L;
            m.setShort(base, (short) prog[i][0]);
            m.setByte(base + 2, (byte) prog[i][1]);
            m.setByte(base + 3, (byte) prog[i][2]);
            m.setInt(base + 4, prog[i][3]);
        }
        return m;
    }

    /**
     * {code, jt, jf, k} for each instruction. Layout (a jump names its target; the kernel's offsets are relative to
     * the next instruction, computed by {@link #jeq}):
     * <pre>
     *  0 ld arch
     *  1 jeq X86_64 -> 6;  2 jeq AARCH64 -> 10;  3 jeq I386 -> 12;  4 jeq ARM -> 12
     *  5 ret KILL_PROCESS                                    unknown architecture
     *  6 ld nr; 7 jeq 16 -> 14; 8 jeq 16|X32 -> 14; 9 jeq 514|X32 -> 14 else 17      x86_64, x32
     * 10 ld nr; 11 jeq 29 -> 14 else 17                                              aarch64
     * 12 ld nr; 13 jeq 54 -> 14 else 17                                              i386, ARM
     * 14 ld low 32 bits of args[1]; 15 jeq TIOCSTI -> 18; 16 jeq TIOCLINUX -> 18 else 17
     * 17 ret ALLOW
     * 18 ret ERRNO(EPERM)
     * </pre>
     */
    static int[][] instructions() {
        final int check = 14;
        final int allow = 17;
        final int deny = 18;
        return new int[][] {
                ld(OFF_ARCH),
                jeq(1, AUDIT_ARCH_X86_64, 6, 2),
                jeq(2, AUDIT_ARCH_AARCH64, 10, 3),
                jeq(3, AUDIT_ARCH_I386, 12, 4),
                jeq(4, AUDIT_ARCH_ARM, 12, 5),
                ret(SECCOMP_RET_KILL_PROCESS),
                ld(OFF_NR),
                jeq(7, NR_IOCTL_X86_64, check, 8),
                jeq(8, X32_SYSCALL_BIT | NR_IOCTL_X86_64, check, 9),
                jeq(9, NR_IOCTL_X32, check, allow),
                ld(OFF_NR),
                jeq(11, NR_IOCTL_AARCH64, check, allow),
                ld(OFF_NR),
                jeq(13, NR_IOCTL_32BIT, check, allow),
                ld(OFF_ARG1_LOW),
                jeq(15, TIOCSTI, deny, 16),
                jeq(16, TIOCLINUX, deny, allow),
                ret(SECCOMP_RET_ALLOW),
                ret(SECCOMP_RET_ERRNO | LinuxAbi.EPERM),
        };
    }

    static int[] ld(int offset) {
        return new int[] {LD_W_ABS, 0, 0, offset};
    }

    /** A conditional jump at index {@code at} to {@code ifEqual} or {@code ifNot} (absolute indexes, forward only). */
    static int[] jeq(int at, int k, int ifEqual, int ifNot) {
        int jt = ifEqual - at - 1;
        int jf = ifNot - at - 1;
        if (jt < 0 || jf < 0 || jt > 255 || jf > 255) {
            throw new IllegalStateException("bad BPF jump at " + at);
        }
        return new int[] {JEQ_K, jt, jf, k};
    }

    static int[] ret(int k) {
        return new int[] {RET_K, 0, 0, k};
    }
}
