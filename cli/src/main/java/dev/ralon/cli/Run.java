package dev.ralon.cli;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Confinement;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.host.discovery.EnforcerFailure;
import dev.ralon.host.discovery.Enforcers;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.linux.Exec;
import dev.ralon.linux.ExecException;
import dev.ralon.linux.LauncherNamespace;
import dev.ralon.host.Admission;
import dev.ralon.host.AgentsUnderLandlock;
import dev.ralon.host.BackendSurvey;
import dev.ralon.host.Backends;
import dev.ralon.host.Baseline;
import dev.ralon.host.BuiltInBackends;
import dev.ralon.host.ProtectedSets;
import dev.ralon.host.SessionReport;
import dev.ralon.host.StartReport;
import dev.ralon.host.WritableAreas;
import dev.ralon.policy.Expansion;
import dev.ralon.policy.walk.PolicySet;
import dev.ralon.policy.Warning;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code ralon run}, executed ({@link RunRequest}; picocli-free, reached from {@link RunCommand} and {@link FastParser}):
 * becomes the command, with the policy enforced by the chosen backend.
 *
 * <p>Contract: the command is started only when the backend is available and its plan is enforceable (or the user
 * passed {@code --allow-degraded}, and then every refusal and missing guarantee is printed first). On success this
 * process (same pid) becomes the command through execve, so the command keeps the terminal, the foreground process
 * group, its exit status and its signals (under a backend that declares {@code leftovers}, the mount backend, the
 * command runs beneath this pid in a PID namespace of its own, and the chain passes the status and signals on). Every refusal is one line and exit 2, with nothing
 * started.
 */
final class Run {
    /** Environment variable the command sees: the backend's name. */
    static final String ENV_BACKEND = "RALON_BACKEND";
    /** Environment variable the command sees: the nearest policy file's absolute path (the others: --dry-run). */
    static final String ENV_POLICY = "RALON_POLICY";

    private Run() {
    }

