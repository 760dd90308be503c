package dev.ralon.conformance;

import dev.ralon.conformance.ConformanceKit.Report;
import dev.ralon.conformance.ConformanceKit.Verdict;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.host.BuiltInBackends;
import dev.ralon.host.ProtectedSets;
import dev.ralon.host.discovery.Enforcers;
import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.PolicySet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * One execution of the kit against one enforcer as one user (EngineTestKit's "execute" step): asks the enforcer what
 * it declares and whether its plan refuses a missing path, runs the control under {@code noop} (once per user and
 * JVM), builds the project, plans it as {@code ralon run} would, makes the attacks ({@link KitRun}), hands what was
 * seen to the {@link Judge} and the result to {@link KitReports}.
 *
 * @param name           the enforcer's name
 * @param uid            the user the sandboxed command runs as
 * @param timeoutSeconds limit for one sandboxed run
 * @param loader         where the enforcer is found
 * @param launcherNamespace the host JVM starts as the launcher starts it for {@code ralon run} (see
 *                       {@link ConformanceKit.Builder#inLauncherNamespace()})
 */
record KitExecution(String name, int uid, int timeoutSeconds, ClassLoader loader, boolean launcherNamespace) {
    /** The control runs under noop, one per user: the same for every backend tested in this JVM. */
    private static final Map<Integer, KitRun.Recording> CONTROLS = new ConcurrentHashMap<>();

    /** Runs the attacks and the control, judges, reports; deletes the attacked project unless kept. */
    Report execute() throws IOException {
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
        KitRun.Recording control = name.equals(BuiltInBackends.NOOP) ? null : control(cp);
        // a backend that does not declare it covers symbolic links is refused by the host for a policy protecting one
        // (a link on the way is one): its runs leave the linked cases out, and links are reported unsupported
        boolean includeLinked = enforcer.coveredKinds().contains(ProtectedPath.Kind.SYMLINK);
        KitRun run = new KitRun(name, uid, cp, includeMissing, includeLinked).inLauncherNamespace(launcherNamespace)
                .confining(declared.contains(Guarantee.WRITES_OUTSIDE));
        KitRun.Recording result;
        Set<Path> createRestricted;
        String planProblem;
        try {
            run.buildProject();
            Plan plan = run.decision().plan(); // the plan `ralon run` makes: the same decision (host), baseline included
            createRestricted = Set.copyOf(plan.createRestricted());
            planProblem = plan.enforceable() ? null : "the plan for the kit's project has refusals: "
                    + plan.refusals().stream().map(Plan.Refusal::reason).collect(Collectors.joining("; "));
            result = run.execute(timeoutSeconds);
        } catch (IOException | RuntimeException e) {
            run.delete();
            throw e;
        }
        Judge.Input in = new Judge.Input(name, run.project(), declared, run.cases(), result,
                control == null ? result : control, createRestricted, planProblem, KitExecution.legacyTiocsti());
        String setupFailure = Judge.setupFailure(in);
        Map<String, String> sanity = Judge.sanity(in);
        List<Verdict> verdicts = Judge.verdicts(in, setupFailure);
        Report rep = new Report(name, uid, declared, setupFailure, sanity, verdicts, unsupported);
        boolean failed = setupFailure != null || verdicts.stream().anyMatch(v -> !v.passed())
                || sanity.values().stream().anyMatch(Objects::nonNull);
        if (failed && Boolean.getBoolean(ConformanceKit.KEEP_PROPERTY)) {
            System.out.println("ralon conformance kit: kept the attacked project of backend " + name + ", uid " + uid
                    + " in " + run.project() + " (each case in c/ATTACK-KIND/; the attack script and its log in "
                    + run.project().resolveSibling("home") + "); delete it when done");
        } else {
            run.delete();
        }
        KitReports.print(rep);
        KitReports.writeTsv(rep);
        return rep;
    }

    private KitRun.Recording control(String cp) throws IOException {
        synchronized (CONTROLS) {
            return controlLocked(cp);
        }
    }

    private KitRun.Recording controlLocked(String cp) throws IOException {
        KitRun.Recording c = CONTROLS.get(uid);
        if (c != null) {
            return c;
        }
        KitRun run = new KitRun(BuiltInBackends.NOOP, uid, cp, true);
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

    private static String legacyTiocsti() {
        try {
            return Files.readString(Path.of("/proc/sys/dev/tty/legacy_tiocsti")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
