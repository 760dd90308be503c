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
 * <p>What is asked, per file: {@code e2e.json} — every query of every fixture (answer, and the file and pattern that
 * protect); {@code policies.json} — each policy file loaded as {@code agent.lock}: valid ones protect themselves, invalid
 * ones give the vector's first error (id, line, column) and, when the implementation lists more than one error, exactly
 * the vector's list; {@code match.json} — every pattern of the match vectors in one policy and every path asked at once
 * ("protects" vectors and the matches of every other mode, judged by whether that pattern is among the rules that
 * protect the path; other non-matches say nothing about protecting and are left to in-process tests, as are paths with an empty, {@code .} or
 * {@code ..} segment, which a checked path cannot name), and every rejected pattern's error id (all in one policy
 * when the implementation lists every error, else one policy each). Questions run several at a time.
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
        List<FileReport> reports = new VectorRunner(a.subList(dash + 1, a.size()), System.out, verbose).runAll();
        System.exit(reports.stream().allMatch(r -> r.failed() == 0) ? 0 : 1);
    }

    /** Runs every vector file and prints one summary line per file, failures first. */
    public List<FileReport> runAll() {
        List<FileReport> reports = List.of(e2e(), policies(), match());
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
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.max(2, Runtime.getRuntime().availableProcessors()));
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

    /**
     * All match vectors in one policy (each distinct pattern once, so the rules an answer lists say which pattern
     * protects), every path asked at once; all rejected patterns in one policy, each on its own line, when the
     * implementation lists every error (§10.2), else one policy per rejected pattern.
     */
    private FileReport match() {
        JSONObject doc = Vectors.resource("match.json");
        List<String> patterns = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        List<JSONObject> asked = new ArrayList<>();
        int skipped = 0;
        JSONArray matches = doc.getJSONArray("matches");
        for (int i = 0; i < matches.length(); i++) {
            JSONObject m = matches.getJSONObject(i);
            // a check answers "protects" (covers or holds, spec-patterns §7.6): every mode's match implies it, but
            // only a "protects" non-match says the pattern must not protect the path (a path a pattern does not
            // cover, such as X for X/**, may still be held)
            boolean askable = m.getString("mode").equals("protects") || m.getBoolean("match");
            if (!askable || !Vectors.nameable(m.getString("path"))) {
                skipped++;
                continue;
            }
            if (!patterns.contains(m.getString("pattern"))) {
                patterns.add(m.getString("pattern"));
            }
            if (!paths.contains(m.getString("path"))) {
                paths.add(m.getString("path"));
            }
            asked.add(m);
        }
        List<java.util.concurrent.Callable<List<Outcome>>> jobs = new ArrayList<>();
        jobs.add(() -> matchVectors(patterns, paths, asked));
        JSONArray errors = doc.getJSONArray("errors");
        jobs.add(() -> rejectionVectors(errors));
        return run("match.json", jobs, skipped);
    }

    private List<Outcome> matchVectors(List<String> patterns, List<String> paths, List<JSONObject> asked) {
        List<Outcome> out = new ArrayList<>();
        try (Fixture fx = Fixture.text("agent.lock", Vectors.policyOf(patterns))) {
            Answer a = implementation.ask(fx.root(), null, paths);
            for (JSONObject m : asked) {
                String what = "'" + m.getString("pattern") + "' " + m.getString("mode") + " '" + m.getString("path") + "'";
                out.add(new Outcome(what, Judge.expectPattern(a, paths.indexOf(m.getString("path")), m.getString("pattern"),
                        m.getBoolean("match"))));
            }
        } catch (IOException e) {
            out.add(new Outcome("matches", "cannot build the fixture or start the implementation: " + e.getMessage()));
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
            if (listed != null) {
                int line = 3 + i;
                String found = null;
                for (int k = 0; k < listed.length(); k++) {
                    JSONObject e = listed.getJSONObject(k);
                    if (e.optInt("line") == line) {
                        found = e.optString("kind");
                    }
                }
                out.add(new Outcome(what, kind.equals(found) ? null
                        : "expected " + kind + " on line " + line + " of the list of every error, got " + found));
                continue;
            }
            try (Fixture fx = Fixture.text("agent.lock", Vectors.policyOf(List.of(v.getString("pattern"))))) {
                Answer a = implementation.ask(fx.root(), null, List.of("x"));
                out.add(new Outcome(what, Judge.expectError(a, new JSONObject().put("kind", kind).put("line", 3), null)));
            }
        }
        return out;
    }
}
