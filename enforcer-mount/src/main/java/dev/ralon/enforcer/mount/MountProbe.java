package dev.ralon.enforcer.mount;

import dev.ralon.enforcer.spi.Probe;
import dev.ralon.linux.LauncherNamespace;
import dev.ralon.linux.LibC;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Whether the mount backend can run here, found once per process by running the namespace chain itself, and the
 * {@code unshare(1)} it found to run it with.
 */
final class MountProbe {
    private static final List<String> UNSHARE_CANDIDATES = List.of("/usr/bin/unshare", "/bin/unshare",
            "/usr/sbin/unshare", "/sbin/unshare");

    private volatile Probe cachedProbe;
    private volatile Path unshare;

    /** The unshare(1) the probe ran successfully, or null when the backend is not available. */
    Path unshare() {
        return unshare;
    }

    /**
     * Available when the kernel has the new mount API (5.12 for mount_setattr), util-linux {@code unshare} knows
     * {@code --map-user} (2.36), and an unprivileged process can create a user+mount namespace <em>and a second one
     * inside it</em>: checked by running the chain itself, {@code unshare -U -r -m unshare -U -m --map-user=U
     * --map-group=G true}, in one short-lived child. On failure, /proc/sys tells which switch is off.
     */
    Probe probe() {
        Probe p = cachedProbe;
        if (p == null) {
            p = doProbe();
            cachedProbe = p;
        }
        return p;
    }

    private Probe doProbe() {
        String kernel = System.getProperty("os.version", "");
        if (!"Linux".equals(System.getProperty("os.name"))) {
            return Probe.unavailable("the mount backend needs Linux (this is " + System.getProperty("os.name") + ")", "");
        }
        if (!kernelAtLeast(kernel, 5, 12)) {
            return Probe.unavailable("Linux " + kernel + " is too old: the mount backend needs 5.12 (mount_setattr(2))",
                    "upgrade the kernel, or use --backend landlock");
        }
        Path u = findUnshare();
        if (u == null) {
            return Probe.unavailable("util-linux unshare(1) was not found in /usr/bin, /bin or PATH",
                    "install util-linux 2.36 or later (apt-get install util-linux; dnf install util-linux-core)");
        }
        if (LauncherNamespace.current().isPresent()) {
            // The launcher ran this very chain before it started this JVM inside namespace 1 (ralon.sh), with the
            // unshare found in the same order; running it again would only repeat its answer.
            unshare = u;
            return Probe.available("user namespaces usable (" + u + ", Linux " + kernel + ")");
        }
        int uid = LibC.getuid();
        int gid = LibC.getgid();
        List<String> cmd = List.of(u.toString(), "--user", "--map-root-user", "--mount", "--propagation", "private",
                "--", u.toString(), "--user", "--mount",
                "--map-user=" + Integer.toUnsignedString(uid), "--map-group=" + Integer.toUnsignedString(gid),
                "--", "true");
        String out;
        int rc;
        try {
            Process proc = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            try (InputStream in = proc.getInputStream()) {
                out = new String(in.readNBytes(4096), StandardCharsets.UTF_8).trim();
            }
            if (!proc.waitFor(10, TimeUnit.SECONDS)) {
                proc.destroyForcibly();
                return Probe.unavailable("unshare did not finish within 10 seconds", "");
            }
            rc = proc.exitValue();
        } catch (IOException e) {
            return Probe.unavailable("cannot run " + u + ": " + e.getMessage(), "install util-linux 2.36 or later");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Probe.unavailable("interrupted while probing user namespaces", "");
        }
        if (rc == 0) {
            unshare = u;
            return Probe.available("user namespaces usable (" + u + ", Linux " + kernel + ")");
        }
        return diagnose(out, u, MountProbe::readSysctl);
    }

    /** Says why the namespace chain failed, from unshare's message and the sysctls that switch namespaces off. */
    static Probe diagnose(String unshareOutput, Path u) {
        return diagnose(unshareOutput, u, MountProbe::readSysctl);
    }

    /** As {@link #diagnose(String, Path)}, reading each sysctl file through {@code sysctl} (null: absent). */
    static Probe diagnose(String unshareOutput, Path u, java.util.function.UnaryOperator<String> sysctl) {
        String firstLine = unshareOutput.lines().findFirst().orElse("(no message)");
        if (unshareOutput.contains("unrecognized option") || unshareOutput.contains("invalid option")) {
            return Probe.unavailable(u + " is too old: it lacks --map-user (util-linux 2.36): " + firstLine,
                    "install util-linux 2.36 or later");
        }
        String apparmor = sysctl.apply("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
        if ("1".equals(apparmor)) {
            return Probe.unavailable("AppArmor forbids unprivileged user namespaces"
                            + " (kernel.apparmor_restrict_unprivileged_userns=1): " + firstLine,
                    "install Ralon's AppArmor profile as root: ralon apparmor-profile > /etc/apparmor.d/ralon &&"
                            + " apparmor_parser -r /etc/apparmor.d/ralon (or sysctl -w"
                            + " kernel.apparmor_restrict_unprivileged_userns=0; until then landlock is used)");
        }
        String clone = sysctl.apply("/proc/sys/kernel/unprivileged_userns_clone");
        if ("0".equals(clone)) {
            return Probe.unavailable("unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone=0): "
                    + firstLine, "sysctl -w kernel.unprivileged_userns_clone=1");
        }
        String maxUser = sysctl.apply("/proc/sys/user/max_user_namespaces");
        if ("0".equals(maxUser) || "1".equals(maxUser)) {
            return Probe.unavailable("user namespaces are limited to " + maxUser + " (user.max_user_namespaces="
                    + maxUser + "; the mount backend needs 2 nested): " + firstLine,
                    "sysctl -w user.max_user_namespaces=15000");
        }
        String maxMnt = sysctl.apply("/proc/sys/user/max_mnt_namespaces");
        if ("0".equals(maxMnt) || "1".equals(maxMnt)) {
            return Probe.unavailable("mount namespaces are limited to " + maxMnt + " (user.max_mnt_namespaces): "
                    + firstLine, "sysctl -w user.max_mnt_namespaces=15000");
        }
        if (seccompFiltered()) {
            return Probe.unavailable("unshare failed under a seccomp filter (a container profile blocks namespaces?): "
                    + firstLine, "run the container with a seccomp profile that allows unshare/clone with"
                    + " CLONE_NEWUSER (docker: --security-opt seccomp=unconfined), or use --backend landlock");
        }
        return Probe.unavailable("cannot create nested user and mount namespaces: " + firstLine,
                "check that unprivileged user namespaces are allowed on this host");
    }

    private static boolean seccompFiltered() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Seccomp:")) {
                    return line.substring(8).trim().equals("2");
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    static String readSysctl(String file) {
        // Not Files.readString: /proc files report size 0, and it then returns only the first byte on JDK 17.
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return null;
        }
    }

    static boolean kernelAtLeast(String version, int major, int minor) {
        String[] parts = version.split("[.-]");
        try {
            int ma = Integer.parseInt(parts[0]);
            int mi = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return ma > major || (ma == major && mi >= minor);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static Path findUnshare() {
        for (String c : UNSHARE_CANDIDATES) {
            Path p = Path.of(c);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(":")) {
                if (!dir.isEmpty() && dir.startsWith("/")) {
                    Path p = Path.of(dir, "unshare");
                    if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                        return p;
                    }
                }
            }
        }
        return null;
    }
}
