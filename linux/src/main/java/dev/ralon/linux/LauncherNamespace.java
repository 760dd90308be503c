package dev.ralon.linux;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The user and mount namespace the launcher ({@code cli/src/main/launcher/ralon.sh}) starts {@code ralon run}'s JVM
 * in, so that the mount backend makes its binds in this process instead of in a second JVM (docs/architecture.md,
 * "The mount backend's two routes").
 *
 * <p>For {@code ralon run} whose backend may be {@code mount} (none given, or {@code --backend mount}; not
 * {@code --dry-run}), the launcher first checks that the backend's whole namespace chain works here (the same chain
 * the mount probe runs), then execs {@code unshare --user --map-root-user --mount --propagation private -- java ...}
 * with {@code RALON_LAUNCHER_USERNS=PID} in its environment, PID being its own process id, which execve keeps for the
 * JVM; on every other start it removes that variable. An environment variable, not a system property: a second
 * {@code -D} for the same name in {@code RALON_JAVA_OPTS} or {@code _JAVA_OPTIONS} (read after the command line)
 * would override the launcher's, and the JVM would then miss the namespace it is in. Where the check fails (no user
 * namespaces, a seccomp filter, an old unshare) the JVM starts as usual and the backends decide as before.
 *
 * <p>{@link #current()} says this process is in that namespace only when all of these hold, read from the kernel and
 * not taken on trust from the variable: the variable names this very process; the user namespace maps exactly one uid
 * and one gid, each as 0 (user_namespaces(7), /proc/PID/uid_map: "ID-inside-ns ID-outside-ns length"), which is what
 * {@code --map-root-user} writes; and no mount of this mount namespace is shared (proc(5), /proc/PID/mountinfo,
 * optional fields: "shared:N"), so no bind made here propagates to another namespace. Otherwise it is empty, and the
 * mount backend uses its stage (a second JVM started through the same chain).
 *
 * <p>In that namespace this process is uid 0, so everything that asks "is the invoker root?" must ask
 * {@link #invokerIsRoot()} (the uid the parent namespace sees, which is the answer a JVM outside it gets), not
 * {@code getuid()}.
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("Ralon's launcher and mount backend; third-party enforcers do not need it")
public final class LauncherNamespace {
    /**
     * The environment variable by which the launcher names the process it started inside the namespace; {@code ralon
     * run} leaves it out of the command's environment.
     */
    public static final String ENV = "RALON_LAUNCHER_USERNS";

    /**
     * The invoker's ids as the parent user namespace sees them: what the mount backend's second namespace maps back.
     *
     * @since 0.1.0
     */
    public record Ids(int uid, int gid) {
    }

    private static volatile Optional<Ids> current;

    private LauncherNamespace() {
    }

    /** The invoker's ids when this process runs in the launcher's namespace (see the class comment), else empty. */
    public static Optional<Ids> current() {
        Optional<Ids> c = current;
        if (c == null) {
            c = read();
            current = c;
        }
        return c;
    }

    /** Whether the invoker is root: uid 0 as the parent namespace sees it inside the launcher's namespace, else here. */
    public static boolean invokerIsRoot() {
        Optional<Ids> ids = current();
        if (ids.isPresent()) {
            return ids.get().uid() == 0;
        }
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | RuntimeException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    private static Optional<Ids> read() {
        return read(System.getenv(ENV));
    }

    /** {@link #current()} with {@code named} as the variable's value. */
    static Optional<Ids> read(String named) {
        if (named == null || !named.equals(Long.toString(ProcessHandle.current().pid()))) {
            return Optional.empty();
        }
        String uidMap = procFile("/proc/self/uid_map");
        String gidMap = procFile("/proc/self/gid_map");
        String mountinfo = procFile("/proc/self/mountinfo");
        if (uidMap == null || gidMap == null || mountinfo == null || anyShared(mountinfo)) {
            return Optional.empty();
        }
        long uid = rootMappedTo(uidMap);
        long gid = rootMappedTo(gidMap);
        if (uid < 0 || gid < 0) {
            return Optional.empty();
        }
        return Optional.of(new Ids((int) uid, (int) gid));
    }

    /** The outside id of a map of exactly one line "0 OUTSIDE 1", else -1. */
    static long rootMappedTo(String map) {
        String[] lines = map.strip().split("\n");
        if (lines.length != 1) {
            return -1;
        }
        String[] f = lines[0].strip().split("\\s+");
        if (f.length != 3 || !f[0].equals("0") || !f[2].equals("1")) {
            return -1;
        }
        try {
            long outside = Long.parseLong(f[1]);
            return outside >= 0 && outside <= 0xfffffffeL ? outside : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Whether a line of mountinfo carries a "shared:N" optional field (between field 6 and the "-" separator). */
    static boolean anyShared(String mountinfo) {
        for (String line : mountinfo.split("\n")) {
            String[] f = line.split(" ");
            for (int i = 6; i < f.length && !f[i].equals("-"); i++) {
                if (f[i].startsWith("shared:")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String procFile(String file) {
        // Not Files.readString: /proc files report size 0, and it then returns only the first byte on JDK 17.
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }
}
