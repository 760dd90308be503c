package dev.ralon.enforcer.landlock;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.ralon.enforcer.landlock.LinuxCalls.Id;
import dev.ralon.enforcer.landlock.LinuxCalls.Stat;
import dev.ralon.linux.LibC;
import dev.ralon.linux.LinuxAbi;
import dev.ralon.linux.Errno;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.enforcer.spi.ProtectedPath;

import java.lang.ref.Reference;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Applies a Landlock plan to the calling thread (see {@link LandlockEnforcer#prepare}): no_new_privs, the ruleset, the
 * plan's rules with every path re-opened and re-identified through the directories on the way, restrict_self; for a
 * root invoker the kernel-facing capabilities leave the bounding set. One use per run, on the thread that execs.
 */
final class LandlockApplier {
    private final LandlockEnforcer.Payload pl;
    private final long handled;
    private final int abi;
    private final Map<Path, Integer> dirFds = new HashMap<>();
    private final Map<Id, Path> forbidden = new HashMap<>();
    private int rulesetFd = -1;
    /** One struct landlock_path_beneath_attr, filled anew for each rule (landlock_add_rule(2) reads it during the call). */
    private final Memory ruleAttr = new Memory(12);

    LandlockApplier(LandlockEnforcer.Payload pl, long handled, int abi) {
        this.pl = pl;
        this.handled = handled;
        this.abi = abi;
    }

    void apply() throws EnforcementException {
        try {
            if (LibC.prctl(LinuxAbi.PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) != 0) {
                throw fail("prctl(PR_SET_NO_NEW_PRIVS)", "this process");
            }
            dropKernelCapabilities();
            Memory attr = LinuxCalls.rulesetAttr(handled, abi);
            long fd = LibC.syscall(LinuxAbi.SYS_LANDLOCK_CREATE_RULESET, Pointer.nativeValue(attr), attr.size(),
                0L, 0L);
            Reference.reachabilityFence(attr); // the address was passed as a number: keep the memory alive
            if (fd < 0) {
                throw fail("landlock_create_ruleset", "a ruleset of " + Access.words(handled));
            }
            rulesetFd = (int) fd;
            openWay();
            for (RulePlanner.Rule rule : pl.rules()) {
                addRule(rule);
            }
            if (LibC.syscall(LinuxAbi.SYS_LANDLOCK_RESTRICT_SELF, rulesetFd, 0L, 0L, 0L) != 0) {
                throw fail("landlock_restrict_self", "this thread");
            }
        } finally {
            for (int dfd : dirFds.values()) {
                LibC.close(dfd);
            }
            if (rulesetFd >= 0) {
                LibC.close(rulesetFd);
            }
        }
    }

    /**
     * When the invoker is root, the command keeps every capability of the initial user namespace: Landlock
     * restricts paths, not capabilities. Those that let a process load code into the kernel or reach it beside the
     * file system are removed from this thread's bounding set (prctl(2) PR_CAPBSET_DROP; capabilities(7): a
     * program exec'd by root gets the bounding set, no more): CAP_SYS_MODULE (init_module), CAP_SYS_RAWIO
     * (/dev/mem, ioperm), CAP_SYS_BOOT (kexec_load, reboot), CAP_SYS_ADMIN (setns into another mount namespace,
     * bpf, perf, swapon, and many more), CAP_BPF, CAP_PERFMON (BPF and perf programs run in the kernel), CAP_MKNOD
     * (device nodes). Root's own inheritable set is empty in practice (capabilities(7)); it is not changed here.
     * An unknown capability (EINVAL: CAP_BPF and CAP_PERFMON before Linux 5.8) is skipped.
     */
    private void dropKernelCapabilities() throws EnforcementException {
        if (LibC.geteuid() != 0 && LibC.getuid() != 0) {
            return;
        }
        for (int cap : LinuxCalls.KERNEL_CAPABILITIES) {
            if (LibC.prctl(LinuxAbi.PR_CAPBSET_DROP, cap, 0L, 0L, 0L) != 0 && LinuxCalls.errno() != LinuxAbi.EINVAL) {
                throw fail("prctl(PR_CAPBSET_DROP, " + cap + ")", "this thread");
            }
        }
    }

    private void openWay() throws EnforcementException {
        for (Path dir : pl.onTheWay()) {
            Path parent = dir.getParent();
            int fd = parent == null
                ? LibC.openat(LinuxAbi.AT_FDCWD, LinuxCalls.cString("/"), LinuxCalls.OPEN_ROOT)
                : openIn(parent, dir, LinuxCalls.OPEN_DIR);
            if (fd < 0) {
                throw fail("openat", dir.toString());
            }
            dirFds.put(dir, fd);
            Stat st = LinuxCalls.fstat(fd);
            if (st == null) {
                throw fail("statx", dir.toString());
            }
            forbidden.put(st.id(), dir);
        }
        for (ProtectedPath pp : pl.protectedPaths()) {
            Path p = pp.path().normalize();
            if (p.getParent() == null || !dirFds.containsKey(p.getParent())) {
                continue;
            }
            int fd = openIn(p.getParent(), p, LinuxCalls.OPEN_NAME);
            if (fd < 0) {
                int errno = LinuxCalls.errno();
                boolean stillMissing = errno == LinuxAbi.ENOENT && pp.kind() == ProtectedPath.Kind.MISSING;
                if (stillMissing || pl.refusedPaths().contains(p)) {
                    continue;
                }
                throw fail("openat", p.toString(), errno);
            }
            try {
                Stat st = LinuxCalls.fstat(fd);
                if (st == null) {
                    throw fail("statx", p.toString());
                }
                forbidden.put(st.id(), p);
            } finally {
                LibC.close(fd);
            }
        }
    }

    private int openIn(Path parent, Path child, int flags) throws EnforcementException {
        Integer pfd = dirFds.get(parent);
        if (pfd == null) {
            throw new EnforcementException("landlock: cannot open " + child + ": its directory " + parent
                + " was not opened");
        }
        return LibC.openat(pfd, LinuxCalls.cString(child.getFileName().toString()), flags);
    }

    private void addRule(RulePlanner.Rule rule) throws EnforcementException {
        Path p = rule.path();
        long rights = rule.rights() & handled;
        if (p.getParent() == null) {
            Integer root = dirFds.get(p);
            if (root == null) {
                int fd = LibC.openat(LinuxAbi.AT_FDCWD, LinuxCalls.cString("/"), LinuxCalls.OPEN_ROOT);
                if (fd < 0) {
                    throw fail("openat", "/");
                }
                dirFds.put(p, fd);
                root = fd;
            }
            add(root, rights, p);
            return;
        }
        int fd = rule.fromRoot() ? openFromRoot(p) : openIn(p.getParent(), p, LinuxCalls.OPEN_NAME);
        if (fd < 0) {
            int errno = LinuxCalls.errno();
            if (errno == LinuxAbi.ENOENT || (rule.fromRoot() && errno == LinuxAbi.ELOOP)) {
                return; // gone since the plan, or a link on the way now: nothing to grant (it stays read-only)
            }
            throw fail("openat", p.toString(), errno);
        }
        try {
            Stat st = LinuxCalls.fstat(fd);
            if (st == null) {
                throw fail("statx", p.toString());
            }
            if (st.isSymlink() || forbidden.containsKey(st.id())) {
                return; // replaced since the plan by a link, or by another name for a protected path: no rule
            }
            if (!st.isDirectory()) {
                rights &= Access.FILE_RIGHTS;
            }
            add(fd, rights, p);
        } finally {
            LibC.close(fd);
        }
    }

    /**
     * An O_PATH descriptor of the absolute {@code p}, resolved from {@code /} without following any symbolic link on
     * the way or at the end (openat2(2) RESOLVE_NO_SYMLINKS; O_NOFOLLOW with O_PATH gives a final link itself, which
     * then gets no rule): a writable area's rule lands on the directory the host listed, or on nothing. -1 with
     * errno on failure.
     */
    private static int openFromRoot(Path p) {
        Memory how = new Memory(24); // struct open_how { u64 flags; u64 mode; u64 resolve; }
        how.clear();
        how.setLong(0, LinuxAbi.O_PATH | LinuxAbi.O_NOFOLLOW | LinuxAbi.O_CLOEXEC);
        how.setLong(16, 0x04); // RESOLVE_NO_SYMLINKS, include/uapi/linux/openat2.h
        String rel = p.toString().equals("/") ? "." : p.toString().substring(1);
        int root = LibC.openat(LinuxAbi.AT_FDCWD, LinuxCalls.cString("/"), LinuxCalls.OPEN_ROOT);
        if (root < 0) {
            return -1;
        }
        try {
            return (int) LibC.syscall(LinuxAbi.SYS_OPENAT2, root, rel, how, 24L);
        } catch (com.sun.jna.LastErrorException e) {
            return -1;
        } finally {
            LibC.close(root);
        }
    }

    private void add(int fd, long rights, Path p) throws EnforcementException {
        LinuxCalls.pathBeneathAttr(ruleAttr, rights, fd);
        long rc = LibC.syscall(LinuxAbi.SYS_LANDLOCK_ADD_RULE, rulesetFd,
            LinuxCalls.LANDLOCK_RULE_PATH_BENEATH, Pointer.nativeValue(ruleAttr), 0L);
        Reference.reachabilityFence(ruleAttr);
        if (rc != 0) {
            throw fail("landlock_add_rule", p.toString());
        }
    }

    private static EnforcementException fail(String syscall, String what) {
        return fail(syscall, what, LinuxCalls.errno());
    }

    private static EnforcementException fail(String syscall, String what, int errno) {
        return new EnforcementException("landlock: " + syscall + " failed for " + what + ": "
            + Errno.text(errno));
    }
}