    /** Runs {@code request}: returns only for {@code --dry-run}; otherwise becomes the command or throws a refusal. */
    static int execute(RunRequest request, PrintWriter out, PrintWriter err) throws IOException {
        List<String> command = request.command();
        boolean dryRun = request.dryRun();
        boolean json = request.json();
        if (command.isEmpty() && !dryRun) {
            throw CliException.error("no command given; usage: ralon run [--backend NAME] -- CMD [ARGS...]");
        }
        if (json && !dryRun) {
            throw CliException.error("--json goes with --dry-run");
        }
        BackendSurvey survey = BackendSurvey.forRun(request.backend()); // what needs no policy, on other threads
        PolicySet policies = PolicyOption.load(request.policy());
        String redirect = RepositoryCheck.refusal(policies.nearest().root());
        if (redirect != null) {
            throw CliException.error(redirect + " (nothing was started)");
        }
        if (request.createAgentState() && !dryRun && System.getenv("HOME") != null) {
            for (Path created : AgentsUnderLandlock.createStateDirectories(Path.of(System.getenv("HOME")))) {
                err.println("ralon: created " + created);
            }
        }
        if (request.writes().anywhere() && (request.writes().temp() != null || !request.writes().allow().isEmpty())) {
            throw CliException.error("--write-anywhere leaves every writable place writable: --temp and --allow-write"
                    + " go without it");
        }
        if (request.writes().temp() != null && !Files.isDirectory(request.writes().temp())) {
            throw CliException.error("--temp " + request.writes().temp() + ": not a directory (it must exist; nothing"
                    + " was started)");
        }
        // where the session may write outside the project (WritableAreas); everything else read-only to it
        WritableAreas.Outcome writable = request.writes().anywhere()
                ? new WritableAreas.Outcome(Confinement.NONE, List.of())
                : WritableAreas.of(policies.nearest().root(), System.getenv(), request.writes().temp(),
                        request.writes().allow(), Path.of("").toAbsolutePath());
        Confinement confinement = writable.confinement();
        WalkReader.install();
        Expansion expansion = policies.expand(false); // no "would match deeper" walk at start-up
        ProtectedSet policySet = ProtectedSets.from(expansion);
        String leftOut = PolicyOption.leftOutNote(request.policy());
        List<Baseline.Item> baselineItems = request.noBaseline() ? List.of()
                : Baseline.items(expansion.policy().root(), System.getenv());
        survey.plan(policySet, baselineItems, confinement); // the chosen backend's plans are made ahead from here

        Enforcers enforcers = survey.enforcers();
        for (String problem : Backends.problems(enforcers)) {
            err.println("ralon: warning: " + problem);
        }
        Backends.Choice choice = Backends.choose(enforcers, request.backend(), policySet,
                Warning.messages(expansion.incomplete(), expansion.naming()), survey::plan);
        Backends.Probed chosen = choice.probed();
        var enforcer = chosen.enforcer();
        if (!dryRun && LauncherNamespace.current().isPresent() && !BuiltInBackends.runsInLauncherNamespace(enforcer)) {
            // The launcher started this JVM as root of a user namespace, for the mount and landlock backends only
            // (ralon.sh), which map the invoker's ids back: another backend's command would run as uid 0 of that
            // namespace instead of as the invoker.
            throw CliException.error("the launcher started this run inside a user namespace for the mount backend,"
                    + " but backend " + enforcer.name() + " was chosen; run `ralon run --backend " + enforcer.name()
                    + " -- ...` (nothing was started)");
        }
        // the baseline (paths that run code later outside the sandbox) is added for the chosen backend: what it cannot
        // protect without refusing or restricting more than the policy does is dropped, and said (Baseline.apply)
        Baseline.Applied baseline;
        try {
            baseline = request.noBaseline() ? null : Baseline.apply(enforcer, policySet, choice.plan(),
                    Baseline.forConfinement(enforcer, baselineItems, confinement),
                    survey.baselinePlan(enforcer, policySet));
        } catch (EnforcerFailure f) { // a plugin's plan() failing on the baseline's paths
            throw CliException.error(f.getMessage() + " (nothing was started)");
        }
        ProtectedSet set = baseline == null ? policySet : baseline.set();
        Plan plan = baseline == null ? choice.plan() : baseline.plan();
        // what the run locks: the set less the missing paths this backend cannot stop being created (Admission says so)
        ProtectedSet planned = Backends.forBackend(set, enforcer);
        List<ProtectedPath> notPreventable = Backends.notPreventable(set, enforcer);
        List<String> gitNotes = StartReport.gitNotes(enforcer, set, plan);
        for (String passed : json ? List.<String>of() : choice.passedOver()) {
            (dryRun ? out : err).println((dryRun ? "" : "ralon: ") + "note: " + passed + "; using " + enforcer.name());
        }

        // decided by the host, for every backend alike, on the set and plan that will run (the baseline included)
        Admission admission = baseline == null ? choice.admission()
                : Admission.of(enforcer, set, plan,
                        Warning.messages(expansion.incomplete(), expansion.naming()));
        boolean confines = enforcer.guarantees().contains(Guarantee.WRITES_OUTSIDE);
        if (confinement.confined() && !confines && !enforcer.guarantees().isEmpty()) {
            List<Plan.Refusal> all = new ArrayList<>(admission.refusals());
            all.add(Plan.Refusal.of(null, "backend " + enforcer.name() + " does not declare " + Guarantee.WRITES_OUTSIDE
                    .id() + ": it cannot keep the session from writing outside the project (--write-anywhere runs"
                    + " without that confinement)", Set.of(Guarantee.WRITES_OUTSIDE)));
            admission = new Admission(List.copyOf(all), admission.notCreateProtected());
        }
        List<String> refusals = admission.reasons();
        boolean enforceable = admission.enforceable();
        String notCreateProtected = admission.notCreateProtectedLine(enforcer.name(), set.root());

        if (dryRun) {
            if (json) {
                Map<String, Object> doc = DryRunReport.json(enforcer, chosen, set, plan, admission);
                doc.put("policies", policies.files().stream().map(Path::toString).toList());
                doc.put("policyReplacedDiscovery", policies.isExplicit());
                doc.put("passedOver", choice.passedOver());
                doc.put("baseline", Baseline.json(baseline));
                doc.put("expandedAtStart", StartReport.expandedAtStart(policies).stream().map(r -> r.pattern()).toList());
                doc.put("session", SessionReport.of(request.allowUnixSockets()).json());
                doc.put("writable", writableJson(writable));
                @SuppressWarnings("unchecked")
                List<String> w = (List<String>) doc.get("warnings");
                w.addAll(gitNotes);
                out.println(Json.write(doc));
            } else {
                if (leftOut != null) {
                    out.println("note: " + leftOut);
                }
                List<String> extra = new ArrayList<>();
                String expandedLine = StartReport.expandedLine(policies);
                if (expandedLine != null) {
                    extra.add("note: " + expandedLine);
                }
                for (String g : gitNotes) {
                    extra.add("warning: " + g);
                }
                extra.addAll(SessionReport.of(request.allowUnixSockets()).lines());
                extra.addAll(WritableAreas.lines(writable, home()));
                DryRunReport.print(out, enforcer, chosen, set, policies, plan, admission, extra);
                Baseline.print(out, baseline, enforcer.name());
            }
            out.flush();
            return enforceable ? ExitCodes.OK : ExitCodes.PROTECTED;
        }

        if (leftOut != null) {
            err.println("ralon: note: " + leftOut);
        }
        for (WritableAreas.Left l : writable.left()) { // asked for, and not writable: said, never silent
            err.println("ralon: warning: " + l.path() + " is not writable in this session (" + l.why() + ")");
        }
        for (Warning w : expansion.warnings()) { // the set's warnings, as data
            if (notCreateProtected != null && w.kind() == Warning.Kind.NAMES_NOTHING_YET) {
                continue; // the one line about missing paths (notCreateProtected) says it, with what it means here
            }
            err.println("ralon: warning: " + w.message(expansion.naming()));
        }
        for (String w : plan.warnings()) {
            err.println("ralon: warning: " + w);
        }
        if (notCreateProtected != null) {
            err.println("ralon: " + notCreateProtected);
        }
        String baselineLine = baseline == null ? null : baseline.summary(enforcer.name());
        if (baselineLine != null && !enforcer.guarantees().isEmpty()) { // noop says "enforces nothing" below
            err.println("ralon: " + baselineLine);
        }
        for (String w : gitNotes) {
            err.println("ralon: warning: " + w);
        }
        if (confinement.confined() && confines && !enforcer.guarantees().contains(Guarantee.METADATA)) {
            // writes-outside is about content and names; a backend without metadata (Landlock: no right for chmod,
            // chown, utimensat, setxattr or FS_IOC_SETFLAGS) leaves those changeable outside the areas too
            err.println("ralon: note: backend " + enforcer.name() + " does not stop metadata changes (chmod, chown,"
                    + " times, xattrs, file flags) outside the writable areas either, as for protected paths");
        }
        if (BuiltInBackends.isLandlock(enforcer)) {
            String home = System.getenv("HOME");
            for (String n : AgentsUnderLandlock.note(command.get(0), plan.createRestricted(),
                    home == null || home.isEmpty() ? null : Path.of(home).toAbsolutePath().normalize(),
                    policies.nearest().root())) {
                err.println("ralon: note: " + n);
            }
        }
        if (!enforceable) {
            if (!request.allowDegraded()) {
                throw CliException.error("backend " + enforcer.name() + " cannot enforce this policy: "
                        + String.join("; ", refusals) + " (nothing was started; --allow-degraded runs anyway)");
            }
            for (String r : refusals) {
                err.println("ralon: DEGRADED: " + r);
            }
            Set<Guarantee> missing = EnumSet.noneOf(Guarantee.class);
            for (Plan.Refusal r : admission.refusals()) {
                missing.addAll(r.lost().isEmpty() ? enforcer.guarantees() : r.lost());
            }
            err.println("ralon: DEGRADED: not guaranteed in this run: " + Backends.guaranteeIds(missing));
        }
        if (enforcer.guarantees().isEmpty()) {
            err.println("ralon: WARNING: backend " + enforcer.name() + " enforces nothing: no path is protected in this run");
        }
        // the session guard is the host's, for every backend: refuse rather than run without it (SessionReport)
        SessionReport session = SessionReport.of(request.allowUnixSockets());
        String sessionRefusal = session.kernelRefusal();
        if (sessionRefusal != null) {
            if (!request.allowDegraded()) {
                throw CliException.error(sessionRefusal + " (nothing was started; --allow-degraded runs anyway)");
            }
            err.println("ralon: DEGRADED: " + sessionRefusal);
        }

        Path cwd = Path.of("").toAbsolutePath();
        Map<String, String> env = userEnvironment(System.getenv());
        env.remove(LauncherNamespace.ENV); // the launcher's word to this JVM, not to the command
        Path executable = Executables.resolve(command.get(0), env.get("PATH"), cwd);
        if (request.writes().temp() != null && confinement.confined()) {
            env.put("TMPDIR", confinement.areas().stream().filter(a -> a.why().endsWith("(--temp)")).findFirst()
                    .map(a -> a.path().toString()).orElse(env.getOrDefault("TMPDIR", "/tmp")));
        }
        env.put(ENV_BACKEND, enforcer.name());
        env.put(ENV_POLICY, policies.nearest().file().toString());
        StartReport.putEnv(env, enforcer, planned);
        Launch launch;
        try {
            launch = enforcer.prepare(plan, new Command(executable, command, env, cwd),
                    confines ? confinement : Confinement.NONE);
        } catch (EnforcementException e) {
            throw CliException.error("backend " + enforcer.name() + ": " + e.getMessage() + " (nothing was started)");
        } catch (EnforcerFailure e) {
            throw CliException.error(e.getMessage() + " (nothing was started)");
        }
        if (!request.quiet()) {
            err.println(StartReport.startLine(enforcer, planned, notPreventable, policies) + session.startLineSuffix()
                    + (confinement.confined() ? "" : "; writes outside the project NOT confined (--write-anywhere)"));
            String errno = StartReport.errnoLine(enforcer);
            if (errno != null) {
                err.println(errno);
            }
        }
        out.flush();
        err.flush();
        try {
            Exec.replaceProcess(launch.executable(), launch.argv(), launch.env(), session.options(enforcer.name()));
        } catch (ExecException e) {
            throw CliException.error(e.getMessage());
        }
        throw new IllegalStateException("execve returned");
    }

