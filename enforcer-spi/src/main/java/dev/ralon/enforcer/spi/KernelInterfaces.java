package dev.ralon.enforcer.spi;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files through which a root process changes kernel settings, or makes the kernel run a program for it. Ralon's
 * {@code mount} and {@code landlock} backends add them to the set they plan for when the invoker is root
 * ({@link #forRootInvoker}); a third-party enforcer that can run a root command should do the same (a bind-mount
 * enforcer must bind {@code /sys} recursively: it holds submounts that are locked in a user namespace, and a
 * non-recursive bind of it fails there with EINVAL).
 *
 * <p>Why: a root command's file-system uid is global 0 under every backend (the mount backend maps 0 to 0 in both
 * namespaces; Landlock and noop do not change the uid), and the permission check of {@code /proc/sys} files is by
 * uid alone (fs/proc/proc_sysctl.c {@code test_perm}: root gets the owner's bits), with no capability asked by writable
 * sysctls such as {@code kernel/core_pattern} (a {@code |program} there is run by the kernel as real root on the next
 * crash, outside any sandbox), {@code kernel/modprobe} (run on a request for an unknown module) or
 * {@code fs/binfmt_misc/register} (an interpreter for any file). {@code /proc/sysrq-trigger} reboots or kills;
 * {@code /proc/irq} and {@code /proc/bus} change interrupt routing and devices; {@code /sys} holds
 * {@code kernel/uevent_helper} (run by the kernel as root), cgroup v1 {@code release_agent}, module parameters and
 * power state. Container runtimes mount these read-only for the same reason; this list is bubblewrap's for
 * {@code /proc} plus {@code /sys}.
 *
 * <p>Protected, they are read-only binds under the mount backend (locked by the nested namespace: root of that
 * namespace can neither remount nor unmount them) and read-only Landlock rules under landlock (Landlock's path rules
 * apply to procfs and sysfs like any other file system; checked: writing core_pattern back fails with EACCES). Only
 * paths that exist are added. A non-root user cannot write them in the first place.
 *
 * @since 0.1.0
 */
@Experimental("used by the built-in backends as the root invoker's extra read-only paths; may move")
public final class KernelInterfaces {
    /** The kernel's control files that root could write. */
    public static final List<Path> PATHS = List.of(Path.of("/proc/sys"), Path.of("/proc/sysrq-trigger"), Path.of("/proc/irq"),
            Path.of("/proc/bus"), Path.of("/sys"));
    public static final String REASON = "kernel settings: ralon run is root, who could change them (always protected for root)";

    private KernelInterfaces() {
    }

    /**
     * {@code set}, plus those of {@link #PATHS} that exist, when {@code invokerIsRoot}; else {@code set}. Whether the
     * invoker is root is the caller's to say: this process's real uid is 0, or, when Ralon's launcher started it as
     * root of a user namespace of its own (where it is uid 0 whoever invoked it), the invoker's uid outside is 0
     * (Ralon's backends ask its native layer, {@code LauncherNamespace.invokerIsRoot()}).
     */
    public static ProtectedSet forRootInvoker(ProtectedSet set, boolean invokerIsRoot) {
        if (!invokerIsRoot) {
            return set;
        }
        List<ProtectedPath> paths = new ArrayList<>(set.paths());
        for (Path p : PATHS) {
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                paths.add(ProtectedPath.of(p, ProtectedPath.Kind.DIRECTORY, List.of(REASON)));
            } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                paths.add(ProtectedPath.of(p, ProtectedPath.Kind.FILE, List.of(REASON)));
            }
        }
        return ProtectedSet.of(set.root(), set.policyFile(), paths, set.warnings());
    }
}
