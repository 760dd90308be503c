package dev.ralon.linux;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Seccomp user notification (seccomp_unotify(2)): a filter whose chosen system calls suspend the caller in the kernel
 * and are answered by another process, which holds the filter's listener descriptor. The foundation of the landlock
 * backend's broker (docs/backend-landlock.md, "The broker", planned): a process outside the Landlock domain performs,
 * or refuses, what the domain would over-block.
 *
 * <h2>Kernel facts this code depends on (seccomp_unotify(2), include/uapi/linux/seccomp.h,
 * kernel/seccomp.c)</h2>
 * <ul>
 *   <li>{@code seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, prog)} returns the listener (close
 *       on exec); the filter is the calling thread's and its children's, kept across execve(2).</li>
 *   <li>A call the filter answers with {@code SECCOMP_RET_USER_NOTIF} waits until the listener answers it. When no
 *       listener descriptor is left open anywhere, every such call fails with ENOSYS at once, the waiting ones too:
 *       a dead broker fails closed, it never lets a call through.</li>
 *   <li>{@code SECCOMP_IOCTL_NOTIF_RECV} reads one notification (id, pid, the {@code struct seccomp_data});
 *       {@code SECCOMP_IOCTL_NOTIF_SEND} answers it with a value and an errno, or with
 *       {@code SECCOMP_USER_NOTIF_FLAG_CONTINUE} (Linux 5.5): the kernel then runs the call as if there were no
 *       filter, which is safe only where the kernel's own checks (here, Landlock) still decide.</li>
 *   <li>The arguments are the caller's registers; a path argument is an address in the caller's memory, which
 *       another thread of the caller can change at any time. The broker reads it once ({@link #readString}), checks
 *       {@code SECCOMP_IOCTL_NOTIF_ID_VALID} afterwards (the caller is still the one that made the call: its pid was
 *       not reused), and judges and acts on the copy it read, never on the caller's memory again.</li>
 *   <li>Sizes: {@code struct seccomp_notif} is 80 bytes and {@code struct seccomp_notif_resp} 24 on every kernel
 *       so far; {@code SECCOMP_GET_NOTIF_SIZES} is asked and a kernel that reports other sizes is refused
 *       ({@link #checkSizes}), rather than read with a wrong layout.</li>
 * </ul>
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("the landlock backend's broker; enforcers do not call it")
public final class SeccompNotify {
    /** seccomp(2): 317 on x86_64 (arch/x86/entry/syscalls/syscall_64.tbl), 277 on aarch64 (asm-generic/unistd.h). */
    static final long SYS_SECCOMP = LinuxAbi.ARM64 ? 277 : 317;
    /** pidfd_open(2), Linux 5.3, and pidfd_getfd(2), Linux 5.6: one table for both architectures. */
    static final long SYS_PIDFD_OPEN = 434;
    static final long SYS_PIDFD_GETFD = 438;

    static final int SECCOMP_SET_MODE_FILTER = 1;
    static final int SECCOMP_GET_NOTIF_SIZES = 3;
    static final long SECCOMP_FILTER_FLAG_NEW_LISTENER = 1L << 3;
    public static final int SECCOMP_RET_USER_NOTIF = 0x7FC00000;
    public static final int SECCOMP_USER_NOTIF_FLAG_CONTINUE = 1;

    // _IOC(dir, '!', nr, size) (include/uapi/asm-generic/ioctl.h; the same encoding on x86_64 and arm64):
    // dir << 30 | size << 16 | 0x21 << 8 | nr, with dir 3 = read|write, 1 = write.
    static final long NOTIF_RECV = 0xC0502100L;     // SECCOMP_IOWR(0, struct seccomp_notif), 80 bytes
    static final long NOTIF_SEND = 0xC0182101L;     // SECCOMP_IOWR(1, struct seccomp_notif_resp), 24 bytes
    static final long NOTIF_ID_VALID = 0x40082102L; // SECCOMP_IOW(2, __u64)
    static final long NOTIF_ADDFD = 0x40182103L;    // SECCOMP_IOW(3, struct seccomp_notif_addfd), 24 bytes
    /** SECCOMP_ADDFD_FLAG_SEND (Linux 5.14): add the descriptor and answer the call with its number, atomically. */
    static final int ADDFD_FLAG_SEND = 1 << 1;
    static final int NOTIF_SIZE = 80;
    static final int RESP_SIZE = 24;
    /** The longest path the broker reads (PATH_MAX, include/uapi/linux/limits.h, with its NUL). */
    public static final int PATH_MAX = 4096;

    private SeccompNotify() {
    }

    /**
     * One suspended call: its id, the caller's pid, and {@code struct seccomp_data}'s fields.
     *
     * @param id   the notification's id, for {@link #answer} and {@link #stillWaiting}
     * @param pid  the caller's thread id, as the listener's PID namespace sees it
     * @param nr   the system call's number
     * @param arch the AUDIT_ARCH_* value of the call
     * @param args its six arguments, as registers
     */
    public record Call(long id, int pid, int nr, int arch, long[] args) {
        /** A copy of the arguments: the record keeps its own. */
        public Call {
            args = args.clone();
        }

        @Override
        public long[] args() {
            return args.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Call c && c.id == id && c.pid == pid && c.nr == nr && c.arch == arch
                    && Arrays.equals(c.args, args);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(id) * 31 + Arrays.hashCode(args);
        }

        @Override
        public String toString() {
            return "Call[id=" + id + ", pid=" + pid + ", nr=" + nr + ", args=" + Arrays.toString(args) + "]";
        }
    }

    /**
     * A system call the filter sends to the listener: always ({@code flagsArgument} -1), or only when the low 32
     * bits of argument {@code flagsArgument} have a bit of {@code mask} set (open's flags: the read-only opens, by
     * far the most frequent, then never wait for a broker).
     */
    public record Notified(int nr, int flagsArgument, int mask) {
        public static Notified always(int nr) {
            return new Notified(nr, -1, 0);
        }

        public static Notified whenFlags(int nr, int argument, int mask) {
            return new Notified(nr, argument, mask);
        }
    }

    /** {@link #programOf} with every call in {@code notified} notified always. */
    public static int[][] program(List<Integer> notified) {
        return programOf(notified.stream().map(Notified::always).toList());
    }

    /**
     * A filter program: each call in {@code notified}, on the machine's own architecture, gets
     * {@code SECCOMP_RET_USER_NOTIF} (under its flag condition); every other call is allowed; a call of another
     * architecture (i386's {@code int 0x80}, x32) is refused with ENOSYS, so that no number of another table slips
     * past. {code, jt, jf, k} per instruction, as {@link TerminalGuard#filterMemory} writes them. Layout (every jump
     * forward):
     * <pre>
     *  0 ld arch; 1 jeq ARCH -> 3 else 2; 2 ret ERRNO(ENOSYS); 3 ld nr
     *  4 .. 4+n-1       jeq nr_i -> notify, or -> its check block; else the next (the last: else allow)
     *  then, per conditional call: ld low 32 bits of the argument; jset mask -> notify else allow
     *  allow: ret ALLOW; notify: ret USER_NOTIF
     * </pre>
     */
    public static int[][] programOf(List<Notified> notified) {
        int n = notified.size();
        if (n == 0 || n > 60) {
            throw new IllegalArgumentException("between 1 and 60 system calls: " + n);
        }
        int arch = LinuxAbi.ARM64 ? TerminalGuard.AUDIT_ARCH_AARCH64 : TerminalGuard.AUDIT_ARCH_X86_64;
        int conditional = (int) notified.stream().filter(c -> c.flagsArgument() >= 0).count();
        final int checks = 4 + n;
        final int allow = checks + 2 * conditional;
        final int notify = allow + 1;
        int[][] prog = new int[notify + 1][];
        prog[0] = TerminalGuard.ld(4);
        prog[1] = TerminalGuard.jeq(1, arch, 3, 2);
        prog[2] = TerminalGuard.ret(TerminalGuard.SECCOMP_RET_ERRNO | LinuxAbi.ENOSYS);
        prog[3] = TerminalGuard.ld(0);
        int block = checks;
        for (int i = 0; i < n; i++) {
            Notified c = notified.get(i);
            int at = 4 + i;
            int next = i == n - 1 ? allow : at + 1;
            if (c.flagsArgument() < 0) {
                prog[at] = TerminalGuard.jeq(at, c.nr(), notify, next);
            } else {
                if (c.flagsArgument() > 5) {
                    throw new IllegalArgumentException("argument " + c.flagsArgument());
                }
                prog[at] = TerminalGuard.jeq(at, c.nr(), block, next);
                // struct seccomp_data: args[k] at 16 + 8k; its low 32 bits first on a little-endian machine
                int off = 16 + 8 * c.flagsArgument() + (java.nio.ByteOrder.nativeOrder()
                        == java.nio.ByteOrder.LITTLE_ENDIAN ? 0 : 4);
                prog[block] = TerminalGuard.ld(off);
                prog[block + 1] = jset(block + 1, c.mask(), notify, allow);
                block += 2;
            }
        }
        prog[allow] = TerminalGuard.ret(TerminalGuard.SECCOMP_RET_ALLOW);
        prog[notify] = TerminalGuard.ret(SECCOMP_RET_USER_NOTIF);
        return prog;
    }

    /** BPF_JMP | BPF_JSET | BPF_K: jump to {@code ifSet} when {@code A & k} is not 0 (absolute, forward indexes). */
    static int[] jset(int at, int k, int ifSet, int ifNot) {
        int[] j = TerminalGuard.jeq(at, k, ifSet, ifNot);
        j[0] = 0x45;
        return j;
    }

    /**
     * Installs {@code program} on the calling thread and returns the listener descriptor (close on exec). Sets
     * no_new_privs first when the kernel asks for it (seccomp(2): without CAP_SYS_ADMIN in the caller's user
     * namespace, EACCES).
     *
     * @throws ExecException when the kernel refuses the filter
     */
    public static int install(int[][] program) throws ExecException {
        checkSizes();
        Memory filter = TerminalGuard.filterMemory(program);
        Memory fprog = new Memory(16); // struct sock_fprog { unsigned short len; struct sock_filter *filter; }
        fprog.clear();
        fprog.setShort(0, (short) program.length);
        fprog.setPointer(8, filter);
        try {
            long prog = Pointer.nativeValue(fprog);
            try {
                return (int) LibC.syscall(SYS_SECCOMP, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, prog);
            } catch (LastErrorException e) {
                if (e.getErrorCode() != LinuxAbi.EACCES) {
                    throw refused(e.getErrorCode());
                }
            }
            if (LibC.prctl(LinuxAbi.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
                throw refused(Native.getLastError());
            }
            try {
                return (int) LibC.syscall(SYS_SECCOMP, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, prog);
            } catch (LastErrorException e) {
                throw refused(e.getErrorCode());
            }
        } finally {
            java.lang.ref.Reference.reachabilityFence(filter);
            java.lang.ref.Reference.reachabilityFence(fprog);
        }
    }

    /** The filter and the channel to hand its listener over on, armed by a backend for the exec ({@link #arm}). */
    private static volatile int[][] armedProgram;
    private static volatile int armedChannel = -1;

    /**
     * Arms the hand-over {@link Exec} makes as its last step before execve(2) ({@link #handOverBeforeExec}): the
     * filter {@code program} is installed on the exec'ing thread, its listener sent over {@code channel} (one
     * message {@code "L"} with the descriptor, {@link DescriptorChannel}) to the broker at the other end, and both
     * closed, so the command never holds its own listener.
     */
    public static void arm(int channel, int[][] program) {
        armedProgram = program.clone();
        armedChannel = channel;
    }

    /**
     * For {@link Exec}, after every other guard and just before execve: installs the armed filter and hands its
     * listener over (see {@link #arm}); nothing when none was armed. Nothing after it on this thread may make a call
     * the filter sends (execve is not one).
     *
     * @throws ExecException when the filter or the hand-over fails: the command must not start
     */
    static void handOverBeforeExec() throws ExecException {
        int[][] program = armedProgram;
        int channel = armedChannel;
        if (program == null || channel < 0) {
            return;
        }
        armedProgram = null;
        armedChannel = -1;
        int listener = install(program);
        try {
            DescriptorChannel.send(channel, new byte[] {'L'}, listener);
        } catch (IOException e) {
            throw new ExecException("cannot hand the broker its listener: " + e.getMessage());
        } finally {
            LibC.close(listener);
            LibC.close(channel);
        }
    }

    private static ExecException refused(int errno) {
        return new ExecException("cannot install the broker's seccomp filter: " + Errno.text(errno));
    }

    /**
     * Refuses a kernel without seccomp user notification, or whose notification structures are not the sizes this
     * code reads.
     */
    public static void checkSizes() throws ExecException {
        Memory sizes = new Memory(6); // struct seccomp_notif_sizes { __u16 seccomp_notif, seccomp_notif_resp, seccomp_data; }
        sizes.clear();
        try {
            LibC.syscall(SYS_SECCOMP, SECCOMP_GET_NOTIF_SIZES, 0, Pointer.nativeValue(sizes));
        } catch (LastErrorException e) {
            throw new ExecException("seccomp user notification is not available: " + Errno.text(e.getErrorCode()));
        } finally {
            java.lang.ref.Reference.reachabilityFence(sizes);
        }
        int notif = sizes.getShort(0) & 0xFFFF;
        int resp = sizes.getShort(2) & 0xFFFF;
        if (notif != NOTIF_SIZE || resp != RESP_SIZE) {
            throw new ExecException("seccomp user notification: this kernel's structures are " + notif + " and " + resp
                    + " bytes, not " + NOTIF_SIZE + " and " + RESP_SIZE);
        }
    }

    /**
     * Waits at most {@code timeoutMillis} for a notification on {@code listener}: null when none came, or when the
     * listener hung up (no process is left under the filter).
     *
     * @throws IOException when the kernel fails the read for another reason
     */
    public static Call receive(int listener, int timeoutMillis) throws IOException {
        if (Poll.await(listener, timeoutMillis) != Poll.Readiness.READABLE) {
            return null; // timeout, or POLLHUP: the last process under the filter has gone
        }
        Memory n = new Memory(NOTIF_SIZE);
        n.clear(); // the kernel requires a zeroed structure (seccomp_unotify(2))
        try {
            LibC.syscall(LinuxAbi.SYS_IOCTL, listener, NOTIF_RECV, Pointer.nativeValue(n));
        } catch (LastErrorException e) {
            if (e.getErrorCode() == LinuxAbi.ENOENT) {
                return null; // the caller was interrupted before it was read (seccomp_unotify(2), ENOENT)
            }
            throw new IOException("SECCOMP_IOCTL_NOTIF_RECV: " + Errno.text(e.getErrorCode()));
        } finally {
            java.lang.ref.Reference.reachabilityFence(n);
        }
        // struct seccomp_notif { __u64 id; __u32 pid; __u32 flags; struct seccomp_data data; }
        // struct seccomp_data { int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]; } at offset 16
        long[] args = new long[6];
        for (int i = 0; i < 6; i++) {
            args[i] = n.getLong(32 + 8L * i);
        }
        return new Call(n.getLong(0), n.getInt(8), n.getInt(16), n.getInt(20), args);
    }

    /** True while the call {@code id} still waits (its caller has not been interrupted or killed). */
    public static boolean stillWaiting(int listener, long id) {
        Memory m = new Memory(8);
        m.setLong(0, id);
        try {
            LibC.syscall(LinuxAbi.SYS_IOCTL, listener, NOTIF_ID_VALID, Pointer.nativeValue(m));
            return true;
        } catch (LastErrorException e) {
            return false;
        } finally {
            java.lang.ref.Reference.reachabilityFence(m);
        }
    }

    /**
     * Answers the call {@code id}: {@code errno} 0 returns {@code value} to the caller, otherwise the call fails with
     * {@code errno}; {@code continueCall} lets the kernel run it instead (value and errno must then be 0). False when
     * the caller no longer waits.
     */
    public static boolean answer(int listener, long id, long value, int errno, boolean continueCall) {
        Memory r = new Memory(RESP_SIZE); // struct seccomp_notif_resp { __u64 id; __s64 val; __s32 error; __u32 flags; }
        r.clear();
        r.setLong(0, id);
        r.setLong(8, continueCall ? 0 : value);
        r.setInt(16, continueCall ? 0 : -errno);
        r.setInt(20, continueCall ? SECCOMP_USER_NOTIF_FLAG_CONTINUE : 0);
        try {
            LibC.syscall(LinuxAbi.SYS_IOCTL, listener, NOTIF_SEND, Pointer.nativeValue(r));
            return true;
        } catch (LastErrorException e) {
            return false; // ENOENT: the caller was interrupted or killed; nothing to answer
        } finally {
            java.lang.ref.Reference.reachabilityFence(r);
        }
    }

    /**
     * Answers the call {@code id} with a copy of this process's descriptor {@code fd} installed in the caller
     * (SECCOMP_IOCTL_NOTIF_ADDFD, Linux 5.9): the call returns the new descriptor's number, as if the caller had
     * opened it. {@code cloexec}: the new descriptor is close-on-exec. With SECCOMP_ADDFD_FLAG_SEND (Linux 5.14) adding
     * and answering are one step; an older kernel (EINVAL) gets the descriptor added, then the answer. Returns the
     * number, or -1 when the caller no longer waits or the kernel refused (errno is then the caller's answer to give).
     */
    public static int answerWithDescriptor(int listener, long id, int fd, boolean cloexec) {
        // struct seccomp_notif_addfd { __u64 id; __u32 flags; __u32 srcfd; __u32 newfd; __u32 newfd_flags; }
        Memory a = new Memory(24);
        for (int flags : new int[] {ADDFD_FLAG_SEND, 0}) {
            a.clear();
            a.setLong(0, id);
            a.setInt(8, flags);
            a.setInt(12, fd);
            a.setInt(20, cloexec ? LinuxAbi.O_CLOEXEC : 0);
            try {
                int n = (int) LibC.syscall(LinuxAbi.SYS_IOCTL, listener, NOTIF_ADDFD, Pointer.nativeValue(a));
                if (flags == 0 && !answer(listener, id, n, 0, false)) {
                    return -1;
                }
                return n;
            } catch (LastErrorException e) {
                if (flags == 0 || e.getErrorCode() != LinuxAbi.EINVAL) {
                    return -1;
                }
            } finally {
                java.lang.ref.Reference.reachabilityFence(a);
            }
        }
        return -1;
    }

    /**
     * Reads a NUL-terminated string of at most {@link #PATH_MAX} bytes at {@code address} in process {@code pid}'s
     * memory (proc(5), /proc/PID/mem; needs ptrace access to it, as its parent or the same user without Yama's
     * restriction has). Null when the string is longer or unreadable. The caller judges this copy, and checks
     * {@link #stillWaiting} after reading, so that the pid was the caller's.
     */
    public static byte[] readString(int pid, long address) {
        if (address == 0) {
            return null;
        }
        try (RandomAccessFile mem = new RandomAccessFile("/proc/" + pid + "/mem", "r")) {
            byte[] buf = new byte[PATH_MAX];
            mem.seek(address);
            int got = 0;
            while (got < buf.length) {
                int r = mem.read(buf, got, buf.length - got);
                if (r <= 0) {
                    break;
                }
                for (int i = got; i < got + r; i++) {
                    if (buf[i] == 0) {
                        return Arrays.copyOf(buf, i);
                    }
                }
                got += r;
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    /** {@link #readString} as UTF-8 text, for messages only (file names are judged as bytes). */
    public static String text(byte[] path) {
        return path == null ? null : new String(path, StandardCharsets.UTF_8);
    }

    /**
     * A copy, in this process, of descriptor {@code fd} of process {@code pid} (pidfd_open(2), pidfd_getfd(2): ptrace
     * access to {@code pid} needed), close on exec.
     *
     * @throws IOException when the kernel refuses either call
     */
    public static int copyDescriptor(int pid, int fd) throws IOException {
        int pidfd;
        try {
            pidfd = (int) LibC.syscall(SYS_PIDFD_OPEN, pid, 0, 0);
        } catch (LastErrorException e) {
            throw new IOException("pidfd_open(" + pid + "): " + Errno.text(e.getErrorCode()));
        }
        try {
            return (int) LibC.syscall(SYS_PIDFD_GETFD, pidfd, fd, 0);
        } catch (LastErrorException e) {
            throw new IOException("pidfd_getfd(" + pid + ", " + fd + "): " + Errno.text(e.getErrorCode()));
        } finally {
            LibC.close(pidfd);
        }
    }
}
