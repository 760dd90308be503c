package dev.ralon.linux;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.ralon.enforcer.spi.SessionGuarantee;

import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.Set;

/**
 * Cuts the command off from the user's processes outside the session ({@link SessionGuarantee}): no Unix socket, no
 * signal, no ptrace to a process it did not start. Installed by {@link Exec#replaceProcess} on the exec thread right
 * after {@link TerminalGuard}, for every backend the host execs.
 *
 * <p>Why: the user's helpers act for whoever reaches them. {@code tmux -S SOCK run-shell CMD} runs CMD in the user's
 * tmux server, outside any sandbox; so do the D-Bus session bus (service activation), systemd --user
 * ({@code systemd-run --user}), Docker, an X server (keystrokes into another window), gpg-agent. A JVM the user runs
 * outside opens its attach socket ({@code /tmp/.java_pid<N>}) on SIGQUIT and then loads agents for the caller
 * ({@code jcmd}). And a process of the same uid can be signalled, traced or have its memory written
 * ({@code gdb -p}, {@code /proc/PID/mem}). None of that touches a protected path, so no backend's file rules see it.
 *
 * <h2>Part 1: no Unix socket (a seccomp filter)</h2>
 * {@code socket(AF_UNIX, ...)} fails with EPERM. Checking {@code connect(2)} instead cannot work: its address is
 * behind a pointer and seccomp sees only the registers (seccomp(2): "the arguments are ... not dereferenced"), so the
 * filter refuses the one thing visible in a register, the family at creation. {@code socketpair(2)} stays allowed:
 * its two ends reach nothing outside (node, the shell's coprocesses and many runtimes use it for child stdio). Left
 * out under {@code ralon run --allow-unix-sockets} ({@link Options#refuseUnixSockets()}).
 * <ol>
 *   <li>The architecture field first, as {@link TerminalGuard} does; any other value kills the process.</li>
 *   <li>socket(2) numbers. x86_64: 41 (arch/x86/entry/syscalls/syscall_64.tbl, "common": x32 uses 41 with
 *       {@code __X32_SYSCALL_BIT} 0x40000000). aarch64: 198 (include/uapi/asm-generic/unistd.h {@code __NR_socket}).
 *       i386: 359 (arch/x86/entry/syscalls/syscall_32.tbl). ARM EABI: 281 (arch/arm/tools/syscall.tbl). The
 *       numbers of one table mean other calls in another (ARM's 359 is pipe2), so each architecture has its own
 *       branch.</li>
 *   <li>{@code socketcall(2)} (102 in syscall_32.tbl; "oabi" only in arch/arm/tools/syscall.tbl, so ENOSYS under
 *       EABI anyway) is refused whole: it takes the call's arguments behind a pointer, so the family cannot be seen.
 *       glibc on i386 uses the direct calls since Linux 4.3 (359 and friends) when the kernel has them.</li>
 *   <li>{@code io_uring_setup(2)} (425 in every table above) is refused too: io_uring creates and connects sockets
 *       itself (IORING_OP_SOCKET, Linux 5.19, io_uring/net.c), without a socket(2) call for the filter to see.
 *       Programs fall back to ordinary calls (EPERM is what {@code kernel.io_uring_disabled=2} answers too).</li>
 *   <li>The family: only the <em>low 32 bits</em> of args[0] are compared ({@code int family}, net/socket.c), so high
 *       bits cannot hide AF_UNIX (1, include/linux/socket.h; AF_LOCAL is the same value).</li>
 * </ol>
 *
 * <h2>Part 2: Landlock scopes (signals, abstract sockets, ptrace)</h2>
 * A Landlock domain that handles no file-system or network access and sets {@code scoped =
 * LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL} (include/uapi/linux/landlock.h, Landlock ABI 6, Linux
 * 6.12), restricted on the calling thread: a process of the domain can then neither signal a process outside it
 * (security/landlock/task.c {@code hook_task_kill}, {@code hook_file_send_sigiotask}) nor connect to an abstract Unix
 * socket bound outside it (even with part 1 left out). Every Landlock domain also refuses ptrace of a process outside
 * it (task.c {@code hook_ptrace_access_check}: ptrace(2), process_vm_writev(2), /proc/PID/mem, /proc/PID/environ,
 * pidfd_getfd(2)); no capability lifts either. Domains stack (up to 16 layers, landlock(7)): under the landlock
 * backend its own domain and this one are both in force. Processes started inside can still signal and trace each
 * other.
 *
 * <p>Installing: landlock_restrict_self(2) needs no_new_privs or CAP_SYS_ADMIN in the caller's user namespace; like
 * the terminal guard, it is first tried without setting no_new_privs, which is set only when the kernel answers EPERM.
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("installed by Exec; enforcers do not call it")
public final class SessionGuard {
    /** The Landlock ABI that has {@code scoped} (signals and abstract sockets): 6, Linux 6.12 (landlock(7)). */
    public static final int SCOPE_ABI = 6;

    /**
     * What to install.
     *
     * @param refuseUnixSockets part 1, the seccomp filter ({@code false} under {@code --allow-unix-sockets})
     * @param scope             part 2, the Landlock domain (needs {@link #SCOPE_ABI}; {@link #install} fails without)
     * @param grantRefer        for a process that already has a Landlock domain handling file access (the landlock
     *                          backend's): the domain also handles LANDLOCK_ACCESS_FS_REFER and grants it beneath
     *                          {@code /}. landlock(7): REFER "is denied by default by any ruleset, even if the right
     *                          is not specified as handled", and once any layer handles file access every layer is
     *                          checked for it (security/landlock/ruleset.h {@code landlock_get_fs_access_mask} adds
     *                          {@code _LANDLOCK_ACCESS_FS_INITIALLY_DENIED}): without the grant, linking or renaming
     *                          into another directory would fail with EXDEV everywhere. Not set otherwise: a layer
     *                          that handles any file access also refuses mount(2) (fs.c {@code hook_sb_mount}), which
     *                          the mount backend's stage still needs after the host's exec.
     * @since 0.1.0
     */
    @dev.ralon.enforcer.spi.Internal("installed by Exec; enforcers do not call it")
    public record Options(boolean refuseUnixSockets, boolean scope, boolean grantRefer) {
        /** Nothing new: the process already runs under the guard its parent installed (the mount backend's stage). */
        public static final Options INHERITED = new Options(false, false, false);

        /** Everything this kernel can hold: the filter, and the domain when Landlock's ABI has scopes. */
        public static Options strongest() {
            return new Options(true, landlockAbi() >= SCOPE_ABI, false);
        }

        /** What this holds, given the kernel's Landlock ABI: ptrace is refused by any Landlock domain. */
        public Set<SessionGuarantee> holds() {
            Set<SessionGuarantee> held = EnumSet.noneOf(SessionGuarantee.class);
            if (refuseUnixSockets) {
                held.add(SessionGuarantee.UNIX_SOCKETS);
            }
            if (scope) {
                held.add(SessionGuarantee.SIGNALS);
                held.add(SessionGuarantee.PTRACE);
            }
            return held;
        }
    }

    static final int AF_UNIX = 1;
    static final int NR_SOCKET_X86_64 = 41;
    static final int NR_SOCKET_AARCH64 = 198;
    static final int NR_SOCKET_I386 = 359;
    static final int NR_SOCKET_ARM = 281;
    static final int NR_SOCKETCALL_32BIT = 102;
    static final int NR_IO_URING_SETUP = 425;

    // include/uapi/linux/landlock.h
    private static final int LANDLOCK_CREATE_RULESET_VERSION = 1;
    static final long LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET = 1L;
    static final long LANDLOCK_SCOPE_SIGNAL = 1L << 1;
    /** LANDLOCK_ACCESS_FS_REFER (ABI 2) and LANDLOCK_RULE_PATH_BENEATH. */
    static final long LANDLOCK_ACCESS_FS_REFER = 1L << 13;
    private static final int LANDLOCK_RULE_PATH_BENEATH = 1;
    /** struct landlock_ruleset_attr { __u64 handled_access_fs; __u64 handled_access_net; __u64 scoped; } */
    private static final int RULESET_ATTR_SIZE = 24;

    /** args[0] is at 16; its low 32 bits come first on a little-endian machine. */
    private static final int OFF_ARG0_LOW = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? 16 : 20;
    private static final int OFF_NR = 0;
    private static final int OFF_ARCH = 4;

    private static volatile int abi = Integer.MIN_VALUE;

    private SessionGuard() {
    }

    /**
     * The kernel's Landlock ABI version ({@code landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)},
     * landlock_create_ruleset(2)); 0 when Landlock is not built in or not enabled (ENOSYS, EOPNOTSUPP). Asked once.
     */
    public static int landlockAbi() {
        int v = abi;
        if (v == Integer.MIN_VALUE) {
            long r = LibC.syscall(LinuxAbi.SYS_LANDLOCK_CREATE_RULESET, 0, 0, LANDLOCK_CREATE_RULESET_VERSION, 0);
            v = r < 0 ? 0 : (int) r;
            abi = v;
        }
        return v;
    }

    /**
     * Installs what {@code options} asks on the calling thread, filter first; it is inherited by everything the thread
     * execs or spawns and cannot be removed.
     *
     * @throws ExecException when the kernel refuses either part, or the scope is asked of a kernel without it: the
     *                       command must not start
     */
    public static void install(Options options) throws ExecException {
        if (options.refuseUnixSockets()) {
            TerminalGuard.installFilter(TerminalGuard.filterMemory(instructions()),
                    "cannot refuse Unix sockets to processes outside the session");
        }
        if (options.scope()) {
            restrictScope(options.grantRefer());
        }
    }

    private static void restrictScope(boolean grantRefer) throws ExecException {
        int version = landlockAbi();
        if (version < SCOPE_ABI) {
            throw new ExecException("cannot refuse signals and ptrace to processes outside the session: "
                    + (version == 0 ? "Landlock is not enabled in this kernel" : "the kernel's Landlock ABI is "
                    + version + ", scopes need " + SCOPE_ABI + " (Linux 6.12)") + "; refusing to start the command");
        }
        Memory attr = new Memory(RULESET_ATTR_SIZE);
        attr.clear();
        attr.setLong(0, grantRefer ? LANDLOCK_ACCESS_FS_REFER : 0); // handled_access_fs (see Options#grantRefer)
        attr.setLong(16, LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL); // no net rights
        long fd;
        try {
            fd = LibC.syscall(LinuxAbi.SYS_LANDLOCK_CREATE_RULESET, Pointer.nativeValue(attr), RULESET_ATTR_SIZE, 0, 0);
        } finally {
            java.lang.ref.Reference.reachabilityFence(attr);
        }
        if (fd < 0) {
            throw scopeRefused("landlock_create_ruleset", Native.getLastError());
        }
        try {
            if (grantRefer) {
                grantReferBeneathRoot(fd);
            }
            if (LibC.syscall(LinuxAbi.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0, 0) != 0) {
                int errno = Native.getLastError();
                if (errno != LinuxAbi.EPERM) {
                    throw scopeRefused("landlock_restrict_self", errno);
                }
                // neither no_new_privs nor CAP_SYS_ADMIN in this user namespace (landlock_restrict_self(2))
                if (LibC.prctl(LinuxAbi.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                        || LibC.syscall(LinuxAbi.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0, 0) != 0) {
                    throw scopeRefused("landlock_restrict_self", Native.getLastError());
                }
            }
        } finally {
            LibC.close((int) fd);
        }
    }

    /**
     * landlock_add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, {allowed_access = REFER, parent_fd = open("/", O_PATH)}, 0);
     * struct landlock_path_beneath_attr is packed: a __u64 then a __s32, 12 bytes (include/uapi/linux/landlock.h).
     */
    private static void grantReferBeneathRoot(long rulesetFd) throws ExecException {
        int root = LibC.openat(LinuxAbi.AT_FDCWD, "/\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                LinuxAbi.O_PATH | LinuxAbi.O_CLOEXEC);
        if (root < 0) {
            throw scopeRefused("open /", Native.getLastError());
        }
        Memory rule = new Memory(12);
        rule.clear();
        rule.setLong(0, LANDLOCK_ACCESS_FS_REFER);
        rule.setInt(8, root);
        try {
            if (LibC.syscall(LinuxAbi.SYS_LANDLOCK_ADD_RULE, rulesetFd, LANDLOCK_RULE_PATH_BENEATH,
                    Pointer.nativeValue(rule), 0) != 0) {
                throw scopeRefused("landlock_add_rule", Native.getLastError());
            }
        } finally {
            java.lang.ref.Reference.reachabilityFence(rule);
            LibC.close(root);
        }
    }

    private static ExecException scopeRefused(String call, int errno) {
        return new ExecException("cannot refuse signals and ptrace to processes outside the session: " + call + ": "
                + Errno.text(errno) + "; refusing to start the command");
    }

    /**
     * {code, jt, jf, k} for each instruction (jumps name absolute targets, see {@link TerminalGuard#jeq}):
     * <pre>
     *  0 ld arch
     *  1 jeq X86_64 -> 6;  2 jeq AARCH64 -> 10;  3 jeq I386 -> 12;  4 jeq ARM -> 15
     *  5 ret KILL_PROCESS                                                       unknown architecture
     *  6 ld nr;  7 jeq 41 -> 18;  8 jeq 41|X32 -> 18;  9 jeq 425|X32 -> 22 else 20   x86_64, x32
     * 10 ld nr; 11 jeq 198 -> 18 else 20                                          aarch64
     * 12 ld nr; 13 jeq 102 -> 22; 14 jeq 359 -> 18 else 20                        i386 (socketcall, socket)
     * 15 ld nr; 16 jeq 102 -> 22; 17 jeq 281 -> 18 else 20                        ARM EABI
     * 18 ld low 32 bits of args[0]; 19 jeq AF_UNIX -> 22 else 21                  socket(2)'s family
     * 20 jeq 425 -> 22 else 21                                                    io_uring_setup (A is still nr)
     * 21 ret ALLOW
     * 22 ret ERRNO(EPERM)
     * </pre>
     */
    static int[][] instructions() {
        final int x86 = 6;
        final int arm64 = 10;
        final int i386 = 12;
        final int arm = 15;
        final int family = 18;
        final int uring = 20;
        final int allow = 21;
        final int deny = 22;
        return new int[][] {
                /*  0 */ TerminalGuard.ld(OFF_ARCH),
                /*  1 */ TerminalGuard.jeq(1, TerminalGuard.AUDIT_ARCH_X86_64, x86, 2),
                /*  2 */ TerminalGuard.jeq(2, TerminalGuard.AUDIT_ARCH_AARCH64, arm64, 3),
                /*  3 */ TerminalGuard.jeq(3, TerminalGuard.AUDIT_ARCH_I386, i386, 4),
                /*  4 */ TerminalGuard.jeq(4, TerminalGuard.AUDIT_ARCH_ARM, arm, 5),
                /*  5 */ TerminalGuard.ret(TerminalGuard.SECCOMP_RET_KILL_PROCESS),
                /*  6 */ TerminalGuard.ld(OFF_NR),
                /*  7 */ TerminalGuard.jeq(7, NR_SOCKET_X86_64, family, 8),
                /*  8 */ TerminalGuard.jeq(8, TerminalGuard.X32_SYSCALL_BIT | NR_SOCKET_X86_64, family, 9),
                /*  9 */ TerminalGuard.jeq(9, TerminalGuard.X32_SYSCALL_BIT | NR_IO_URING_SETUP, deny, uring),
                /* 10 */ TerminalGuard.ld(OFF_NR),
                /* 11 */ TerminalGuard.jeq(11, NR_SOCKET_AARCH64, family, uring),
                /* 12 */ TerminalGuard.ld(OFF_NR),
                /* 13 */ TerminalGuard.jeq(13, NR_SOCKETCALL_32BIT, deny, 14),
                /* 14 */ TerminalGuard.jeq(14, NR_SOCKET_I386, family, uring),
                /* 15 */ TerminalGuard.ld(OFF_NR),
                /* 16 */ TerminalGuard.jeq(16, NR_SOCKETCALL_32BIT, deny, 17),
                /* 17 */ TerminalGuard.jeq(17, NR_SOCKET_ARM, family, uring),
                /* 18 */ TerminalGuard.ld(OFF_ARG0_LOW),
                /* 19 */ TerminalGuard.jeq(19, AF_UNIX, deny, allow),
                /* 20 */ TerminalGuard.jeq(20, NR_IO_URING_SETUP, deny, allow),
                /* 21 */ TerminalGuard.ret(TerminalGuard.SECCOMP_RET_ALLOW),
                /* 22 */ TerminalGuard.ret(TerminalGuard.SECCOMP_RET_ERRNO | LinuxAbi.EPERM),
        };
    }
}
