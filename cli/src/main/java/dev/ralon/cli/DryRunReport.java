package dev.ralon.cli;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.host.Admission;
import dev.ralon.host.Backends;
import dev.ralon.host.RunDecision;
import dev.ralon.policy.walk.PolicySet;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code ralon run --dry-run}'s report of what a run would do: the backend, the policies in force, the protected set,
 * the plan's steps, the create-restricted directories, the warnings and the verdict, as text ({@link #print}) or as
 * the JSON document of docs/json.md ({@link #json}). Prints only: every decision was made by {@link Run} before.
 */
final class DryRunReport {
    private DryRunReport() {
    }

    /** How many protected paths, steps or directories the summary names before "and N more". */
    static final int NAMED = 8;

    /**
     * The text report of {@code d}, with {@code extra} lines before the verdict: every protected path, step and
     * create-restricted directory with {@code verbose}; otherwise the first {@link #NAMED} of each and a count (a
     * create-restricted temporary directory or home is always named: RunDecision#createRestrictedWarning).
     */
    static void print(PrintWriter out, RunDecision d, List<String> extra, boolean verbose) {
        Enforcer enforcer = d.enforcer();
        ProtectedSet set = d.set();
        Plan plan = d.plan();
        Admission admission = d.admission();
        List<String> refusals = admission.reasons();
        Backends.Probed chosen = d.chosen();
        PolicySet policies = d.policies();
        out.println("backend: " + enforcer.name() + " (" + chosen.probe().detail() + ")");
        for (Path file : policies.files()) { // every file in force, farthest first
            out.println("policy: " + (verbose ? file.toString() : Shown.path(file)));
        }
        out.println("guaranteed: " + GuaranteeIds.text(enforcer.guarantees()));
        out.println("not guaranteed: " + GuaranteeIds.text(GuaranteeIds.notDeclared(enforcer)));
        out.println("protected paths (" + set.paths().size() + "):");
        List<String> paths = new ArrayList<>();
        for (ProtectedPath p : set.paths()) {
            paths.add("  " + (verbose ? p.path() : Shown.path(p.path())) + "  ["
                    + p.kind().name().toLowerCase(Locale.ROOT) + "]  " + String.join(", ", p.reasons()));
        }
        printSome(out, paths, verbose);
        out.println("steps (" + plan.steps().size() + (verbose || plan.steps().isEmpty() ? "):" : "): " + actions(plan)));
        if (verbose) {
            for (Plan.Step s : plan.steps()) {
                out.println("  " + s);
            }
        }
        if (!plan.createRestricted().isEmpty()) {
            out.println("directories where nothing can be created, removed or renamed while it runs ("
                    + plan.createRestricted().size() + "):");
            List<Path> dirs = new ArrayList<>(plan.createRestricted());
            if (!verbose) { // the deepest first: the project's own, then its ancestors
                dirs.sort(java.util.Comparator.comparingInt(Path::getNameCount).reversed());
            }
            List<String> shown = new ArrayList<>();
            for (Path dir : dirs) {
                shown.add("  " + (verbose ? dir.toString() : Shown.path(dir)));
            }
            printSome(out, shown, verbose);
            String restricted = d.createRestrictedWarning();
            if (restricted != null) {
                out.println("warning: " + restricted);
            }
        }
        List<String> warnings = new ArrayList<>(set.warnings());
        warnings.addAll(plan.warnings());
        for (String w : warnings) {
            out.println("warning: " + w);
        }
        if (verbose || plan.notes().size() <= 2) {
            plan.notes().forEach(n -> out.println("note: " + n));
        } else {
            out.println("note: " + plan.notes().get(0));
            out.println("notes: " + (plan.notes().size() - 1) + " more (--verbose lists them)");
        }
        for (String x : extra) {
            out.println(x);
        }
        String notCreateProtected = admission.notCreateProtectedLine(enforcer.name(), set.root());
        if (notCreateProtected != null) {
            out.println(notCreateProtected);
        }
        for (String r : refusals) {
            out.println("cannot enforce: " + r);
        }
        out.println(refusals.isEmpty() ? "verdict: enforceable" : "verdict: NOT enforceable");
    }

    /** {@code lines}, all of them when {@code verbose}, else the first {@link #NAMED} and a count of the rest. */
    private static void printSome(PrintWriter out, List<String> lines, boolean verbose) {
        int n = verbose || lines.size() <= NAMED + 1 ? lines.size() : NAMED;
        lines.subList(0, n).forEach(out::println);
        if (n < lines.size()) {
            out.println("  ... and " + (lines.size() - n) + " more (--verbose lists them)");
        }
    }

    /** The plan's steps counted by action, in the order each action first appears: {@code 3 bind-ro, 1 remount}. */
    private static String actions(Plan plan) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Plan.Step s : plan.steps()) {
            counts.merge(s.action(), 1, Integer::sum);
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((a, n) -> parts.add(n + " " + a));
        return String.join(", ", parts) + " (--verbose lists them)";
    }

    /** The JSON document of {@code d} (docs/json.md); the caller adds the keys that are not the plan's. */
    static Map<String, Object> json(RunDecision d) {
        Enforcer enforcer = d.enforcer();
        ProtectedSet set = d.set();
        Plan plan = d.plan();
        Admission admission = d.admission();
        List<String> refusals = admission.reasons();
        Backends.Probed chosen = d.chosen();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("format", Json.FORMAT);
        doc.put("backend", enforcer.name());
        doc.put("probe", chosen.probe().detail());
        doc.put("policy", set.policyFile().toString());
        doc.put("root", set.root().toString());
        doc.put("enforceable", refusals.isEmpty());
        doc.put("guarantees", GuaranteeIds.list(enforcer.guarantees()));
        doc.put("notGuaranteed", GuaranteeIds.list(GuaranteeIds.notDeclared(enforcer)));
        Set<Guarantee> missing = EnumSet.noneOf(Guarantee.class);
        admission.refusals().forEach(r -> missing.addAll(r.lost()));
        doc.put("missing", GuaranteeIds.list(missing));
        List<Object> paths = new ArrayList<>();
        for (ProtectedPath p : set.paths()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("path", p.path().toString());
            m.put("kind", p.kind().name().toLowerCase(Locale.ROOT));
            m.put("reasons", p.reasons());
            paths.add(m);
        }
        doc.put("protected", paths);
        List<Object> steps = new ArrayList<>();
        for (Plan.Step s : plan.steps()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("action", s.action());
            m.put("path", s.path() == null ? null : s.path().toString());
            m.put("detail", s.detail());
            steps.add(m);
        }
        doc.put("steps", steps);
        doc.put("createRestricted", plan.createRestricted().stream().map(Path::toString).toList());
        List<String> warnings = new ArrayList<>(set.warnings());
        warnings.addAll(plan.warnings());
        doc.put("warnings", warnings);
        doc.put("notes", plan.notes());
        doc.put("refusals", refusals);
        List<Object> uncovered = new ArrayList<>();
        for (Plan.Refusal r : admission.refusals()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("path", r.path() == null ? null : r.path().toString());
            m.put("reason", r.reason());
            m.put("lost", GuaranteeIds.list(r.lost()));
            uncovered.add(m);
        }
        doc.put("refusalDetails", uncovered);
        doc.put("notProtectedAgainstCreation", admission.notCreateProtected().stream().map(Path::toString).toList());
        return doc;
    }
}
