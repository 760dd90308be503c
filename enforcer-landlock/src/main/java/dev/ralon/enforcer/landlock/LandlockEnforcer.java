package dev.ralon.enforcer.landlock;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Confinement;
import dev.ralon.linux.Binds;
import dev.ralon.linux.ExecException;
import dev.ralon.linux.LauncherNamespace;
import dev.ralon.linux.LibC;
import dev.ralon.linux.SessionContainer;
import dev.ralon.linux.LinuxAbi;
import dev.ralon.linux.MountTable;
import dev.ralon.linux.Errno;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.KernelInterfaces;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code landlock} backend: the Landlock LSM (Linux 5.13+, ABI 3+ required) restricts the calling thread, and
 * the command exec'd on that thread inherits the restriction with everything it spawns.
 *
 * <h2>What it enforces</h2>
 * {@link Guarantee#MODIFY_CONTENT}, {@link Guarantee#DELETE}, {@link Guarantee#RENAME_AWAY},
 * {@link Guarantee#RENAME_OVER}, {@link Guarantee#CREATE_INSIDE}, {@link Guarantee#ANCESTOR_RENAME},
 * {@link Guarantee#CREATE_MISSING}. Not {@link Guarantee#METADATA}: Landlock has no right for chmod, chown, utime
 * or setxattr (Documentation/userspace-api/landlock.rst, "Filesystem flags"), so they stay allowed.
 *
 * <h2>Rules</h2>
 * Read-only on {@code /} (inherited by every directory on the way and every protected path), full access on every
 * other entry of every directory on the way ({@link RulePlanner}). Side effect, listed in
 * {@link Plan#createRestricted()}: nothing can be created, removed or renamed directly in a directory on the way.
 *
 * <h2>Refusals</h2>
 * The plan is refused when Landlock is missing or older than ABI 3 (truncation could not be denied), or when a
 * protected path or a directory on the way cannot be opened.
 */
public final class LandlockEnforcer implements Enforcer {
    /** The lowest ABI with which every declared guarantee holds: ABI 3 (Linux 6.2) adds LANDLOCK_ACCESS_FS_TRUNCATE. */
    static final int MIN_ABI = 3;

    private static final Set<Guarantee> GUARANTEES = Set.copyOf(EnumSet.of(
        Guarantee.MODIFY_CONTENT, Guarantee.DELETE, Guarantee.RENAME_AWAY, Guarantee.RENAME_OVER,
        Guarantee.CREATE_INSIDE, Guarantee.ANCESTOR_RENAME, Guarantee.CREATE_MISSING, Guarantee.WRITES_OUTSIDE,
        Guarantee.LEFTOVERS));

    /** {@link #abi()} when this is not Linux or libc cannot be reached through JNA. */
    static final int NOT_USABLE = -100_000;

    private static volatile Integer cachedAbi;
    private static volatile String cachedAbiError;

    @Override
    public String name() {
        return "landlock";
    }

    @Override
    public String description() {
        return "Landlock LSM: read-only rule on the protected paths and the directories leading to them, full access"
            + " beside them; does not stop chmod, chown, utime or xattr changes (Landlock has no right for metadata)";
    }

    /** Every kind of existing path: a protected link or special file sits in a directory on the way, where nothing can be created, removed or renamed. */
    @Override
    public Set<ProtectedPath.Kind> coveredKinds() {
        return EnumSet.of(ProtectedPath.Kind.FILE, ProtectedPath.Kind.DIRECTORY, ProtectedPath.Kind.SYMLINK,
                ProtectedPath.Kind.OTHER);
    }

    /**
     * Landlock denies with EACCES, and EXDEV for a rename or link it refuses to reparent (landlock(7)); contained, the
     * paths outside the project are read-only binds: EROFS, and EBUSY for a mount point removed or renamed
     * ({@link ContainedBinds}).
     */
    @Override
    public List<String> deniedErrors() {
        return List.of("EACCES", "EXDEV", "EROFS", "EBUSY");
    }

    /** landlock(7): a sandboxed process may not change the mount topology (fs.c {@code hook_sb_mount}). */
    @Override
    public boolean deniesMount() {
        return true;
    }

    @Override
    public int rank() {
        return 200;
    }

    @Override
    public Set<Guarantee> guarantees() {
        return GUARANTEES;
    }

    @Override
    public Probe probe() {
        return probeFor(abi());
    }

    /** The probe for a kernel answering {@code abi} (see {@link #abi()}). */
    static Probe probeFor(int abi) {
        if (abi < 0) {
            return Probe.unavailable(reasonFor(abi), fixFor(abi));
        }
        if (abi < MIN_ABI) {
            return Probe.unavailable("Landlock ABI " + abi + " is too old: truncation can only be denied from ABI 3"
                + " (Linux 6.2)", "run Linux 6.2 or later");
        }
        return Probe.available("Landlock ABI " + abi + " (" + Long.bitCount(Access.handledFor(abi))
            + " filesystem rights handled)");
    }

    /**
     * The ABI version the kernel reports, or a negative errno when Landlock cannot be used: -ENOSYS (no Landlock in
     * this kernel), -EOPNOTSUPP (built in, not enabled at boot), another -errno (e.g. -EPERM from a seccomp filter),
     * or {@link #NOT_USABLE} when this is not Linux or libc cannot be reached.
     */
    static int abi() {
        Integer a = cachedAbi;
        if (a != null) {
            return a;
        }
        synchronized (LandlockEnforcer.class) {
            if (cachedAbi == null) {
                probeAbi();
            }
            return cachedAbi;
        }
    }

    private static void probeAbi() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            cachedAbiError = "Landlock is a Linux feature; this is " + System.getProperty("os.name");
            cachedAbi = NOT_USABLE;
            return;
        }
        try {
            // landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) returns the highest supported ABI
            // (landlock_create_ruleset(2)).
            long rc = LibC.syscall(LinuxAbi.SYS_LANDLOCK_CREATE_RULESET, 0L, 0L,
                LinuxCalls.LANDLOCK_CREATE_RULESET_VERSION, 0L);
            cachedAbiError = null;
            cachedAbi = rc < 0 ? -LinuxCalls.errno() : (int) rc;
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            cachedAbiError = "cannot call libc through JNA: " + firstLine(e.getMessage());
            cachedAbi = NOT_USABLE;
        }
    }

    /** Why Landlock cannot be used, for a negative {@link #abi()}. */
    static String reasonFor(int abi) {
        if (abi == NOT_USABLE) {
            return cachedAbiError == null ? "Landlock cannot be used here" : cachedAbiError;
        }
        int errno = -abi;
        if (errno == LinuxAbi.EOPNOTSUPP || errno == LinuxAbi.ENOSYS) {
            return "Landlock is not enabled: add landlock to the lsm= boot parameter (landlock_create_ruleset: "
                + Errno.text(errno) + ")";
        }
        return "Landlock cannot be used: landlock_create_ruleset: " + Errno.text(errno);
    }

    private static String fixFor(int abi) {
        if (abi == -LinuxAbi.ENOSYS) {
            return "use a kernel built with CONFIG_SECURITY_LANDLOCK (Linux 6.2 or later) and landlock in lsm=";
        }
        if (abi == -LinuxAbi.EPERM) {
            return "a seccomp filter (a container runtime's, for example) may block the Landlock system calls: allow"
                + " landlock_create_ruleset, landlock_add_rule and landlock_restrict_self";
        }
        if (abi == -LinuxAbi.EOPNOTSUPP) {
            return "add landlock to the lsm= kernel boot parameter (see /sys/kernel/security/lsm for the current"
                + " list) and reboot";
        }
        return "";
    }

    /** For a root invoker, /proc/sys, /sys and the other {@link KernelInterfaces} are planned as protected too. */
    @Override
    public Plan plan(ProtectedSet protectedSet) {
        return plan(KernelInterfaces.forRootInvoker(protectedSet, LauncherNamespace.invokerIsRoot()), abi(),
            LandlockContainment.unavailableReason(), BrokerProcess.unavailableReason());
    }

    /** The plan for a kernel answering {@code abi} (see {@link #abi()}) where the session can be contained; pure. */
    Plan plan(ProtectedSet protectedSet, int abi) {
        return plan(protectedSet, abi, null);
    }

    /**
     * The plan for a kernel answering {@code abi}, {@code notContained} saying why the session cannot be contained
     * here (null when it can: {@link LandlockContainment}); pure. Contained, the paths beneath /proc (a root
     * invoker's kernel interfaces) are no Landlock rules: the session gets a /proc of its own, on which its PID 1
     * binds them read-only ({@link SessionContainer#startPid1}), and that /proc is writable where the host's was (the
     * chain's last unshare writes its uid_map there).
     */
    Plan plan(ProtectedSet protectedSet, int abi, String notContained) {
        return plan(protectedSet, abi, notContained, "not asked");
    }

    /**
     * As {@link #plan(ProtectedSet, int, String)}, with the broker ({@link Broker}) for the directories on the way
     * inside the project when {@code brokerUnavailable} is null: those are not create-restricted then (the broker makes,
     * removes and renames their unprotected entries); the others (the home directory, /) still are.
     */
    Plan plan(ProtectedSet protectedSet, int abi, String notContained, String brokerUnavailable) {
        List<Plan.Refusal> refusals = new ArrayList<>();
        List<Path> procReadOnly = new ArrayList<>();
        if (notContained == null) {
            List<ProtectedPath> kept = new ArrayList<>();
            for (ProtectedPath pp : protectedSet.paths()) {
                if (pp.path().startsWith(PROC) && !pp.path().equals(PROC)) {
                    procReadOnly.add(pp.path());
                } else {
                    kept.add(pp);
                }
            }
            protectedSet = ProtectedSet.of(protectedSet.root(), protectedSet.policyFile(), kept,
                protectedSet.warnings());
        }
        if (abi < 0) {
            refusals.add(Plan.Refusal.of(null, reasonFor(abi), GUARANTEES));
        } else if (abi < MIN_ABI) {
            refusals.add(Plan.Refusal.of(null, "Landlock ABI " + abi + " cannot deny truncation (needs ABI 3, Linux 6.2): truncate(2),"
                + " ftruncate(2) and O_TRUNC would empty protected files", Set.of(Guarantee.MODIFY_CONTENT)));
        }
        if (abi == NOT_USABLE) {
            Plan.Builder b = Plan.builder(name());
            refusals.forEach(b::refuse);
            return b.build();
        }
        long handled = Access.handledFor(Math.max(abi, 1));
        List<String> aliasNotes = new ArrayList<>();
        protectedSet = MountAliases.withAliases(protectedSet, MountTable.read(), aliasNotes);
        List<Binds.Entry> binds = List.of();
        List<Plan.Step> bindSteps = List.of();
        if (notContained == null) {
            ContainedBinds.Result b = ContainedBinds.select(protectedSet);
            protectedSet = b.rules();
            binds = b.binds();
            bindSteps = b.steps();
        }
        RulePlanner.Result r = RulePlanner.plan(protectedSet, handled);
        for (String refusal : r.refusals()) {
            refusals.add(Plan.Refusal.of(null, refusal, GUARANTEES));
        }

        List<Plan.Step> steps = new ArrayList<>();
        steps.add(Plan.Step.of("no-new-privs", null,
            "prctl(PR_SET_NO_NEW_PRIVS): no set-uid gain, required by Landlock"));
        steps.add(Plan.Step.of("landlock-ruleset", null, "handle " + Long.bitCount(handled)
            + " filesystem rights (" + (abi > 0 ? "Landlock ABI " + abi : "Landlock unavailable, shown for ABI 1")
            + "): "
            + Access.words(handled)
            + "; network and scopes are not handled"));
        String fullDir = "full access: " + Access.words(handled);
        String fullFile = "full access: " + Access.words(handled & Access.FILE_RIGHTS);
        for (RulePlanner.Rule rule : r.rules()) {
            String detail;
            if (rule.rights() == (Access.READ_ONLY & handled) && rule.path().getParent() == null) {
                detail = "read-only: " + Access.words(rule.rights()) + "; inherited by every directory on the way and"
                    + " every protected path";
            } else {
                detail = rule.directory() ? fullDir : fullFile;
            }
            steps.add(Plan.Step.of("landlock-rule", rule.path(), detail));
        }
        if (notContained == null) {
            steps.add(Plan.Step.of("pid-namespace", null, "the command runs in a PID namespace of its own, with a"
                + " PID 1, which mounts the namespace's /proc before the restriction" + (procReadOnly.isEmpty() ? ""
                : " and binds " + procReadOnly + " read-only on it") + ", beneath ralon's process (timeout(1), which"
                + " passes signals on): when the command ends, every process it started ends"));
            steps.addAll(bindSteps);
        } else {
            refusals.add(Plan.Refusal.of(null, "processes the command starts could outlive it: " + notContained,
                Set.of(Guarantee.LEFTOVERS)));
        }
        steps.add(Plan.Step.of("landlock-restrict-self", null, "enforce on this thread; the command exec'd on it and"
            + " everything it spawns inherit the restriction"));
        if (notContained == null) {
            steps.add(Plan.Step.of("unshare", null, "a nested user namespace with your own uid/gid (the launcher's"
                + " maps you to root), then the command runs"));
        }

        Path root = protectedSet.root();
        List<Path> brokerable = new ArrayList<>(List.of(root));
        brokerable.addAll(TEMPORARY);
        String tmpdir = System.getenv("TMPDIR");
        if (tmpdir != null && tmpdir.startsWith("/")) {
            brokerable.add(Path.of(tmpdir).normalize());
        }
        // the home directory is no temporary directory, even beneath /tmp (host's WritableAreas says the same of a
        // $TMPDIR holding it): its entries are the user's, and it stays create-restricted outside the project
        String homeVar = System.getenv("HOME");
        Path home = homeVar == null || !homeVar.startsWith("/") ? null : Path.of(homeVar).normalize();
        List<Path> brokered = brokerUnavailable != null ? List.of() : r.onTheWay().stream()
            .filter(d -> d.startsWith(root) || (brokerable.stream().anyMatch(d::startsWith)
                && (home == null || !d.startsWith(home)))).toList();
        List<Path> restricted = r.onTheWay().stream().filter(d -> !brokered.contains(d)).toList();
        if (!brokered.isEmpty()) {
            steps.add(steps.size() - (notContained == null ? 2 : 1), Plan.Step.of("landlock-broker", null,
                "a broker beside the command, outside the Landlock domain, makes, removes and renames the unprotected"
                + " entries of " + summary(brokered, root) + " (a seccomp filter sends it mkdir, the opens that write"
                + " or create, unlink and rename; everything else runs at kernel speed); if it ends, those calls"
                + " fail"));
        }
        List<String> warnings = new ArrayList<>();
        // what only explains the plan: the host reads the side effect from createRestricted() and warns when it hits
        // a place the session is meant to write; a missing protected path is kept from being created (Plan#notes)
        List<String> notes = new ArrayList<>();
        if (!restricted.isEmpty()) {
            // The one cost of this backend (docs/backend-landlock.md): say it in plain words, with the most common victim.
            notes.add("nothing can be created, removed or renamed directly in " + summary(restricted,
                protectedSet.root()) + " while the command runs (Landlock side effect: they lead to protected paths);"
                + (brokered.isEmpty() ? " e.g. a first build cannot create " + protectedSet.root().resolve("target")
                + " if it does not exist yet: create such directories before starting"
                : " inside the project, the broker makes what is not protected"));
        }
        notes.addAll(aliasNotes); // the other mounts' names of a protected path, protected too
        warnings.addAll(r.warnings());
        for (ProtectedPath pp : protectedSet.paths()) {
            if (pp.kind() == ProtectedPath.Kind.MISSING) {
                Path near = nearestOnTheWay(pp.path(), r.onTheWay());
                notes.add(pp.path() + " does not exist: creating it is refused" + (brokered.contains(near)
                    ? " (other entries of " + near + " are made through the broker)"
                    : ", as is creating any other entry in " + near));
            }
        }
        Payload payload = new Payload(Math.max(abi, 1), handled, r.onTheWay(), protectedSet.paths(), r.rules(),
            r.refusedPaths(), notContained == null, List.copyOf(procReadOnly), binds, brokered);
        Plan.Builder plan = Plan.builder(name()).createRestricted(restricted).payload(payload);
        steps.forEach(plan::step);
        warnings.forEach(plan::warning);
        notes.forEach(plan::note);
        refusals.forEach(plan::refuse);
        return plan.build();
    }

    /** How many directories nearest the project root are named in the one-line summary. */
    static final int NAMED = 3;

    /**
     * The create-restricted directories in a few words, however many there are: the count, the {@link #NAMED}
     * nearest to the project root (the root, then the directories inside it, shallowest first, then its ancestors,
     * nearest first), and how many more, which {@code --dry-run} lists. A long list of paths on one warning line is
     * read by nobody.
     */
    static String summary(List<Path> onTheWay, Path root) {
        List<Path> order = new ArrayList<>();
        if (onTheWay.contains(root)) {
            order.add(root);
        }
        onTheWay.stream().filter(p -> p.startsWith(root) && !p.equals(root))
            .sorted(java.util.Comparator.comparingInt(Path::getNameCount).thenComparing(java.util.Comparator.naturalOrder()))
            .forEach(order::add);
        onTheWay.stream().filter(p -> !p.startsWith(root))
            .sorted(java.util.Comparator.comparingInt(Path::getNameCount).reversed()).forEach(order::add);
        int n = order.size();
        StringBuilder b = new StringBuilder();
        b.append(n == 1 ? "1 directory (" : n + " directories (");
        for (int i = 0; i < Math.min(NAMED, n); i++) {
            b.append(i == 0 ? "" : ", ").append(order.get(i));
        }
        if (n > NAMED) {
            b.append(" and ").append(n - NAMED).append(" more: `ralon run --dry-run` lists them");
        }
        return b.append(')').toString();
    }

    private static Path nearestOnTheWay(Path p, List<Path> onTheWay) {
        for (Path a = p.getParent(); a != null; a = a.getParent()) {
            if (onTheWay.contains(a)) {
                return a;
            }
        }
        return Path.of("/");
    }

    /** What {@link #plan} hands to {@link #prepare}. */
    record Payload(int abi, long handled, List<Path> onTheWay, List<ProtectedPath> protectedPaths,
                   List<RulePlanner.Rule> rules, Set<Path> refusedPaths, boolean contained, List<Path> procReadOnly,
                   List<Binds.Entry> binds, List<Path> brokered) {
    }

    /**
     * The temporary directories a confined session may write (host's WritableAreas, without {@code --temp}): directories
     * on the way there are brokered as the project's are, so that a project under /tmp leaves mktemp working.
     */
    static final List<Path> TEMPORARY = List.of(Path.of("/tmp"), Path.of("/var/tmp"), Path.of("/dev/shm"));

    /** The session's own /proc, when it is contained. */
    static final Path PROC = Path.of("/proc");

    /**
     * Restricts the calling thread: no_new_privs, create the ruleset, add the plan's rules (each path re-opened with
     * {@code O_PATH|O_NOFOLLOW} through the directories on the way, and re-identified: a sibling that became another
     * name for a protected path gets no rule; a sibling that vanished gets none), restrict_self. Must run on the thread
     * that will exec the command.
     */
    @Override
    public Launch prepare(Plan plan, Command command) throws EnforcementException {
        return prepare(plan, command, Confinement.NONE);
    }

    /**
     * As {@link #prepare(Plan, Command)}; confined, the rules are planned again for the areas
     * ({@link RulePlanner#plan(List, long, List)}: rules beside the protected paths only inside the areas, a rule per
     * area, /dev's devices), so that everything outside them keeps the read-only rule on {@code /} alone. A refusal
     * of that plan is an {@link EnforcementException}: nothing is started.
     */
    @Override
    public Launch prepare(Plan plan, Command command, Confinement confinement) throws EnforcementException {
        if (!plan.hasPayload(Payload.class)) {
            throw new EnforcementException("landlock: this plan was not made by the landlock backend");
        }
        Payload pl = plan.payload(Payload.class);
        int abi = abi();
        if (abi < 1) {
            throw new EnforcementException(reasonFor(abi));
        }
        long handled = pl.handled() & Access.handledFor(abi);
        if (confinement.confined()) {
            List<Confinement.Area> areas = new ArrayList<>(confinement.areas());
            if (pl.contained()) {
                // the session's own /proc, mounted before the rules are added (the rule lands on it): as writable as
                // under mount, where PID 1 mounts it after the confinement; the chain's unshare writes its uid_map
                areas.add(new Confinement.Area(PROC, true, "the session's own /proc"));
            }
            RulePlanner.Result r = RulePlanner.plan(pl.protectedPaths(), pl.handled(), areas);
            if (!r.refusals().isEmpty()) {
                throw new EnforcementException("landlock: " + String.join("; ", r.refusals()));
            }
            // the broker makes entries only inside the writable areas (a directory on the way outside them, with
            // --temp elsewhere, stays create-restricted)
            List<Path> brokered = pl.brokered().stream().filter(d -> areas.stream()
                .anyMatch(a -> a.directory() && d.startsWith(a.path()))).toList();
            pl = new Payload(pl.abi(), pl.handled(), r.onTheWay(), pl.protectedPaths(), r.rules(), r.refusedPaths(),
                pl.contained(), pl.procReadOnly(), pl.binds(), brokered);
        }
        if (!pl.brokered().isEmpty()) {
            // before the restriction: a process started after it would be inside the domain
            BrokerProcess.start(pl.brokered(), pl.protectedPaths().stream().map(ProtectedPath::path).toList());
        }
        java.util.Optional<LauncherNamespace.Ids> launcherNs = LauncherNamespace.current();
        if (!pl.contained() && launcherNs.isEmpty()) {
            new LandlockApplier(pl, handled, abi).apply();
            return Launch.of(command);
        }
        // In the launcher's user namespace this JVM is uid 0: the command runs in a second user namespace that maps
        // the invoker's own ids back (as the mount backend's last link), contained or not. Contained, it is not root
        // of the launcher's namespace, so it has no capability over PID 1 and the outer timeout, which live there, and
        // cannot ptrace PID 1 to keep it alive (security/commoncap.c cap_ptrace_access_check).
        LauncherNamespace.Ids invoker = launcherNs.orElseThrow(() -> new EnforcementException(
            "landlock: the session's PID namespace is made in the user namespace ralon's launcher (ralon.sh) starts"
            + " `ralon run` in, and this JVM is not in one (started without the launcher, or beside a plugin"
            + " directory)"));
        java.nio.file.Path unshare = SessionContainer.unshare().orElseThrow(
            () -> new EnforcementException("landlock: unshare(1) is gone since the plan"));
        List<String> rest = new ArrayList<>(List.of(unshare.toString(), "--user",
            "--map-user=" + Integer.toUnsignedString(invoker.uid()),
            "--map-group=" + Integer.toUnsignedString(invoker.gid()), "--", command.executable().toString()));
        rest.addAll(command.argv().subList(1, command.argv().size()));
        if (!pl.contained()) {
            new LandlockApplier(pl, handled, abi).apply();
            return Launch.of(unshare, rest, command.env());
        }
        // Contained (LandlockContainment): the PID namespace and its PID 1, which mounts the session's /proc, first,
        // made by this thread as root of the launcher's user namespace; then the restriction, which refuses every
        // mount after it (and lands the /proc rule on the new procfs); then the chain.
        java.nio.file.Path timeout = SessionContainer.timeout().orElseThrow(
            () -> new EnforcementException("landlock: timeout(1) is gone since the plan"));
        try {
            SessionContainer.startPid1(pl.procReadOnly().stream().map(Path::toString).toList());
            // in the session's mount namespace startPid1 made, before the restriction refuses every mount
            Binds.bindAll(pl.binds());
        } catch (ExecException e) {
            throw new EnforcementException("landlock: " + e.getMessage());
        }
        new LandlockApplier(pl, handled, abi).apply();
        return Launch.of(timeout, SessionContainer.argvAfterPid1(timeout, rest), command.env());
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