    private static Path home() {
        String h = System.getenv("HOME");
        return h == null || !h.startsWith("/") ? null : Path.of(h).normalize();
    }

    /** The writable areas as JSON (docs/json.md): confined, and each area with its path, kind and reason. */
    static Map<String, Object> writableJson(WritableAreas.Outcome o) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("confined", o.confinement().confined());
        List<Object> areas = new ArrayList<>();
        for (Confinement.Area a : o.confinement().areas()) {
            Map<String, Object> e = new java.util.LinkedHashMap<>();
            e.put("path", a.path().toString());
            e.put("kind", a.directory() ? "directory" : "file");
            e.put("why", a.why());
            areas.add(e);
        }
        m.put("areas", areas);
        List<Object> left = new ArrayList<>();
        for (WritableAreas.Left l : o.left()) {
            left.add(Map.of("path", l.path(), "why", l.why()));
        }
        m.put("notWritable", left);
        return m;
    }

    /** Set by the launcher when it started the JVM under LC_ALL=C.UTF-8 in place of the user's locale. */
    static final String ENV_LOCALE_FORCED = "RALON_LOCALE_FORCED";
    /** The user's own LC_ALL, recorded by the launcher when it was set. */
    static final String ENV_USER_LC_ALL = "RALON_USER_LC_ALL";

    /**
     * The command's environment: this process's, with the user's own locale given back exactly. The launcher
     * (ralon.sh) starts the JVM under LC_ALL=C.UTF-8 when the user's LC_CTYPE is not UTF-8, so that file names are read
     * as UTF-8; the command gets the user's LC_ALL back as it was: the recorded value, or unset when it was unset. The
     * same for LIBFFI_TMPDIR, which the launcher points at a directory of its own for this JVM's libffi.
     */
    static Map<String, String> userEnvironment(Map<String, String> processEnv) {
        Map<String, String> env = new HashMap<>(processEnv);
        if (env.remove(ENV_LOCALE_FORCED) != null) {
            env.remove("LC_ALL");
            String user = env.remove(ENV_USER_LC_ALL);
            if (user != null) {
                env.put("LC_ALL", user);
            }
        }
        // the launcher's directory for this JVM's libffi (ralon.sh): the user's own value, or none, for the command
        if (env.remove(ENV_LIBFFI_SET) != null) {
            env.remove("LIBFFI_TMPDIR");
            String user = env.remove(ENV_USER_LIBFFI_TMPDIR);
            if (user != null) {
                env.put("LIBFFI_TMPDIR", user);
            }
        }
        return env;
    }

    /** Set by the launcher when it gave this JVM's libffi a directory of its own (ralon.sh). */
    static final String ENV_LIBFFI_SET = "RALON_LIBFFI_SET";
    /** The user's own LIBFFI_TMPDIR, when the launcher replaced it. */
    static final String ENV_USER_LIBFFI_TMPDIR = "RALON_USER_LIBFFI_TMPDIR";

    static List<String> ids(Set<Guarantee> gs) {
        return gs.isEmpty() ? List.of() : EnumSet.copyOf(gs).stream().map(Guarantee::id).toList();
    }

    /** execvp-style lookup, done before anything is set up so "not found" is a clean error. */
    static final class Executables {
        private Executables() {
        }

        static Path resolve(String name, String pathVar, Path cwd) {
            if (name.isEmpty()) {
                throw CliException.error("empty command name");
            }
            if (name.indexOf('/') >= 0) {
                Path p = cwd.resolve(name).normalize();
                check(p, name);
                return p;
            }
            String search = pathVar == null ? "/usr/local/bin:/usr/bin:/bin" : pathVar;
            boolean foundButNotExecutable = false;
            for (String dir : search.split(":", -1)) {
                Path p = (dir.isEmpty() ? cwd : cwd.resolve(dir)).resolve(name);
                if (Files.isRegularFile(p)) {
                    if (Files.isExecutable(p)) {
                        return p.toAbsolutePath().normalize();
                    }
                    foundButNotExecutable = true;
                }
            }
            throw CliException.error(foundButNotExecutable ? name + ": permission denied (not executable)"
                    : "command not found: " + name);
        }

        private static void check(Path p, String name) {
            if (!Files.exists(p)) {
                throw CliException.error("command not found: " + name);
            }
            if (Files.isDirectory(p)) {
                throw CliException.error(name + ": is a directory");
            }
            if (!Files.isExecutable(p)) {
                throw CliException.error(name + ": permission denied (not executable)");
            }
        }
    }
}
