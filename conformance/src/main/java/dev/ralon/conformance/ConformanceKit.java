package dev.ralon.conformance;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Enforcers;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.host.ProtectedSets;
import dev.ralon.policy.PolicyLoader;
import dev.ralon.policy.PolicySet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The conformance kit: attacks an enforcer for real, through the same code path as {@code ralon run}, and turns what
 * happened on disk into JUnit 5 tests. A third party adds the kit in test scope and writes:
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicNode> conformance() {
 *     return ConformanceKit.forEnforcer("my-enforcer").build().tests();
 * }
 * }</pre>
 *
 * <h2>What a run does</h2>
 * It builds a fresh project under /tmp (a git repository; one directory per (attack × kind of path), see
 * {@link Attacks} and {@link PathKind}), then starts a child JVM running {@code dev.ralon.cli.Main run --backend NAME
 * -- /bin/sh attacks.sh} with the test class path (so the enforcer is found by ServiceLoader exactly as
 * {@code ralon run} finds it), optionally as another user through {@code setpriv}. The script makes every attack
 * inside the sandbox; the kit reads the disk from OUTSIDE: content hash, inode, existence, directory listing, mode,
 * mtime, owner. The same script runs once per JVM and user under {@code --backend noop} as the control.
 *
 * <h2>Verdicts (claims against reality, both directions)</h2>
 * <ul>
 *   <li>A guarantee the enforcer declares: every attack on it must leave its path unchanged. A change fails the test
 *       with the attack and what changed on disk.</li>
 *   <li>A guarantee it does not declare must really be breakable: at least one of its attacks must get through
 *       (or, for {@link Guarantee#CREATE_MISSING}, the plan must refuse missing paths, which reports it unsupported).
 *       A backend that holds a guarantee it does not declare fails: claims must match reality.</li>
 *   <li>Every attack must change its path under the control run ({@code noop}), or the test fails as "proves
 *       nothing".</li>
 *   <li>What must keep working keeps working: unprotected writes, new files where the plan does not restrict
 *       creation, reading protected files, {@code git status}, the command's exit status.</li>
 * </ul>
 * Needs Linux, {@code /bin/sh}, coreutils, git and util-linux on the host. When the enforcer's probe says
 * unavailable, or another user is asked for and the JVM is not root, the tests are aborted (skipped) — except when
 * the environment variable {@code CI} is {@code true}, where they fail.
 */
public final class ConformanceKit {
    /** uid of "nobody", the unprivileged user CI runs the kit as. */
    public static final int NOBODY = 65534;

    /**
     * System property: when {@code true}, the attacked project of a run with any failure is kept under /tmp (and its
     * path printed) instead of being deleted, to look at what the attacks left.
     */
    public static final String KEEP_PROPERTY = "ralon.conformance.keep";

    /** System property: a directory where every run writes one tab-separated line per (attack × kind). */
    public static final String RESULTS_PROPERTY = "ralon.conformance.results";

    private static final Map<Integer, KitRun.Result> CONTROLS = new ConcurrentHashMap<>();

    private final String name;
    private final int uid;
    private final int timeoutSeconds;
    private final ClassLoader loader;

    private ConformanceKit(Builder b) {
        this.name = b.name;
        this.uid = b.uid;
        this.timeoutSeconds = b.timeoutSeconds;
        this.loader = b.loader;
    }

    /** A kit for the enforcer registered under {@code name} (found with ServiceLoader on the test class path). */
    public static Builder forEnforcer(String name) {
        return new Builder(name);
    }

    /** Builder of a {@link ConformanceKit}. */
    public static final class Builder {
        private final String name;
        private int uid = KitHost.currentUid();
        private int timeoutSeconds = 240;
        private ClassLoader loader = Thread.currentThread().getContextClassLoader();

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /** Runs the sandboxed command as {@code uid} (via {@code setpriv}; needs root). Default: this JVM's user. */
        public Builder asUser(int uid) {
            this.uid = uid;
            return this;
        }

        /** Runs as uid 65534 (nobody), the unprivileged user CI runs the kit as (needs root). */
        public Builder asNobody() {
            return asUser(NOBODY);
        }

        /** Limit for one sandboxed run. Default 240 s. */
        public Builder timeoutSeconds(int seconds) {
            this.timeoutSeconds = seconds;
            return this;
        }

        /** Where to look for the enforcer in this JVM (its declarations and plan). Default: the context loader. */
        public Builder classLoader(ClassLoader loader) {
            this.loader = Objects.requireNonNull(loader);
            return this;
        }

        public ConformanceKit build() {
            return new ConformanceKit(this);
        }
    }

    /**
     * One (attack × kind) verdict.
     *
     * @param notJudged why this case could not be judged (an earlier breach replaced the policy file, whose
     *                  protection in the sandbox then cannot speak for the new file), or null when it was judged;
     *                  a case not judged neither passes nor fails: its test is aborted with this reason
     */
    public record Verdict(String caseId, Attack attack, PathKind kind, boolean declared, boolean brokeThrough,
                          boolean controlChanged, String failure, String detail, String notJudged) {
        public boolean passed() {
            return failure == null;
        }
    }

    /**
     * Everything measured by one run.
     *
     * @param backend     the enforcer's name
     * @param uid         the user the command ran as
     * @param declared    what the enforcer declares
     * @param setupFailure why the run could not be judged at all (null when it could)
     * @param sanity      what must keep working: name → failure message (null when it worked)
     * @param verdicts    one per (attack × kind), in catalogue order
     * @param unsupported guarantees reported unsupported by the plan instead of being attacked, with the reason
     */
    public record Report(String backend, int uid, Set<Guarantee> declared, String setupFailure,
                         Map<String, String> sanity, List<Verdict> verdicts, Map<Guarantee, String> unsupported) {
        /** The measured state of one guarantee, in the words docs/conformance.md uses. */
        public String status(Guarantee g) {
            List<Verdict> vs = verdicts.stream().filter(v -> v.attack().guarantee() == g).toList();
            if (setupFailure != null) {
                return "no verdict: the sandboxed run failed";
            }
            long broke = vs.stream().filter(Verdict::brokeThrough).count();
            if (declared.contains(g)) {
                return broke == 0 ? "guaranteed, held (" + vs.size() + "/" + vs.size() + " blocked)"
                        : "DECLARED BUT BROKEN (" + broke + "/" + vs.size() + " got through)";
            }
            if (vs.isEmpty()) {
                return unsupported.containsKey(g) ? "not guaranteed (plan refuses: unsupported)" : "not tested";
            }
            return broke > 0 ? "not guaranteed (and indeed breakable: " + broke + "/" + vs.size() + " got through)"
                    : "not declared, yet held (" + vs.size() + "/" + vs.size() + " blocked)";
        }

        /** Whether the guarantee, not being declared, was shown breakable or reported unsupported. */
        boolean undeclaredIsHonest(Guarantee g) {
            return unsupported.containsKey(g) || verdicts.stream()
                    .anyMatch(v -> v.attack().guarantee() == g && v.brokeThrough());
        }
    }

    private Report report;

    /** Runs the attacks once (later calls return the same report). */
    public synchronized Report run() {
        if (report == null) {
            try {
                report = execute();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return report;
    }

    private static String legacyTiocsti() {
        try {
            return Files.readString(Path.of("/proc/sys/dev/tty/legacy_tiocsti")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static boolean inCi() {
        return "true".equals(System.getenv("CI"));
    }

    private String who() {
        return name + ", uid " + uid;
    }

    /** The JUnit 5 tests: one per (attack × kind), grouped per guarantee, plus what must keep working. */
    public Stream<DynamicNode> tests() {
        Enforcers found = Enforcers.discover(loader);
        Enforcer enforcer = found.byName(name).orElse(null);
        if (enforcer == null) {
            String known = found.all().stream().map(Enforcer::name).collect(Collectors.joining(", "));
            return Stream.of(DynamicTest.dynamicTest("[" + who() + "] enforcer is on the test class path", () -> {
                throw new AssertionFailedError("no enforcer named '" + name + "' is found by ServiceLoader on the test"
                        + " class path (found: " + known + (found.problems().isEmpty() ? "" : "; problems: "
                        + String.join("; ", found.problems())) + ")");
            }));
        }
        Probe probe = enforcer.probe();
        if (!probe.available()) {
            String msg = "backend " + name + " is unavailable here: " + probe.detail()
                    + (probe.fix().isEmpty() ? "" : " (fix: " + probe.fix() + ")");
            return Stream.of(DynamicTest.dynamicTest("[" + who() + "] backend is available", () -> {
                if (inCi()) {
                    throw new AssertionFailedError("CI=true but " + msg);
                }
                Assumptions.abort(msg);
            }));
        }
        if (uid != KitHost.currentUid() && KitHost.currentUid() != 0) {
            String msg = "running the command as uid " + uid + " needs root (setpriv); this JVM runs as uid "
                    + KitHost.currentUid();
            return Stream.of(DynamicTest.dynamicTest("[" + who() + "] can switch user", () -> {
                if (inCi()) {
                    throw new AssertionFailedError("CI=true but " + msg);
                }
                Assumptions.abort(msg);
            }));
        }
        Report r = run();
        List<DynamicNode> nodes = new ArrayList<>();
        String prefix = "[" + who() + "] ";
        if (r.verdicts().isEmpty()) {
            // a kit that attacked nothing must not report success
            return Stream.of(DynamicTest.dynamicTest(prefix + "the kit made its attacks", () -> {
                throw new AssertionFailedError("the conformance kit ran no attack against backend " + name);
            }));
        }
        nodes.add(DynamicTest.dynamicTest(prefix + "ralon run --backend " + name + " ran the attack script to its end",
                () -> {
                    if (r.setupFailure() != null) {
                        throw new AssertionFailedError(r.setupFailure());
                    }
                }));
        List<DynamicNode> working = new ArrayList<>();
        for (Map.Entry<String, String> e : r.sanity().entrySet()) {
            working.add(DynamicTest.dynamicTest(prefix + e.getKey(), () -> {
                if (e.getValue() != null) {
                    throw new AssertionFailedError(e.getValue());
                }
            }));
        }
        nodes.add(DynamicContainer.dynamicContainer(prefix + "what must keep working", working));
        for (Guarantee g : Guarantee.values()) {
            List<DynamicNode> tests = new ArrayList<>();
            boolean declared = r.declared().contains(g);
            for (Verdict v : r.verdicts()) {
                if (v.attack().guarantee() != g) {
                    continue;
                }
                String outcome = v.brokeThrough() ? "got through" : "blocked";
                if (v.notJudged() != null) {
                    outcome = "not judged";
                }
                tests.add(DynamicTest.dynamicTest(prefix + v.attack().id() + " x " + v.kind().id() + " -> " + outcome
                        + (declared ? "" : " (not declared)"), () -> {
                    if (v.failure() != null && v.failure().startsWith(Judge.NOT_JUDGED) && !inCi()) {
                        Assumptions.abort(v.failure());
                    }
                    if (v.failure() != null) {
                        throw new AssertionFailedError(v.failure());
                    }
                    if (v.notJudged() != null) {
                        Assumptions.abort(v.notJudged());
                    }
                }));
            }
            if (!declared) {
                tests.add(DynamicTest.dynamicTest(prefix + g.id() + " is not declared: it must be breakable or "
                        + "reported unsupported", () -> {
                    if (r.setupFailure() == null && !r.undeclaredIsHonest(g)) {
                        throw new AssertionFailedError("backend " + name + " does not declare " + g.id() + " ("
                                + g.effect() + "), yet every attack on it was blocked: declare it (claims must match"
                                + " reality in both directions)");
                    }
                }));
            }
            nodes.add(DynamicContainer.dynamicContainer(prefix + g.id() + ": " + r.status(g), tests));
        }
        return nodes.stream();
    }

    // ------------------------------------------------------------------------------------------ execution

    private Report execute() throws IOException {
        Enforcer enforcer = Enforcers.discover(loader).byName(name).orElseThrow();
        Set<Guarantee> declared = enforcer.guarantees().isEmpty() ? EnumSet.noneOf(Guarantee.class)
                : EnumSet.copyOf(enforcer.guarantees());
        Map<Guarantee, String> unsupported = new LinkedHashMap<>();
        boolean includeMissing = true;
        if (!declared.contains(Guarantee.CREATE_MISSING)) {
            String refusal = missingPathRefusal(enforcer);
            if (refusal != null) {
                unsupported.put(Guarantee.CREATE_MISSING, refusal);
                includeMissing = false;
            }
        }
        String cp = KitHost.readableClasspath();
        KitRun.Result control = name.equals("noop") ? null : control(cp);
        // a backend that does not declare it covers symbolic links is refused by the host for a policy protecting one
        // (a link on the way is one): its runs leave the linked cases out, and links are reported unsupported
        boolean includeLinked = enforcer.coveredKinds().contains(ProtectedPath.Kind.SYMLINK);
        KitRun run = new KitRun(name, uid, cp, includeMissing, includeLinked);
        KitRun.Result result;
        Set<Path> createRestricted;
        String planProblem;
        try {
            run.buildProject();
            Plan plan = enforcer.plan(protectedSet(run.project().resolve("agent.lock")));
            createRestricted = Set.copyOf(plan.createRestricted());
            planProblem = plan.enforceable() ? null : "the plan for the kit's project has refusals: "
                    + plan.refusals().stream().map(Plan.Refusal::reason).collect(Collectors.joining("; "));
            result = run.execute(timeoutSeconds);
        } catch (IOException | RuntimeException e) {
            run.delete();
            throw e;
        }
        Judge.Input in = new Judge.Input(name, run.project(), declared, run.cases(), result,
                control == null ? result : control, createRestricted, planProblem, legacyTiocsti());
        String setupFailure = Judge.setupFailure(in);
        Map<String, String> sanity = Judge.sanity(in);
        List<Verdict> verdicts = Judge.verdicts(in, setupFailure);
        Report rep = new Report(name, uid, declared, setupFailure, sanity, verdicts, unsupported);
        boolean failed = setupFailure != null || verdicts.stream().anyMatch(v -> !v.passed())
                || sanity.values().stream().anyMatch(Objects::nonNull);
        if (failed && Boolean.getBoolean(KEEP_PROPERTY)) {
            System.out.println("ralon conformance kit: kept the attacked project of backend " + name + ", uid " + uid
                    + " in " + run.project() + " (each case in c/ATTACK-KIND/; the attack script and its log in "
                    + run.project().resolveSibling("home") + "); delete it when done");
        } else {
            run.delete();
        }
        StringBuilder summary = new StringBuilder("ralon conformance kit: backend " + name + ", uid " + uid + "\n");
        for (Guarantee g : Guarantee.values()) {
            summary.append("  ").append(g.id()).append(": ").append(rep.status(g)).append('\n');
        }
        System.out.print(summary);
        String resultsDir = System.getProperty(RESULTS_PROPERTY);
        if (resultsDir != null) {
            // one line per (attack x kind): for tables such as docs/conformance.md's results matrix
            StringBuilder tsv = new StringBuilder();
            for (Verdict v : verdicts) {
                tsv.append(v.attack().id()).append('\t').append(v.kind().id()).append('\t')
                        .append(v.attack().guarantee().id()).append('\t').append(v.declared() ? "declared" : "undeclared")
                        .append('\t').append(v.notJudged() != null ? "not-judged" : v.brokeThrough() ? "through" : "blocked")
                        .append('\t').append(v.notJudged() != null ? "not-judged" : v.passed() ? "pass" : "FAIL").append('\n');
            }
            Path dir = Files.createDirectories(Path.of(resultsDir));
            Files.writeString(dir.resolve(name + "-uid" + uid + ".tsv"), tsv.toString());
        }
        return rep;
    }

    private synchronized KitRun.Result control(String cp) throws IOException {
        KitRun.Result c = CONTROLS.get(uid);
        if (c != null) {
            return c;
        }
        KitRun run = new KitRun("noop", uid, cp, true);
        try {
            run.buildProject();
            c = run.execute(timeoutSeconds);
        } finally {
            run.delete();
        }
        CONTROLS.put(uid, c);
        return c;
    }

    /** The plan's refusal of a protected path that does not exist, or null when the plan accepts it. */
    private static String missingPathRefusal(Enforcer enforcer) throws IOException {
        Path dir = Files.createTempDirectory("ralon-kit-missing-");
        try {
            Path lock = dir.resolve("agent.lock");
            Files.writeString(lock, "version: 1\nprotect:\n  - secret.env\n");
            Plan plan = enforcer.plan(protectedSet(lock));
            if (!plan.enforceable() || plan.missing().contains(Guarantee.CREATE_MISSING)) {
                return plan.refusals().isEmpty() ? "the plan reports create-missing as missing"
                        : plan.refusals().stream().map(Plan.Refusal::reason).collect(Collectors.joining("; "));
            }
            return null;
        } finally {
            KitHost.run(List.of("rm", "-rf", dir.toString()), 30);
        }
    }

    /** The protected set {@code ralon run} hands the enforcer for this policy file: built by the host, as a run builds it. */
    static ProtectedSet protectedSet(Path policyFile) throws IOException {
        try {
            return ProtectedSets.from(PolicySet.explicit(PolicyLoader.load(policyFile)).expand(false));
        } catch (dev.ralon.policy.PolicyException e) {
            throw new IOException("the kit's own policy is invalid: " + e.getMessage(), e);
        }
    }
}
