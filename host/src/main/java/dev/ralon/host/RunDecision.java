package dev.ralon.host;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Confinement;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.host.discovery.EnforcerFailure;
import dev.ralon.linux.LauncherNamespace;
import dev.ralon.linux.SessionGuard;
import dev.ralon.linux.Supervisor;
import dev.ralon.policy.Expansion;
import dev.ralon.policy.walk.PolicySet;
import dev.ralon.policy.Warning;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The one decision behind {@code ralon run}, {@code run --dry-run}, the backend {@code status} says a run would use,
 * and the plan the conformance kit judges: which enforcer, on which protected set (the policy's, plus the baseline it
 * keeps), with which plan, where the session may write, and what the run does not cover. Made by one call,
 * {@link #decide}, on the work a {@link BackendSurvey} started ahead, so that each plan is made once; the front end
 * renders the value and, for a run, builds the command ({@link #command}), has it prepared ({@link #prepare}) and
 * execs it. No front end compares backend names: what depends on a backend comes from its declarations (the SPI) or
 * from the one table of built-ins ({@link BuiltInBackends}), here.
 *
 * <p>Contract: {@link #decide} either returns a value (enforceable or not: {@link #enforceable()} says, with the
 * reasons in {@link #admission()}) or throws a {@link HostException} whose message is one sentence (no backend can
 * enforce, a pinned backend is unknown, excluded or unavailable, a plugin's plan failed on the baseline, the launcher's
 * namespace does not fit the chosen backend). Nothing is started, and nothing on disk changes.
 */
public final class RunDecision {
    /**
     * What the front end asks for, its shape already checked.
     *
     * @param backend          the pinned backend, or null: the machine chooses
     * @param noBaseline       {@code --no-baseline}: the policy's set alone
     * @param forExec          the decision is for a real run (not a dry run or a report): the launcher's namespace
     *                         must fit the backend
     * @param allowUnixSockets {@code --allow-unix-sockets}
     * @param writeAnywhere    {@code --write-anywhere}: no confinement of writes outside the project
     * @param temp             {@code --temp DIR}, or null
     * @param allowWrite       {@code --allow-write} paths
     * @param env              the environment the run starts from
     * @param cwd              the working directory
     */
    public record Options(String backend, boolean noBaseline, boolean forExec, boolean allowUnixSockets,
                          boolean writeAnywhere, Path temp, List<String> allowWrite, Map<String, String> env,
                          Path cwd) {
        public Options {
            allowWrite = List.copyOf(allowWrite);
            env = Map.copyOf(Objects.requireNonNull(env, "env"));
            Objects.requireNonNull(cwd, "cwd");
        }

        /** A run with no option but {@code backend} (status's "would use", the kit's plan). */
        public static Options plain(String backend, Map<String, String> env, Path cwd) {
            return new Options(backend, false, false, false, false, null, List.of(), env, cwd);
        }
    }

    private final Options options;
    private final PolicySet policies;
    private final Expansion expansion;
    private final WritableAreas.Outcome writable;
    private final List<String> problems;
    private final Backends.Choice choice;
    private final Baseline.Applied baseline;
    private final ProtectedSet set;
    private final Plan plan;
    private final ProtectedSet planned;
    private final List<ProtectedPath> notPreventable;
    private final Admission admission;
    private final SessionReport session;
    private final boolean supervised;
    /** The home directory ({@code $HOME}), or null. */
    private final Path home;
    /** The project's tool caches, when they are an area of this session ({@link #caches()}), or null. */
    private final Path caches;

    private RunDecision(Options options, PolicySet policies, Expansion expansion, WritableAreas.Outcome writable,
                        List<String> problems, Backends.Choice choice, Baseline.Applied baseline, ProtectedSet set,
                        Plan plan, Admission admission, SessionReport session, boolean supervised) {
        this.supervised = supervised;
        this.options = options;
        this.policies = policies;
        this.expansion = expansion;
        this.writable = writable;
        this.problems = List.copyOf(problems);
        this.choice = choice;
        this.baseline = baseline;
        this.set = set;
        this.plan = plan;
        this.planned = Backends.forBackend(set, choice.probed().enforcer());
        this.notPreventable = Backends.notPreventable(set, choice.probed().enforcer());
        this.admission = admission;
        this.session = session;
        this.home = WritableAreas.home(options.env());
        Path c = home == null ? null : HomeCopy.caches(home, policies.nearest().root());
        this.caches = c != null && writable.confinement().areas().stream().anyMatch(a -> a.path().equals(c)) ? c : null;
    }

    /**
     * Decides the run of {@code policies} (expanded as {@code expansion}) with {@code options}, on the backends
     * {@code survey} discovered and probed ahead: the plans it made ahead are the ones used.
     *
     * @throws HostException when no run can be decided (see the class doc)
     */
    public static RunDecision decide(BackendSurvey survey, PolicySet policies, Expansion expansion, Options options) {
        return inputs(survey, policies, expansion, options).decide();
    }

    /**
     * The first half of {@link #decide}: where the session may write and the baseline's items, handed to
     * {@code survey} to plan for (once); {@link Inputs#decide} then chooses. For a report that shows the inputs even
     * when no run can be decided ({@code status}).
     */
    public static Inputs inputs(BackendSurvey survey, PolicySet policies, Expansion expansion, Options options) {
        // where the session may write outside the project (WritableAreas); everything else read-only to it
        WritableAreas.Outcome writable = options.writeAnywhere()
                ? new WritableAreas.Outcome(Confinement.NONE, List.of(), List.of())
                : WritableAreas.of(policies.nearest().root(), options.env(), options.temp(), options.allowWrite(),
                        options.cwd());
        ProtectedSet policySet = ProtectedSets.from(expansion);
        List<Baseline.Item> items = options.noBaseline() ? List.of()
                : Baseline.items(expansion.policy().root(), options.env());
        survey.plan(policySet, items, writable.confinement(), writable.copied() == null ? null
                : writable.copied().confinement()); // the chosen backend's plans are made ahead from here
        return new Inputs(survey, policies, expansion, options, writable, policySet, items);
    }

    /**
     * What a run is decided on, given to the survey.
     *
     * @param writable  where the session may write outside the project
     * @param policySet the policy's protected set
     * @param items     the baseline's items (none under {@code --no-baseline})
     */
    public record Inputs(BackendSurvey survey, PolicySet policies, Expansion expansion, Options options,
                         WritableAreas.Outcome writable, ProtectedSet policySet, List<Baseline.Item> items) {
        /** The decision on these inputs ({@link RunDecision#decide}). */
        public RunDecision decide() {
            return RunDecision.decide(this);
        }
    }

    private static RunDecision decide(Inputs in) {
        BackendSurvey survey = in.survey();
        Options options = in.options();
        Expansion expansion = in.expansion();
        ProtectedSet policySet = in.policySet();
        List<Baseline.Item> items = in.items();
        List<String> problems = survey.problems();
        List<String> incomplete = Warning.messages(expansion.incomplete(), expansion.naming());
        Backends.Choice choice = Backends.choose(survey.enforcers(), options.backend(), policySet, incomplete,
                survey::plan, survey::probe);
        Enforcer enforcer = choice.probed().enforcer();
        // the session's writable places: with a copy of the home directory when the backend makes one (HomeCopy)
        WritableAreas.Outcome writable = in.writable().forEnforcer(enforcer);
        Confinement confinement = writable.confinement();
        if (options.forExec() && LauncherNamespace.current().isPresent()
                && !BuiltInBackends.runsInLauncherNamespace(enforcer)) {
            // The launcher started this JVM as root of a user namespace, for the mount and landlock backends only
            // (ralon.sh), which map the invoker's ids back: another backend's command would run as uid 0 of that
            // namespace instead of as the invoker.
            throw new HostException("the launcher started this run inside a user namespace for the mount backend,"
                    + " but backend " + enforcer.name() + " was chosen; run `ralon run --backend " + enforcer.name()
                    + " -- ...` (nothing was started)");
        }
        // the baseline (paths that run code later outside the sandbox) is added for the chosen backend: what it cannot
        // protect without refusing or restricting more than the policy does is dropped, and said (Baseline.apply)
        Baseline.Applied baseline;
        try {
            Baseline.Applied ahead = options.noBaseline() ? null : survey.applied(enforcer, policySet);
            baseline = options.noBaseline() ? null : ahead != null ? ahead
                    : Baseline.apply(enforcer, policySet, choice.plan(),
                            Baseline.forConfinement(enforcer, items, confinement),
                            survey.baselinePlan(enforcer, policySet));
        } catch (EnforcerFailure f) { // a plugin's plan() failing on the baseline's paths
            throw new HostException(f.getMessage() + " (nothing was started)");
        }
        ProtectedSet set = baseline == null ? policySet : baseline.set();
        Plan plan = baseline == null ? choice.plan() : baseline.plan();
        // decided by the host, for every backend alike, on the set and plan that will run (the baseline included)
        Admission admission = baseline == null ? choice.admission() : Admission.of(enforcer, set, plan, incomplete);
        if (confinement.confined() && !enforcer.guarantees().contains(Guarantee.WRITES_OUTSIDE)
                && !enforcer.guarantees().isEmpty()) {
            List<Plan.Refusal> all = new ArrayList<>(admission.refusals());
            all.add(Plan.Refusal.of(null, "backend " + enforcer.name() + " does not declare " + Guarantee.WRITES_OUTSIDE
                    .id() + ": it cannot keep the session from writing outside the project (--write-anywhere runs"
                    + " without that confinement)", Set.of(Guarantee.WRITES_OUTSIDE)));
            admission = new Admission(List.copyOf(all), admission.notCreateProtected());
        }
        SessionReport session = SessionReport.of(options.allowUnixSockets());
        // what the backend cannot contain (leftovers: no PID namespace here), ralon holds itself when it can: it stays
        // as the command's parent and a child subreaper, and ends every process left (Supervisor)
        List<Plan.Refusal> leftovers = admission.refusals().stream()
                .filter(r -> r.lost().equals(Set.of(Guarantee.LEFTOVERS))).toList();
        boolean supervised = false;
        if (!leftovers.isEmpty()) {
            String cannot = Supervisor.unavailableReason(session.options(enforcer.name()));
            List<Plan.Refusal> kept = new ArrayList<>();
            for (Plan.Refusal r : admission.refusals()) {
                if (!leftovers.contains(r)) {
                    kept.add(r);
                } else if (cannot != null) {
                    kept.add(Plan.Refusal.of(r.path(), r.reason() + ", and ralon cannot end them itself: " + cannot,
                            r.lost()));
                }
            }
            supervised = cannot == null;
            admission = new Admission(List.copyOf(kept), admission.notCreateProtected());
        }
        return new RunDecision(options, in.policies(), expansion, writable, problems, choice, baseline, set, plan,
                admission, session, supervised);
    }

    /**
     * Whether ralon stays as the command's parent and ends every process it leaves ({@link Supervisor}): the
     * backend cannot contain the session itself here, and the session guard keeps the command from signalling ralon.
     */
    public boolean supervised() {
        return supervised;
    }

    /** The options it was decided on. */
    public Options options() {
        return options;
    }

    /** The policy files. */
    public PolicySet policies() {
        return policies;
    }

    /** The policy's expansion. */
    public Expansion expansion() {
        return expansion;
    }

    /** The chosen backend. */
    public Enforcer enforcer() {
        return choice.probed().enforcer();
    }

    /** The chosen backend with its probe. */
    public Backends.Probed chosen() {
        return choice.probed();
    }

    /** Why stronger backends were passed over (a plugin whose plan() failed), one line each. */
    public List<String> passedOver() {
        return choice.passedOver();
    }

    /** Problems of discovery (a plugin that failed to load or was excluded), one line each. */
    public List<String> problems() {
        return problems;
    }

    /** Where the session may write outside the project, and what was asked for and is not writable. */
    public WritableAreas.Outcome writable() {
        return writable;
    }

    /** The confinement handed to {@link Enforcer#prepare}: none when the backend does not declare writes-outside. */
    public Confinement confinement() {
        return confines() ? writable.confinement() : Confinement.NONE;
    }

    /** Whether the chosen backend confines the session's writes outside the project. */
    public boolean confines() {
        return enforcer().guarantees().contains(Guarantee.WRITES_OUTSIDE);
    }

    /** What the baseline kept and dropped for the chosen backend; null under {@code --no-baseline}. */
    public Baseline.Applied baseline() {
        return baseline;
    }

    /** The set that runs: the policy's plus the baseline kept. */
    public ProtectedSet set() {
        return set;
    }

    /** The plan that runs. */
    public Plan plan() {
        return plan;
    }

    /** What the run locks: the set less the missing paths this backend cannot stop being created. */
    public ProtectedSet planned() {
        return planned;
    }

    /** The missing paths this backend cannot stop being created. */
    public List<ProtectedPath> notPreventable() {
        return notPreventable;
    }

    /** The host's admission of the plan, with the writes-outside refusal when the backend cannot confine. */
    public Admission admission() {
        return admission;
    }

    /** Whether the run may start without {@code --allow-degraded}. */
    public boolean enforceable() {
        return admission.enforceable();
    }

    /** The guarantees the refusals cost, for the DEGRADED line. */
    public Set<Guarantee> missing() {
        Set<Guarantee> missing = EnumSet.noneOf(Guarantee.class);
        for (Plan.Refusal r : admission.refusals()) {
            missing.addAll(r.lost().isEmpty() ? enforcer().guarantees() : r.lost());
        }
        return missing;
    }

    /** The session guard's report (held and not held, the kernel's refusal). */
    public SessionReport session() {
        return session;
    }

    /** What the session guard installs at exec for the chosen backend. */
    public SessionGuard.Options sessionOptions() {
        return session.options(enforcer().name());
    }

    /** The policies' patterns expanded at start (StartReport.expandedAtStart), in the order written. */
    public List<dev.ralon.policy.Rule> expandedAtStart() {
        return StartReport.expandedAtStart(policies);
    }

    /** The git notes: where the plan leaves git's own files open (StartReport.gitNotes). */
    public List<String> gitNotes() {
        return StartReport.gitNotes(enforcer(), set, plan);
    }

    /**
     * The warning a user must act on when the plan makes a place the session is meant to write create-restricted
     * (nothing can be created, removed or renamed directly in it: {@link Plan#createRestricted()}): {@code $HOME}, the
     * temporary directories and every writable area outside the project, named each, nearest the user's first; null
     * when there is none. The project and its git directory are left to the broker and {@link #gitNotes()}.
     */
    public String createRestrictedWarning() {
        java.util.Set<Path> restricted = new java.util.HashSet<>(plan.createRestricted());
        if (restricted.isEmpty()) {
            return null;
        }
        List<Path> candidates = new ArrayList<>();
        String home = options.env().get("HOME");
        Path homePath = home == null || !home.startsWith("/") ? null : AgentsUnderLandlock.real(Path.of(home));
        if (homePath != null) {
            candidates.add(homePath);
        }
        String tmpdir = options.env().get("TMPDIR");
        for (String t : new String[] {tmpdir, "/tmp", "/var/tmp", "/dev/shm"}) {
            if (t != null && t.startsWith("/")) {
                candidates.add(AgentsUnderLandlock.real(Path.of(t)));
            }
        }
        for (Confinement.Area a : writable.confinement().areas()) {
            if (a.directory()) {
                candidates.add(AgentsUnderLandlock.real(a.path()));
            }
        }
        Path root = set.root();
        List<String> named = new ArrayList<>();
        for (Path c : candidates) {
            String shown = homePath != null && c.startsWith(homePath) && !c.equals(homePath)
                    ? "~/" + homePath.relativize(c) : c.equals(homePath) ? "~ (" + c + ")" : c.toString();
            if (restricted.contains(c) && !c.startsWith(root) && !c.equals(root.resolve(".git")) && !named.contains(shown)) {
                named.add(shown);
            }
        }
        if (named.isEmpty()) {
            return null;
        }
        return "nothing can be created, removed or renamed directly in " + String.join(", ", named) + " while the"
                + " command runs (" + enforcer().name() + ": they lead to protected paths): temporary files and agents'"
                + " state files fail there; use the mount backend, or --temp DIR for temporary files";
    }

    /** The line about missing literal paths not protected against creation, or null. */
    public String notCreateProtectedLine() {
        return admission.notCreateProtectedLine(enforcer().name(), set.root());
    }

    /**
     * The notes said at start that depend on the backend's declarations and plan: metadata outside the writable areas,
     * and, for a command that starts a known agent ({@link Agents#in}), what the plan's create-restricted directories
     * mean for it.
     */
    public List<String> notes(List<String> command) {
        Agents.Agent agent = Agents.in(command);
        String commandName = agent == null ? "/" : agent.executable(); // "/": no agent (AgentsUnderLandlock.note)
        List<String> notes = new ArrayList<>();
        if (writable.confinement().confined() && confines() && !enforcer().guarantees().contains(Guarantee.METADATA)) {
            // writes-outside is about content and names; a backend without metadata (Landlock: no right for chmod,
            // chown, utimensat, setxattr or FS_IOC_SETFLAGS) leaves those changeable outside the areas too
            notes.add("backend " + enforcer().name() + " does not stop metadata changes (chmod, chown, times, xattrs,"
                    + " file flags) outside the writable areas either, as for protected paths");
        }
        if (!plan.createRestricted().isEmpty() || enforcer().deniesMount()) { // what the plan and the SPI say
            String home = options.env().get("HOME");
            notes.addAll(AgentsUnderLandlock.note(commandName, enforcer().name(), plan.createRestricted(),
                    enforcer().deniesMount(), home == null || home.isEmpty() ? null
                            : Path.of(home).toAbsolutePath().normalize(), policies.nearest().root()));
        }
        if (caches != null) {
            notes.add("~ is read-only to the session (no copy under " + enforcer().name() + "): the tools' caches go to "
                    + caches + " (" + String.join(", ", HomeCopy.CACHE_VARIABLES.stream().map(v -> v[0]).toList())
                    + ", unless you set them); `ralon home --drop` empties them");
        }
        return notes;
    }

    /**
     * The command to hand to {@link #prepare}: {@code argv} run as {@code executable} in the options' directory, with
     * {@code userEnv} plus what the run tells the command ({@code RALON_*}, and {@code TMPDIR} under {@code --temp}).
     */
    public Command command(Path executable, List<String> argv, Map<String, String> userEnv) {
        Map<String, String> env = new HashMap<>(userEnv);
        Confinement confinement = writable.confinement();
        if (options.temp() != null && confinement.confined()) {
            env.put("TMPDIR", confinement.areas().stream().filter(a -> a.why().endsWith("(--temp)")).findFirst()
                    .map(a -> a.path().toString()).orElse(env.getOrDefault("TMPDIR", "/tmp")));
        }
        if (caches != null) { // ~ read-only, no copy: the tools' caches go to the project's (HomeCopy.CACHE_VARIABLES)
            for (String[] v : HomeCopy.CACHE_VARIABLES) {
                env.putIfAbsent(v[0], caches.resolve(v[1]).toString());
            }
        }
        env.put(StartReport.ENV_BACKEND, enforcer().name());
        env.put(StartReport.ENV_POLICY, policies.nearest().file().toString());
        StartReport.putEnv(env, enforcer(), planned());
        return Command.of(executable, argv, env, options.cwd());
    }

    /** The project's tool caches when the session has them (an area, ~ no copy: {@link WritableAreas#CACHES}), or null. */
    public Path caches() {
        return caches;
    }

    /**
     * Has the chosen backend prepare {@code command}: what to exec.
     *
     * @throws HostException when the backend refuses or fails (one line; nothing was started)
     */
    public Launch prepare(Command command) {
        Confinement.Copy copy = confinement().copy();
        if (copy != null) {
            HomeCopy.make(copy, policies.nearest().root()); // its store, made and checked (one line if damaged)
        }
        if (caches != null) {
            HomeCopy.makeCaches(home, policies.nearest().root());
        }
        try {
            return enforcer().prepare(plan, command, confinement());
        } catch (EnforcementException e) {
            throw new HostException("backend " + enforcer().name() + ": " + e.getMessage() + " (nothing was started)");
        } catch (EnforcerFailure e) {
            throw new HostException(e.getMessage() + " (nothing was started)");
        }
    }

    /** The start line (with the session's suffix and the confinement's word). */
    public String startLine() {
        Confinement.Copy copy = confinement().copy();
        return StartReport.startLine(enforcer(), planned(), notPreventable(), policies) + session.startLineSuffix()
                + (supervised ? "; ralon stays beside the command and ends every process it leaves" : "")
                + (writable.confinement().confined() ? ""
                : "; writes outside the project NOT confined (--write-anywhere)")
                + (copy == null ? "" : "; ~ is a copy: what the session writes there stays in ~/"
                + copy.path().relativize(copy.store().getParent()) + "/");
    }

    /** The line about the kernel's error codes under this backend, or null. */
    public String errnoLine() {
        return StartReport.errnoLine(enforcer());
    }
}
