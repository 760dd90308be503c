package dev.ralon.spec;

import org.json.JSONArray;
import org.json.JSONObject;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs every agent.lock v1 vector against any implementation through the command protocol of spec §12, and reports
 * per vector file, as EditorConfig's core tests do:
 *
 * <pre>java -cp policy-spec.jar:json.jar dev.ralon.spec.VectorRunner [--verbose] -- IMPL [ARG...]</pre>
 *
 * <p>For each question the runner builds the vector's fixture tree in a new temporary directory and runs
 * {@code IMPL ARG... [--policy FILE] --json -- PATH...} there; the implementation answers with the JSON document of
 * §12 on stdout and exit status 0 (nothing protected), 1 (something protected) or 2 (the policy cannot be used).
 * {@code ralon check} speaks the protocol: {@code VectorRunner -- ralon check}. Exit status of the runner: 0 when every
 * vector passed, 1 otherwise, 2 on a usage error.
 *
 * <p>IMPL's program is resolved against the runner's working directory (or {@code PATH}) before anything runs
 * ({@link Implementation}): the questions run in fixture directories. A program that is not an executable file is a
 * usage error.
 *
 * <p>What is asked, per file, each vector on a fixture of its own so that one wrong answer fails one vector (spec
 * §12.3): {@code e2e.json} — every query of every fixture (answer, the file and pattern that protect, and the exact
 * rules when the query lists them), or the error (id, line, column, offset); {@code policies.json} — each policy file
 * loaded as {@code agent.lock}: valid ones protect themselves, invalid ones give the vector's first error (id, line,
 * column) and, when the implementation lists more than one error, exactly the vector's list; {@code match.json} — one
 * policy per pattern, asked about every path of that pattern's vectors ("protects" vectors and the matches of every
 * other mode, judged by whether that pattern is among the rules that protect the path; other non-matches say nothing
 * about protecting and are left to in-process tests, as are paths with an empty, {@code .} or {@code ..} segment,
 * which a checked path cannot name), several patterns per start in subdirectories and split when a batch has a
 * failure; and every rejected pattern's error id and column (all in one policy when the implementation lists every
 * error, else one policy each). Questions run several at a time. {@link #planned} gives the counts of a report in
 * which every vector passed, from the vector files alone.
 *
 * <p>This class turns the vector files into questions and tallies the outcomes; {@link Implementation} asks the
 * implementation (processes), {@link Fixture} builds each question's tree, {@link Judge} judges an answer, {@link Vectors}
 * reads the vector files.
 */
public final class VectorRunner {
    /** Where the vectors are, on the class path (the policy-spec jar). */
    public static final String BASE = "/dev/ralon/spec/v1/vectors/";

    private final Implementation implementation;
    private final PrintStream out;

    /** The outcome of one vector file. */
    public record FileReport(String file, int passed, int failed, int skipped, List<String> failures) {
    }

    public VectorRunner(List<String> impl, PrintStream out, boolean verbose) {
        this.implementation = new Implementation(impl, verbose ? out : null);
        this.out = out;
    }

    public static void main(String[] args) {
        List<String> a = Arrays.asList(args);
        int dash = a.indexOf("--");
        if (dash < 0 || dash == a.size() - 1) {
            System.err.println("usage: VectorRunner [--verbose] -- IMPL [ARG...]   (for ralon: -- ralon check)");
            System.exit(2);
        }
        boolean verbose = a.subList(0, dash).contains("--verbose");
        VectorRunner runner;
        try {
            runner = new VectorRunner(a.subList(dash + 1, a.size()), System.out, verbose);
        } catch (IllegalArgumentException e) {
            System.err.println("VectorRunner: " + e.getMessage());
            System.exit(2);
            return;
        }
        List<FileReport> reports = runner.runAll();
        System.exit(reports.stream().allMatch(r -> r.failed() == 0) ? 0 : 1);
    }

    /** What the runner asks of one vector file: its questions, and the vectors it cannot ask through a check. */
    public record Planned(String file, int questions, int notExpressible) {
    }

    /**
     * The counts of {@link #runAll}'s report when every vector passes, from the vector files alone (no implementation
     * asked): e2e.json one question per query (one for a vector expecting an error), policies.json one per file,
     * match.json one per askable match vector and one per rejected pattern.
     */
    public static List<Planned> planned() {
        JSONArray e2e = Vectors.resource("e2e.json").getJSONArray("vectors");
        int queries = 0;
        for (int i = 0; i < e2e.length(); i++) {
            JSONArray q = e2e.getJSONObject(i).optJSONArray("queries");
            queries += q == null ? 1 : q.length();
        }
        JSONObject match = Vectors.resource("match.json");
        int[] skipped = {0};
        int asked = match.getJSONArray("errors").length();
        for (Group g : matchGroups(match.getJSONArray("matches"), skipped)) {
            asked += g.vectors().size();
        }
        return List.of(new Planned("e2e.json", queries, 0),
                new Planned("policies.json", Vectors.resource("policies.json").getJSONArray("vectors").length(), 0),
                new Planned("match.json", asked, skipped[0]));
    }

    /** Runs every vector file and prints one summary line per file, failures first. */
    public List<FileReport> runAll() {
        return run(List.of("e2e.json", "policies.json", "match.json"));
    }

    /** Runs the vector files named (of e2e.json, policies.json, match.json) and prints the summary of each. */
    public List<FileReport> run(List<String> files) {
        List<FileReport> reports = new ArrayList<>();
        for (String f : files) {
            reports.add(switch (f) {
                case "e2e.json" -> e2e();
                case "policies.json" -> policies();
                case "match.json" -> match();
                default -> throw new IllegalArgumentException("no vector file " + f);
            });
        }
        int passed = 0;
        int total = 0;
        for (FileReport r : reports) {
            for (String f : r.failures()) {
                out.println("FAIL " + r.file() + ": " + f);
            }
            out.println(r.file() + ": " + r.passed() + "/" + (r.passed() + r.failed()) + " passed"
                    + (r.skipped() > 0 ? ", " + r.skipped() + " not expressible in the protocol" : ""));
            passed += r.passed();
            total += r.passed() + r.failed();
        }
        out.println("total: " + passed + "/" + total + " passed (" + (total == 0 ? 0 : passed * 100 / total) + "%)");
        return reports;
    }

    // ---- the three vector files -------------------------------------------------------------------------------------

    /** One checked expectation: what was asked, and null or what is wrong. */
    private record Outcome(String what, String failure) {
    }

    /** Asks every job, several at a time (each starts a process), and tallies the outcomes in the jobs' order. */
    private FileReport run(String file, List<java.util.concurrent.Callable<List<Outcome>>> jobs, int skipped) {
        Tally t = new Tally(file, skipped);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads());
        try {
            List<java.util.concurrent.Future<List<Outcome>>> futures = pool.invokeAll(jobs);
            for (java.util.concurrent.Future<List<Outcome>> f : futures) {
                try {
                    for (Outcome o : f.get()) {
                        t.record(o.what(), o.failure());
                    }
                } catch (java.util.concurrent.ExecutionException e) {
                    t.record("(a job)", "runner failure: " + e.getCause());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            t.record("(interrupted)", "interrupted");
        } finally {
            pool.shutdownNow();
        }
        return t.report();
    }

    /** How many questions run at once. */
    private static int threads() {
        return Math.max(2, Runtime.getRuntime().availableProcessors());
    }

    private FileReport e2e() {
        JSONArray vectors = Vectors.resource("e2e.json").getJSONArray("vectors");
        List<java.util.concurrent.Callable<List<Outcome>>> jobs = new ArrayList<>();
        for (int i = 0; i < vectors.length(); i++) {
            JSONObject v = vectors.getJSONObject(i);
            jobs.add(() -> e2eVector(v));
        }
        return run("e2e.json", jobs, 0);
    }

    private List<Outcome> e2eVector(JSONObject v) {
        String name = v.getString("name");
        List<Outcome> out = new ArrayList<>();
        try (Fixture fx = Fixture.create(v.getJSONArray("tree"), Vectors::resourceBytes)) {
            List<String> paths = new ArrayList<>();
            JSONArray queries = v.optJSONArray("queries");
            if (queries != null) {
                for (int q = 0; q < queries.length(); q++) {
                    paths.add(queries.getJSONObject(q).getString("path"));
                }
            } else if (v.optJSONArray("ask") != null) {
                JSONArray ask = v.getJSONArray("ask");
                for (int q = 0; q < ask.length(); q++) {
                    paths.add(ask.getString(q));
                }
            } else {
                paths.add(v.optString("ask", "x"));
            }
            Answer a = implementation.ask(fx.root().resolve(v.optString("cwd", ".")).normalize(), v.optString("policy", null), paths);
            if (v.has("error")) {
                out.add(new Outcome(name, Judge.expectError(a, v.getJSONObject("error"), v.optJSONArray("problems"))));
            } else {
                for (int q = 0; q < queries.length(); q++) {
                    JSONObject query = queries.getJSONObject(q);
                    out.add(new Outcome(name + ": " + query.getString("path"), Judge.expectVerdict(a, fx.root(), q, query)));
                }
            }
        } catch (IOException e) {
            out.add(new Outcome(name, "cannot build the fixture or start the implementation: " + e.getMessage()));
        }
        return out;
    }

    private FileReport policies() {
        JSONArray vectors = Vectors.resource("policies.json").getJSONArray("vectors");
        List<java.util.concurrent.Callable<List<Outcome>>> jobs = new ArrayList<>();
        for (int i = 0; i < vectors.length(); i++) {
            JSONObject v = vectors.getJSONObject(i);
            jobs.add(() -> List.of(policyVector(v)));
        }
        return run("policies.json", jobs, 0);
    }

    private Outcome policyVector(JSONObject v) {
        String file = v.getString("file");
        JSONArray tree = new JSONArray().put(new JSONObject().put("path", "agent.lock").put("bytes", file));
        try (Fixture fx = Fixture.create(tree, Vectors::resourceBytes)) {
            Answer a = implementation.ask(fx.root(), null, List.of("agent.lock"));
            if (v.optBoolean("valid", false)) {
                JSONObject self = new JSONObject().put("path", "agent.lock").put("protected", true)
                        .put("by", new JSONArray().put(new JSONObject().put("policy", "agent.lock").put("self", true)));
                return new Outcome(file, Judge.expectVerdict(a, fx.root(), 0, self));
            }
            JSONObject err = new JSONObject().put("kind", v.getString("error"));
            if (!v.optBoolean("parser-position", false)) { // spec 12.1: a parser's own position is not compared
                err.put("line", v.getInt("line")).put("column", v.getInt("column"));
            }
            return new Outcome(file, Judge.expectError(a, err, v.optJSONArray("problems")));
        } catch (IOException e) {
            return new Outcome(file, "cannot build the fixture or start the implementation: " + e.getMessage());
        }
    }

    /** The askable match vectors of one pattern, and the distinct paths they ask about, in vector order. */
    private record Group(String pattern, List<JSONObject> vectors, List<String> paths) {
    }

    /**
     * The match vectors a check can ask, grouped by pattern (vector order), and how many it cannot: a check answers
     * "protects" (covers or holds, spec-patterns §7.6), which every mode's match implies, but only a "protects"
     * non-match says the pattern must not protect the path (a path a pattern does not cover, such as X for X/**, may
     * still be held); a path with an empty, {@code .} or {@code ..} segment cannot be named by a check.
     */
    private static List<Group> matchGroups(JSONArray matches, int[] skipped) {
        java.util.Map<String, Group> groups = new java.util.LinkedHashMap<>();
        for (int i = 0; i < matches.length(); i++) {
            JSONObject m = matches.getJSONObject(i);
            boolean askable = m.getString("mode").equals("protects") || m.getBoolean("match");
            if (!askable || !Vectors.nameable(m.getString("path"))) {
                skipped[0]++;
                continue;
            }
            Group g = groups.computeIfAbsent(m.getString("pattern"), k -> new Group(k, new ArrayList<>(), new ArrayList<>()));
            g.vectors().add(m);
            if (!g.paths().contains(m.getString("path"))) {
                g.paths().add(m.getString("path"));
            }
        }
        return List.copyOf(groups.values());
    }

    /**
     * The match vectors, isolated by pattern: each pattern's vectors are judged by a policy of that pattern alone, so
     * that a pattern wrongly rejected fails its own vectors only, and a wrong answer fails its own vector only. To
     * start the implementation fewer times, a batch of patterns is asked at once, each pattern in the policy of its
     * own subdirectory ({@code g<n>/agent.lock}, in force by spec §2.2, anchored there) with its paths asked beneath
     * it; a batch with any failure is split in two and asked again, down to one pattern asked alone at the fixture's
     * root, whose answer is the one judged. All rejected patterns in one policy, each on its own line, when the
     * implementation lists every error (§10.2), else one policy per rejected pattern.
     */
    private FileReport match() {
        JSONObject doc = Vectors.resource("match.json");
        int[] skipped = {0};
        List<Group> groups = matchGroups(doc.getJSONArray("matches"), skipped);
        List<java.util.concurrent.Callable<List<Outcome>>> jobs = new ArrayList<>();
        int batches = Math.max(1, Math.min(groups.size(), threads()));
        for (int b = 0; b < batches; b++) {
            List<Group> batch = groups.subList(groups.size() * b / batches, groups.size() * (b + 1) / batches);
            jobs.add(() -> askGroups(batch));
        }
        JSONArray errors = doc.getJSONArray("errors");
        jobs.add(() -> rejectionVectors(errors));
        return run("match.json", jobs, skipped[0]);
    }

    /** Asks {@code groups} together; when any of their vectors fails, asks each half again, down to one alone. */
    private List<Outcome> askGroups(List<Group> groups) {
        if (groups.size() == 1) {
            return askAlone(groups.get(0));
        }
        List<Outcome> together = askTogether(groups);
        if (together.stream().allMatch(o -> o.failure() == null)) {
            return together;
        }
        List<Outcome> out = new ArrayList<>(askGroups(groups.subList(0, groups.size() / 2)));
        out.addAll(askGroups(groups.subList(groups.size() / 2, groups.size())));
        return out;
    }

    private List<Outcome> askAlone(Group g) {
        try (Fixture fx = Fixture.text("agent.lock", Vectors.policyOf(List.of(g.pattern())))) {
            return judgeGroup(g, implementation.ask(fx.root(), null, g.paths()), 0);
        } catch (IOException e) {
            return List.of(new Outcome("'" + g.pattern() + "'", "cannot build the fixture or start the implementation: "
                    + e.getMessage()));
        }
    }

    private List<Outcome> askTogether(List<Group> groups) {
        JSONArray tree = new JSONArray();
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            tree.put(new JSONObject().put("path", "g" + i + "/agent.lock").put("file",
                    Vectors.policyOf(List.of(groups.get(i).pattern()))));
            for (String p : groups.get(i).paths()) {
                paths.add("g" + i + "/" + p);
            }
        }
        List<Outcome> out = new ArrayList<>();
        try (Fixture fx = Fixture.create(tree, null)) {
            Answer a = implementation.ask(fx.root(), null, paths);
            int first = 0;
            for (Group g : groups) {
                out.addAll(judgeGroup(g, a, first));
                first += g.paths().size();
            }
        } catch (IOException e) {
            out.add(new Outcome("matches", "cannot build the fixture or start the implementation: " + e.getMessage()));
        }
        return out;
    }

    /** Judges each vector of {@code g} by the answer, whose results for g's paths start at {@code first}. */
    private static List<Outcome> judgeGroup(Group g, Answer a, int first) {
        List<Outcome> out = new ArrayList<>();
        for (JSONObject m : g.vectors()) {
            String what = "'" + m.getString("pattern") + "' " + m.getString("mode") + " '" + m.getString("path") + "'";
            out.add(new Outcome(what, Judge.expectPattern(a, first + g.paths().indexOf(m.getString("path")),
                    m.getString("pattern"), m.getBoolean("match"))));
        }
        return out;
    }

    private List<Outcome> rejectionVectors(JSONArray errors) throws IOException {
        List<String> patterns = new ArrayList<>();
        for (int i = 0; i < errors.length(); i++) {
            patterns.add(errors.getJSONObject(i).getString("pattern"));
        }
        JSONArray listed = null;
        try (Fixture fx = Fixture.text("agent.lock", Vectors.policyOf(patterns))) {
            Answer all = implementation.ask(fx.root(), null, List.of("x"));
            if (all.exit() == 2 && all.json() != null && all.json().optJSONArray("errors") != null
                    && all.json().getJSONArray("errors").length() > 1) {
                listed = all.json().getJSONArray("errors");
            }
        }
        List<Outcome> out = new ArrayList<>();
        for (int i = 0; i < errors.length(); i++) {
            JSONObject v = errors.getJSONObject(i);
            String what = "rejects '" + v.getString("pattern") + "'";
            String kind = "pattern-" + v.getString("error");
            int column = Vectors.errorColumn(v.getString("pattern"), v.getInt("offset"));
            if (listed != null) {
                int line = 3 + i;
                String found = null;
                for (int k = 0; k < listed.length(); k++) {
                    JSONObject e = listed.getJSONObject(k);
                    if (e.optInt("line") == line) {
                        found = e.optString("kind") + " column " + e.optInt("column", -1);
                    }
                }
                String want = kind + " column " + column;
                out.add(new Outcome(what, want.equals(found) ? null
                        : "expected " + want + " on line " + line + " of the list of every error, got " + found));
                continue;
            }
            try (Fixture fx = Fixture.text("agent.lock", Vectors.policyOf(List.of(v.getString("pattern"))))) {
                Answer a = implementation.ask(fx.root(), null, List.of("x"));
                out.add(new Outcome(what, Judge.expectError(a, new JSONObject().put("kind", kind).put("line", 3)
                        .put("column", column), null)));
            }
        }
        return out;
    }
}
