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

    /** The text report of {@code d}, with {@code extra} lines before the verdict. */
    static void print(PrintWriter out, RunDecision d, List<String> extra) {
        Enforcer enforcer = d.enforcer();
        ProtectedSet set = d.set();
        Plan plan = d.plan();
        Admission admission = d.admission();
        List<String> refusals = admission.reasons();
        Backends.Probed chosen = d.chosen();
        PolicySet policies = d.policies();
        out.println("backend: " + enforcer.name() + " (" + chosen.probe().detail() + ")");
        for (Path file : policies.files()) { // every file in force, farthest first
            out.println("policy: " + file);
        }
        out.println("guaranteed: " + GuaranteeIds.text(enforcer.guarantees()));
        out.println("not guaranteed: " + GuaranteeIds.text(GuaranteeIds.notDeclared(enforcer)));
        out.println("protected paths (" + set.paths().size() + "):");
        for (ProtectedPath p : set.paths()) {
            out.println("  " + p.path() + "  [" + p.kind().name().toLowerCase(Locale.ROOT) + "]  " + String.join(", ", p.reasons()));
        }
        out.println("steps (" + plan.steps().size() + "):");
        for (Plan.Step s : plan.steps()) {
            out.println("  " + s);
        }
        if (!plan.createRestricted().isEmpty()) {
            out.println("directories where nothing can be created, removed or renamed while it runs ("
                    + plan.createRestricted().size() + "):");
            for (Path dir : plan.createRestricted()) {
                out.println("  " + dir);
            }
        }
        List<String> warnings = new ArrayList<>(set.warnings());
        warnings.addAll(plan.warnings());
        for (String w : warnings) {
            out.println("warning: " + w);
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
