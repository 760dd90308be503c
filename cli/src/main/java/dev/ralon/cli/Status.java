package dev.ralon.cli;

import dev.ralon.policy.git.GitLayout;
import dev.ralon.host.discovery.Enforcers;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.host.BackendSurvey;
import dev.ralon.host.Backends;
import dev.ralon.host.Baseline;
import dev.ralon.host.PluginDirectory;
import dev.ralon.host.RunDecision;
import dev.ralon.host.StartReport;
import dev.ralon.policy.Expansion;
import dev.ralon.policy.Policy;
import dev.ralon.policy.walk.PolicySet;
import dev.ralon.policy.Rule;
import dev.ralon.policy.Warning;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ralon status}: the policy in force, what each pattern matches, warnings, the backends this host has, and,
 * inside an enforced process, whether the boundary is intact. Made from a {@link StatusRequest} by either parser
 * ({@link StatusCommand}, {@link FastParser}); free of picocli.
 */
final class Status {
    private Status() {
    }

    /** Prints the status {@code request} asks for on {@code out}; returns the exit code (0). */
    static int execute(StatusRequest request, PrintWriter out) throws IOException {
        BackendSurvey survey = BackendSurvey.forStatus(); // the backends' probes and plans, beside the policy's walk
        PolicySet policies = PolicyOption.load(request.policy());
        String redirect = GitLayout.redirectRefusal(Path.of("").toAbsolutePath(), policies.nearest().root());
        if (redirect != null) {
            throw CliException.error(redirect);
        }
        WalkReader.install();
        Expansion exp = policies.expand(true);
        // what `ralon run` with no option would do: the run's own decision (host), on this survey's plans
        RunDecision.Inputs run = RunDecision.inputs(survey, policies, exp, RunDecision.Options.plain(null,
                System.getenv(), java.nio.file.Path.of("").toAbsolutePath()));
        List<Baseline.Item> baselineItems = run.items();
        RunDecision decided;
        try {
            decided = run.decide();
        } catch (dev.ralon.host.HostException e) { // no backend can enforce here: said in the table and below
            decided = null;
        }
        // the session `ralon run` would start: with a copy of the home directory when its backend makes one
        dev.ralon.host.WritableAreas.Outcome writable = decided != null ? decided.writable() : run.writable();
        String pick = decided == null ? null : decided.enforcer().name();
        // the session guard's report, probed once: the decision's when there is one
        dev.ralon.host.SessionReport session = decided != null ? decided.session()
                : dev.ralon.host.SessionReport.of(false);
        Enforcers enforcers = survey.enforcers();
        List<BackendSurvey.Backend> surveyed = survey.backends();
        List<Backends.Probed> probed = surveyed.stream().map(BackendSurvey.Backend::probed).toList();
        Map<String, Baseline.Applied> baselineBy = new LinkedHashMap<>();
        for (BackendSurvey.Backend b : surveyed) {
            if (b.baseline() != null) {
                baselineBy.put(b.probed().enforcer().name(), b.baseline());
            }
        }
        String inside = System.getenv(Run.ENV_BACKEND);
        List<Map<String, Object>> intact = inside == null ? List.of() : probeBoundary(exp);

        List<String> warnings = new ArrayList<>();
        String leftOut = PolicyOption.leftOutNote(request.policy());
        if (leftOut != null) {
            warnings.add(leftOut);
        }
        List<Warning> remarks = new ArrayList<>();
        for (Policy p : policies.policies()) {
            remarks.addAll(p.warnings());
        }
        remarks.addAll(exp.warnings());
        warnings.addAll(Warning.messages(remarks, exp.naming()));
        warnings.addAll(Backends.problems(enforcers));

        if (request.json()) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("format", Json.FORMAT);
            Check.putPolicies(doc, policies);
            doc.put("root", exp.root().toString());
            doc.put("version", policies.nearest().version());
            List<Object> patterns = new ArrayList<>();
            for (Rule r : allRules(policies)) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("file", r.file().toString());
                m.put("pattern", r.pattern());
                m.put("line", r.line());
                m.put("implicit", r.implicit());
                m.put("matches", exp.counts().get(r));
                patterns.add(m);
            }
            doc.put("patterns", patterns);
            doc.put("protectedPaths", exp.entries().size());
            doc.put("expandedAtStart", StartReport.expandedAtStart(policies).stream().map(Rule::pattern).toList());
            doc.put("warnings", warnings);
            doc.put("warningDetails", Check.warningsJson(remarks, exp.naming()));
            List<Object> backends = new ArrayList<>();
            for (Backends.Probed p : probed) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", p.enforcer().name());
                m.put("rank", p.enforcer().rank());
                m.put("available", p.probe().available());
                m.put("detail", p.probe().detail());
                m.put("fix", p.probe().fix());
                m.put("description", p.enforcer().description());
                m.put("guarantees", GuaranteeIds.list(p.enforcer().guarantees()));
                m.put("notGuaranteed", GuaranteeIds.list(GuaranteeIds.notDeclared(p.enforcer())));
                m.put("from", Backends.origin(p.enforcer()));
                backends.add(m);
            }
            doc.put("backends", backends);
            doc.put("pluginDirectory", Backends.plugins().dir() == null ? null : Backends.plugins().dir().toString());
            doc.put("runWouldUse", pick);
            doc.put("session", session.json());
            doc.put("writable", WritableReport.json(writable));
            Map<String, Object> bl = new LinkedHashMap<>();
            bl.put("paths", baselineItems.stream().map(i -> BaselineReport.item(i, null)).toList());
            Map<String, Object> per = new LinkedHashMap<>();
            baselineBy.forEach((name, a) -> per.put(name, BaselineReport.json(a)));
            bl.put("byBackend", per);
            doc.put("baseline", bl);
            doc.put("startupArchive", StartupArchive.json());
            doc.put("enforcedBy", inside);
            if (inside != null) {
                doc.put("boundary", intact);
            }
            out.println(Json.write(doc));
            out.flush();
            return ExitCodes.OK;
        }

        if (request.verbose()) {
            printVerbose(out, policies, exp, warnings, probed, pick, session, writable);
            printBaseline(out, baselineItems, baselineBy);
            String archive = StartupArchive.line(true);
            if (archive != null) {
                out.println(archive);
            }
        } else {
            printSummary(out, policies, exp, warnings, probed, pick, session, writable);
            Map<String, Baseline.Applied> enforcing = new LinkedHashMap<>(baselineBy); // noop's "protects 0" is noise
            surveyed.stream().map(b -> b.probed().enforcer()).filter(e -> e.guarantees().isEmpty())
                    .forEach(e -> enforcing.remove(e.name()));
            out.println(BaselineReport.statusSummary(baselineItems, enforcing));
            String archive = StartupArchive.line(false);
            if (archive != null) {
                out.println(archive);
            }
            out.println("(`ralon status --verbose` shows every guarantee, writable area and baseline path)");
        }
        if (inside != null) {
            out.println();
            out.println("this process runs under ralon (backend " + inside + "); boundary check:");
            for (Map<String, Object> m : intact) {
                out.println("  " + m.get("result") + "  " + m.get("path"));
            }
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** The full report ({@code --verbose}): every guarantee, writable area and baseline path. */
    private static void printVerbose(PrintWriter out, PolicySet policies, Expansion exp, List<String> warnings,
                                     List<Backends.Probed> probed, String pick, dev.ralon.host.SessionReport session,
                                     dev.ralon.host.WritableAreas.Outcome writable) {
        for (Path file : policies.files()) { // every file in force, farthest first: each only adds
            out.println("policy: " + file);
        }
        out.println("protected paths now: " + exp.entries().size() + " (list them with `ralon check`)");
        out.println();
        out.println(String.format("  %-6s %7s  %s", "LINE", "MATCHES", "PATTERN"));
        for (Policy p : policies.policies()) {
            if (policies.policies().size() > 1) {
                out.println("  " + p.file() + ":");
            }
            for (Rule r : p.rules()) {
                out.println(String.format("  %-6s %7d  %s", r.implicit() ? "-" : String.valueOf(r.line()),
                        exp.counts().get(r), r.implicit() ? r.pattern() + "  (always protected)" : r.pattern()));
            }
        }
        String expanded = ExpandedAtStart.line(StartReport.expandedAtStart(policies), policies.naming());
        if (expanded != null) {
            out.println();
            out.println("note: " + expanded);
        }
        if (!warnings.isEmpty()) {
            out.println();
            for (String w : warnings) {
                out.println("warning: " + w);
            }
        }
        out.println();
        out.println("backends:");
        out.println(String.format("  %-10s %-9s %s", "NAME", "AVAILABLE", "GUARANTEES / WHY NOT"));
        for (Backends.Probed p : probed) {
            Probe pr = p.probe();
            String g = pr.available() ? GuaranteeIds.text(p.enforcer().guarantees()) : pr.detail()
                    + (pr.fix().isEmpty() ? "" : "; fix: " + pr.fix());
            out.println(String.format("  %-10s %-9s %s", p.enforcer().name(), pr.available() ? "yes" : "no", g));
            if (pr.available() && !GuaranteeIds.notDeclared(p.enforcer()).isEmpty()) {
                out.println(String.format("  %-10s %-9s not guaranteed: %s", "", "",
                        GuaranteeIds.text(GuaranteeIds.notDeclared(p.enforcer()))));
            }
        }
        PluginDirectory plugins = Backends.plugins();
        if (plugins.dir() != null) {
            List<String> from = new ArrayList<>();
            for (Backends.Probed p : probed) {
                String o = Backends.origin(p.enforcer());
                if (!o.equals("built in")) {
                    from.add(p.enforcer().name() + " from " + o);
                }
            }
            out.println("plugins (" + plugins.dir() + "): " + (from.isEmpty() ? "none" : String.join(", ", from)));
        }
        out.println("`ralon run` would use: " + (pick == null ? "none (no backend can enforce here)" : pick));
        for (String line : session.lines()) {
            out.println(line);
        }
        for (String line : WritableReport.lines(writable, WritableReport.home())) {
            out.println(line);
        }
    }

    /**
     * The summary (the default, README "What it looks like"): the policy's table in full, the warnings, one line per
     * backend, and one line each for the session, the writable areas and the baseline; paths relative to where the user
     * stands.
     */
    private static void printSummary(PrintWriter out, PolicySet policies, Expansion exp, List<String> warnings,
                                     List<Backends.Probed> probed, String pick, dev.ralon.host.SessionReport session,
                                     dev.ralon.host.WritableAreas.Outcome writable) {
        for (Path file : policies.files()) {
            out.println("policy: " + Shown.path(file));
        }
        out.println("protected paths now: " + exp.entries().size() + " (`ralon check` lists them)");
        out.println();
        out.println(String.format("  %-6s %7s  %s", "LINE", "MATCHES", "PATTERN"));
        for (Policy p : policies.policies()) {
            if (policies.policies().size() > 1) {
                out.println("  " + Shown.path(p.file()) + ":");
            }
            for (Rule r : p.rules()) {
                out.println(String.format("  %-6s %7d  %s", r.implicit() ? "-" : String.valueOf(r.line()),
                        exp.counts().get(r), r.implicit() ? r.pattern() + "  (always protected)" : r.pattern()));
            }
        }
        String expanded = ExpandedAtStart.line(StartReport.expandedAtStart(policies), policies.naming());
        if (expanded != null) {
            out.println("note: " + expanded);
        }
        for (String w : warnings) {
            out.println("warning: " + w);
        }
        out.println();
        out.println("backends (`ralon run` would use " + (pick == null ? "none: no backend can enforce here" : pick)
                + "):");
        for (Backends.Probed p : probed) {
            Probe pr = p.probe();
            String g;
            if (!pr.available()) {
                g = "no   " + pr.detail() + (pr.fix().isEmpty() ? "" : "; fix: " + pr.fix());
            } else if (p.enforcer().guarantees().isEmpty()) {
                g = "yes  no guarantee (reports only)";
            } else if (GuaranteeIds.notDeclared(p.enforcer()).isEmpty()) {
                g = "yes  every guarantee";
            } else {
                g = "yes  every guarantee but " + GuaranteeIds.text(GuaranteeIds.notDeclared(p.enforcer()));
            }
            out.println(String.format("  %-10s %s", p.enforcer().name(), g));
        }
        List<String> from = new ArrayList<>();
        for (Backends.Probed p : probed) {
            String o = Backends.origin(p.enforcer());
            if (!o.equals("built in")) {
                from.add(p.enforcer().name() + " from " + o);
            }
        }
        if (!from.isEmpty()) {
            out.println("plugins (" + Backends.plugins().dir() + "): " + String.join(", ", from));
        }
        for (String line : session.lines()) {
            out.println(line);
        }
        for (String line : WritableReport.summary(writable, WritableReport.home(), exp.root())) {
            out.println(line);
        }
    }

    private static List<Rule> allRules(PolicySet policies) {
        List<Rule> out = new ArrayList<>();
        for (Policy p : policies.policies()) {
            out.addAll(p.rules());
        }
        return out;
    }

    /**
     * For each protected regular file: open it for writing without O_TRUNC and close it again (no byte changes).
     * "refused" means the boundary holds for that file; "WRITABLE" means it does not.
     */
    static List<Map<String, Object>> probeBoundary(Expansion exp) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Expansion.Entry e : exp.entries()) {
            if (e.kind() != Expansion.Entry.Kind.FILE) {
                continue;
            }
            String result;
            try (FileChannel ch = FileChannel.open(e.path(), StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                result = "WRITABLE";
            } catch (IOException | SecurityException ex) {
                result = "refused";
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("path", e.relPath());
            m.put("result", result);
            out.add(m);
        }
        return out;
    }

    private static void printBaseline(PrintWriter out, List<Baseline.Item> items, Map<String, Baseline.Applied> by) {
        out.println();
        out.println("baseline: protected by `ralon run` besides the policy (--no-baseline leaves it out):");
        for (Baseline.Item i : items) {
            out.println("  " + (i.absent() ? "absent " : "exists ") + " " + i.display() + "  (" + i.why() + ")");
        }
        for (Map.Entry<String, Baseline.Applied> e : by.entrySet()) {
            Baseline.Applied a = e.getValue();
            List<String> absent = new ArrayList<>();
            Map<String, List<String>> other = new LinkedHashMap<>();
            for (Baseline.Dropped d : a.dropped()) {
                if (d.reason().equals(Baseline.ABSENT)) {
                    absent.add(d.item().display());
                } else {
                    other.computeIfAbsent(d.reason(), k -> new ArrayList<>()).add(d.item().display());
                }
            }
            StringBuilder s = new StringBuilder("  " + e.getKey() + ": protects " + a.kept().size());
            if (!absent.isEmpty()) {
                s.append("; cannot stop the creation of the ").append(absent.size()).append(" absent");
            }
            for (Map.Entry<String, List<String>> o : other.entrySet()) {
                s.append("; drops ").append(String.join(", ", o.getValue())).append(" (").append(o.getKey()).append(')');
            }
            out.println(s);
        }
    }
}
