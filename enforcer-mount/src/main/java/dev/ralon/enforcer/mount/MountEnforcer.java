package dev.ralon.enforcer.mount;

import com.sun.jna.Library;
import com.sun.jna.Native;
import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.KernelInterfaces;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.enforcer.spi.exec.Exec;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The {@code mount} backend: read-only bind mounts in an unprivileged user and mount namespace, locked by a second
 * user namespace.
 *
 * <h2>Exec chain (no process is left beside the command: every link execs the next in the same pid)</h2>
 * <ol>
 *   <li>the host execs {@code unshare --user --map-root-user --mount --propagation private -- JAVA ... MountStage
 *       PLAN_FILE SHA256 -- CMD...} (a JVM cannot enter a user namespace itself: unshare(2) refuses CLONE_NEWUSER in
 *       a multithreaded process, kernel/fork.c check_unshare_flags);</li>
 *   <li>{@link MountStage}, root in user namespace 1, binds every directory on the way to a protected path onto
 *       itself (writable: it only becomes a mount point, which cannot be renamed or removed: rename(2)/rmdir(2)
 *       EBUSY), then every protected path onto itself read-only;</li>
 *   <li>it execs {@code unshare --user --mount --map-user=UID --map-group=GID -- CMD}: creating a mount namespace owned
 *       by a less privileged user namespace locks every inherited mount (mount_namespaces(7), "restrictions on mount
 *       namespaces": MNT_LOCKED, read-only and the other flags locked), and the command runs as the invoking user's
 *       own uid and gid.</li>
 * </ol>
 *
 * <h2>Guarantees</h2>
 * {@link Guarantee#MODIFY_CONTENT}, {@link Guarantee#DELETE}, {@link Guarantee#RENAME_AWAY},
 * {@link Guarantee#RENAME_OVER}, {@link Guarantee#CREATE_INSIDE}, {@link Guarantee#ANCESTOR_RENAME} and
 * {@link Guarantee#METADATA}. Not {@link Guarantee#CREATE_MISSING}: a mount needs an existing target, and making one
 * would create the protected path on the host; a protected path that does not exist is refused in the plan.
 */
public final class MountEnforcer implements Enforcer {
    static final Set<Guarantee> GUARANTEES = Collections.unmodifiableSet(EnumSet.of(
            Guarantee.MODIFY_CONTENT, Guarantee.DELETE, Guarantee.RENAME_AWAY, Guarantee.RENAME_OVER,
            Guarantee.CREATE_INSIDE, Guarantee.ANCESTOR_RENAME, Guarantee.METADATA));

    /**
     * JVM options for the stage, as the launcher uses them (cli/src/main/launcher/ralon.sh): JVM warnings go to stderr,
     * never into the command's stdout, and the JVM's report of a class-data archive it could not use is off.
     */
    static final List<String> STAGE_JVM_OPTIONS = List.of(
            "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-MaxFDLimit", "-Xshare:auto", "-Xss1m",
            "-Xlog:disable", "-Xlog:all=warning:stderr", "-Xlog:cds*=off:stderr");
    /** The launcher's class-data-sharing archive (a system property it sets only when it passes one). */
    static final String CDS_ARCHIVE_PROPERTY = "ralon.cds.archive";
    /** System properties of the host JVM passed on to the stage JVM (where JNA unpacks and finds its library). */
    static final List<String> STAGE_PROPERTIES = List.of("jna.tmpdir", "java.io.tmpdir", "jna.boot.library.path",
            "jna.nosys", "jna.nounpack", "jna.library.path", "jna.platform.library.path");

    private static final List<String> UNSHARE_CANDIDATES = List.of("/usr/bin/unshare", "/bin/unshare",
            "/usr/sbin/unshare", "/sbin/unshare");

    private volatile Probe cachedProbe;
    private volatile Path unshare;

    @Override
    public String name() {
        return "mount";
    }

    @Override
    public String description() {
        return "read-only bind mounts in an unprivileged user+mount namespace, locked by a nested user namespace";
    }

    /** Every kind of existing path: a bind mount of the link itself or of the device/fifo/socket node (the mount lands on the object, not on what a link points to). */
    @Override
    public Set<ProtectedPath.Kind> coveredKinds() {
        return EnumSet.of(ProtectedPath.Kind.FILE, ProtectedPath.Kind.DIRECTORY, ProtectedPath.Kind.SYMLINK,
                ProtectedPath.Kind.OTHER);
    }

    @Override
    public int rank() {
        return 300;
    }

    @Override
    public Set<Guarantee> guarantees() {
        return GUARANTEES;
    }

    // ------------------------------------------------------------------------------------------------ probe

    /**
     * Available when the kernel has the new mount API (5.12 for mount_setattr), util-linux {@code unshare} knows
     * {@code --map-user} (2.36), and an unprivileged process can create a user+mount namespace <em>and a second one
     * inside it</em>: checked by running the chain itself, {@code unshare -U -r -m unshare -U -m --map-user=U
     * --map-group=G true}, in one short-lived child. On failure, /proc/sys tells which switch is off.
     */
    @Override
    public Probe probe() {
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
        int[] ids = Ids.current();
        List<String> cmd = List.of(u.toString(), "--user", "--map-root-user", "--mount", "--propagation", "private",
                "--", u.toString(), "--user", "--mount",
                "--map-user=" + Integer.toUnsignedString(ids[0]), "--map-group=" + Integer.toUnsignedString(ids[1]),
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
        return diagnose(out, u);
    }

    /** Says why the namespace chain failed, from unshare's message and the sysctls that switch namespaces off. */
    static Probe diagnose(String unshareOutput, Path u) {
        String firstLine = unshareOutput.lines().findFirst().orElse("(no message)");
        if (unshareOutput.contains("unrecognized option") || unshareOutput.contains("invalid option")) {
            return Probe.unavailable(u + " is too old: it lacks --map-user (util-linux 2.36): " + firstLine,
                    "install util-linux 2.36 or later");
        }
        String apparmor = readSysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
        if ("1".equals(apparmor)) {
            return Probe.unavailable("AppArmor forbids unprivileged user namespaces"
                            + " (kernel.apparmor_restrict_unprivileged_userns=1): " + firstLine,
                    "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile granting userns");
        }
        String clone = readSysctl("/proc/sys/kernel/unprivileged_userns_clone");
        if ("0".equals(clone)) {
            return Probe.unavailable("unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone=0): "
                    + firstLine, "sysctl -w kernel.unprivileged_userns_clone=1");
        }
        String maxUser = readSysctl("/proc/sys/user/max_user_namespaces");
        if ("0".equals(maxUser) || "1".equals(maxUser)) {
            return Probe.unavailable("user namespaces are limited to " + maxUser + " (user.max_user_namespaces="
                    + maxUser + "; the mount backend needs 2 nested): " + firstLine,
                    "sysctl -w user.max_user_namespaces=15000");
        }
        String maxMnt = readSysctl("/proc/sys/user/max_mnt_namespaces");
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

    private static String readSysctl(String file) {
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

    // ------------------------------------------------------------------------------------------------ plan

    /** What {@link #plan} carries to {@link #prepare}: the ordered mounts. */
    record Payload(List<MountStage.Entry> entries) {
    }

    /**
     * Orders the mounts: first every directory on the way from {@code /} (exclusive) to each protected path, parents
     * before children (a later bind of an ancestor would clone the tree as it is then, but binding the ancestor
     * first and the protected paths into it afterwards is the order in which nothing is shadowed), then every protected
     * path, one bind each (a protected directory is one recursive bind, not one per file inside it).
     */
    @Override
    public Plan plan(ProtectedSet policySet) {
        // A root command is global uid 0 here (0 maps to 0): /proc/sys and /sys must be read-only too (KernelInterfaces)
        ProtectedSet set = KernelInterfaces.forRootInvoker(policySet);
        List<Plan.Step> steps = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<Plan.Refusal> refusals = new ArrayList<>();
        Comparator<Path> topDown = Comparator.comparingInt(Path::getNameCount).thenComparing(Comparator.naturalOrder());
        TreeSet<Path> way = new TreeSet<>(topDown);
        Map<Path, MountStage.Entry> protect = new LinkedHashMap<>();
        Map<Path, Path> aliasOf = new HashMap<>();
        MountTable mounts = MountTable.read();
        steps.add(new Plan.Step("unshare", null, "new user namespace (you are root in it, mapped to your uid) and"
                + " mount namespace with private propagation, where the binds below are made"));
        for (ProtectedPath pp : set.paths()) {
            Path p = pp.path().normalize();
            if (pp.kind() == ProtectedPath.Kind.MISSING) {
                // Not a declared guarantee (a bind mount needs an existing target, and making one would create the
                // file in the project): the host says so in one line (host-side admission); no refusal here.
                steps.add(new Plan.Step("not-protected", p, "missing: creating it is NOT prevented by this backend"));
                continue;
            }
            Map<String, Object> attrs;
            try {
                attrs = Files.readAttributes(p, "unix:mode,dev,ino,nlink", LinkOption.NOFOLLOW_LINKS);
            } catch (IOException | UnsupportedOperationException e) {
                refusals.add(Plan.Refusal.of(p, "cannot examine " + p + ": " + e.getMessage(), GUARANTEES));
                steps.add(new Plan.Step("refuse", p, "cannot be examined"));
                continue;
            }
            int type = ((Integer) attrs.get("mode")) & MountStage.S_IFMT;
            int nlink = (Integer) attrs.get("nlink");
            if (type != MountStage.S_IFDIR && nlink > 1) {
                warnings.add(p + " has " + nlink + " hard links: its other names are not protected");
            }
            protect.put(p, new MountStage.Entry(MountStage.Op.READONLY, p.toString(), type, (Long) attrs.get("dev"),
                    (Long) attrs.get("ino")));
            for (Path alias : mounts.aliases(p)) {
                // The same file system is mounted at another place too: the object is reachable by that path, which a
                // bind at p does not cover. Protect it there as well, when it is the same object.
                try {
                    Map<String, Object> aa = Files.readAttributes(alias, "unix:mode,dev,ino", LinkOption.NOFOLLOW_LINKS);
                    if (aa.get("dev").equals(attrs.get("dev")) && aa.get("ino").equals(attrs.get("ino"))
                            && !protect.containsKey(alias)) {
                        aliasOf.put(alias, p);
                        protect.put(alias, new MountStage.Entry(MountStage.Op.READONLY, alias.toString(), type,
                                (Long) aa.get("dev"), (Long) aa.get("ino")));
                    }
                } catch (IOException | UnsupportedOperationException e) {
                    // hidden beneath another mount or unreadable: not reachable by that path
                }
            }
        }
        // an alias beneath another protected directory is already covered by that directory's bind
        protect.keySet().removeIf(a -> aliasOf.containsKey(a) && protect.keySet().stream()
                .anyMatch(d -> !d.equals(a) && a.startsWith(d) && protect.get(d).type() == MountStage.S_IFDIR));
        for (Path p : protect.keySet()) {
            for (Path a = p.getParent(); a != null && a.getParent() != null; a = a.getParent()) {
                way.add(a);
            }
        }
        List<MountStage.Entry> entries = new ArrayList<>();
        for (Path a : way) {
            if (protect.containsKey(a)) {
                continue; // cannot happen with a well-formed set (nothing beneath a protected directory)
            }
            try {
                Map<String, Object> attrs = Files.readAttributes(a, "unix:mode,dev,ino", LinkOption.NOFOLLOW_LINKS);
                entries.add(new MountStage.Entry(MountStage.Op.WAY, a.toString(),
                        ((Integer) attrs.get("mode")) & MountStage.S_IFMT, (Long) attrs.get("dev"), (Long) attrs.get("ino")));
                steps.add(new Plan.Step("bind-on-the-way", a, "bound onto itself, recursive, stays writable: a mount"
                        + " point cannot be renamed or removed"));
            } catch (IOException | UnsupportedOperationException e) {
                refusals.add(Plan.Refusal.of(a, "cannot examine " + a + " (on the way to a protected path): "
                        + e.getMessage(), Set.of(Guarantee.ANCESTOR_RENAME)));
            }
        }
        List<Path> sorted = new ArrayList<>(protect.keySet());
        sorted.sort(topDown);
        for (Path p : sorted) {
            MountStage.Entry e = protect.get(p);
            entries.add(e);
            // A symbolic link (a protected link, or a link on the way to a protected path) is bound as the link itself:
            // MountStage opens it O_PATH|O_NOFOLLOW and open_tree(2)/move_mount(2) take that descriptor with
            // AT_EMPTY_PATH/MOVE_MOUNT_T_EMPTY_PATH, so the bind lands on the link, not its target. A mount point
            // cannot be unlinked, or renamed away or over, in a namespace where it is mounted: fs/namei.c vfs_unlink()
            // and vfs_rename() return EBUSY for is_local_mountpoint() (unlink(2), rename(2): EBUSY, "in use by the
            // system (for example as a mount point)"). Lookups through the link still follow it. Checked on Linux 6.18
            // by LinksOnTheWayE2ETest (ln -sfn, rm + ln, mv -T over: EBUSY).
            String what = e.type() == MountStage.S_IFDIR ? "directory and everything beneath it"
                    : e.type() == MountStage.S_IFLNK ? "the symbolic link itself" : "file";
            if (aliasOf.containsKey(p)) {
                what = "the same " + what + " as " + aliasOf.get(p) + ", reachable here through another mount of its"
                        + " file system";
            }
            steps.add(new Plan.Step("bind-readonly", p, what + "; bound onto itself, recursive, mount_setattr read-only"));
        }
        steps.add(new Plan.Step("unshare", null, "nested user and mount namespace with your own uid/gid: every mount"
                + " above becomes locked (cannot be unmounted, remounted writable or moved), then the command runs"));
        long mountMax = parseLong(readSysctl("/proc/sys/fs/mount-max"), 100_000);
        long current = countMounts();
        if (current + entries.size() >= mountMax) {
            refusals.add(Plan.Refusal.of(null, "the plan needs " + entries.size() + " mounts on top of " + current
                    + " existing, over the limit fs.mount-max=" + mountMax + "; protect directories rather than files",
                    GUARANTEES));
        }
        Plan.Builder plan = Plan.builder(name()).payload(new Payload(entries));
        steps.forEach(plan::step);
        warnings.forEach(plan::warning);
        refusals.forEach(plan::refuse);
        return plan.build();
    }

    private static long countMounts() {
        try (var lines = Files.lines(Path.of("/proc/self/mountinfo"))) {
            return lines.count();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0;
        }
    }

    private static long parseLong(String s, long dflt) {
        try {
            return s == null ? dflt : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    // ------------------------------------------------------------------------------------------------ prepare

    /**
     * Writes the plan to a private temporary file (0600, read and deleted by the stage, its SHA-256 in the stage's
     * argv) and returns the exec chain. Why a file: argv and the environment share ARG_MAX (a quarter of the stack
     * limit, 2 MiB by default, execve(2)), which 10,000 long paths can exceed; a descriptor would have to survive
     * the host's exec hygiene (which marks every descriptor above 2 close-on-exec, by design) and then be closed
     * before the command.
     */
    @Override
    public Launch prepare(Plan plan, Command command) throws EnforcementException {
        if (!name().equals(plan.backend()) || !plan.hasPayload(Payload.class)) {
            throw new EnforcementException("the mount backend was given a plan it did not make");
        }
        Payload payload = plan.payload(Payload.class);
        Probe p = probe();
        if (!p.available() || unshare == null) {
            throw new EnforcementException("the mount backend is not available: " + p.detail());
        }
        int[] ids = Ids.current();
        byte[] bytes = MountStage.encode(new MountStage.StagePlan(ids[0], ids[1], command.cwd().toString(),
                unshare.toString(), payload.entries()));
        Path file;
        try {
            file = writePlanFile(bytes);
            // Removed by the stage once read; if the host's execve fails instead, the JVM exits normally and this
            // removes it (after a successful execve no JVM shutdown hook runs: the process image is gone).
            file.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new EnforcementException("cannot write the mount plan to a temporary file: " + e.getMessage());
        }
        List<String> argv = new ArrayList<>();
        argv.add(unshare.toString());
        argv.addAll(List.of("--user", "--map-root-user", "--mount", "--propagation", "private", "--"));
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        argv.addAll(STAGE_JVM_OPTIONS);
        String archive = System.getProperty(CDS_ARCHIVE_PROPERTY);
        if (archive != null && System.getProperty("java.vm.info", "").contains("sharing")) {
            // The launcher's archive, which this JVM mapped: the stage runs the same jar (same class path, below), so
            // it maps it too (docs/performance.md). -Xshare:auto: were it unusable, the stage runs without it.
            argv.add("-XX:SharedArchiveFile=" + archive);
        }
        if (Runtime.version().feature() >= 22) {
            // JEP 454 (Java 22+) warns on stderr when JNA calls System.load without this; Java 17 rejects the option.
            argv.add("--enable-native-access=ALL-UNNAMED");
        }
        for (String prop : STAGE_PROPERTIES) {
            String v = System.getProperty(prop);
            if (v != null) {
                argv.add("-D" + prop + "=" + v);
            }
        }
        // JNA's NativeLibrary class initialiser forks "/sbin/ldconfig -p" to build a library search path unless
        // jna.platform.library.path is set (measured: one fork+exec, 30-300 ms of the stage's start). The stage only
        // loads libc, which JNA opens as libc.so.6 through the dynamic loader without that search path.
        if (System.getProperty("jna.platform.library.path") == null) {
            argv.add("-Djna.platform.library.path=/lib:/usr/lib");
        }
        argv.add("-cp");
        argv.add(absoluteClasspath(System.getProperty("java.class.path")));
        argv.add(MountStage.class.getName());
        argv.add(file.toString());
        argv.add(MountStage.sha256(bytes));
        argv.add("--");
        argv.add(command.executable().toString());
        argv.addAll(command.argv().subList(1, command.argv().size()));
        return new Launch(unshare, argv, stageEnvironment(command.env(), System.getenv(Exec.ORIG_NOFILE_ENV)));
    }

    /**
     * Writes {@code bytes} to a new mode-0600 file in java.io.tmpdir and returns its path. The bytes go through the
     * descriptor that created the file, never through a second open of the name: between the two, a process of the
     * same user (something an earlier sandboxed session left running, watching the directory) could replace the name
     * with a symbolic link and have this unsandboxed process write through it. Creation is O_CREAT|O_EXCL
     * ({@code CREATE_NEW}; open(2): it fails on any existing name, a symbolic link included), and the stage checks
     * the content against the SHA-256 in its argv. Not {@code Files.createTempFile}: its random name needs
     * SecureRandom, whose first use starts the JCA provider framework (15-30 ms of every mount run, measured); the name
     * need not be secret. A name that is taken is skipped.
     */
    static Path writePlanFile(byte[] bytes) throws IOException {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        long pid = ProcessHandle.current().pid();
        java.nio.file.attribute.FileAttribute<?> mode =
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
        for (int i = 0; ; i++) {
            Path p = dir.resolve("ralon-mount-" + pid + "-" + System.nanoTime() + "-" + i + ".plan");
            try (java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(p,
                    EnumSet.of(java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE),
                    mode)) {
                java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                return p;
            } catch (java.nio.file.FileAlreadyExistsException e) {
                if (i >= 100) {
                    throw e;
                }
            }
        }
    }

    /**
     * The stage JVM's environment: the command's, with the variables a java launcher reads renamed (so the user's
     * JAVA_TOOL_OPTIONS and LC_ALL reach the command, not the stage), LC_ALL=C.UTF-8 for the stage, and the launcher's
     * record of RLIMIT_NOFILE kept for {@link Exec}.
     */
    static Map<String, String> stageEnvironment(Map<String, String> commandEnv, String origNofile) {
        Map<String, String> env = new HashMap<>(commandEnv);
        for (String name : MountStage.JVM_ENV) {
            String v = env.remove(name);
            if (v != null) {
                env.put(MountStage.STASH_PREFIX + name, v);
            }
        }
        env.put("LC_ALL", MountStage.STAGE_LC_ALL); // stashed above; MountStage.commandEnvironment gives it back
        if (origNofile != null && !env.containsKey(Exec.ORIG_NOFILE_ENV)) {
            env.put(Exec.ORIG_NOFILE_ENV, origNofile);
        }
        return env;
    }

    private static String absoluteClasspath(String cp) {
        List<String> out = new ArrayList<>();
        for (String entry : cp.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                out.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return String.join(File.pathSeparator, out);
    }

    /** The invoking user's real uid and gid, read before any namespace exists. */
    static final class Ids {
        interface Posix extends Library {
            int getuid();

            int getgid();
        }

        static int[] current() {
            Posix posix = Native.load("c", Posix.class);
            return new int[] {posix.getuid(), posix.getgid()};
        }
    }
}
