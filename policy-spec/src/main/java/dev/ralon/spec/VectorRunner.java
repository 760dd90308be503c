package dev.ralon.spec;

import org.json.JSONArray;
import org.json.JSONObject;
import org.json.JSONTokener;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

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
 */
public final class VectorRunner {
    /** Where the vectors are, on the class path (the policy-spec jar). */
    public static final String BASE = "/dev/ralon/spec/v1/vectors/";
    private static final int TIMEOUT_SECONDS = 60;

    private final List<String> impl;
    private final PrintStream out;
    private final boolean verbose;

    /** The outcome of one vector file. */
    public record FileReport(String file, int passed, int failed, int skipped, List<String> failures) {
    }

    public VectorRunner(List<String> impl, PrintStream out, boolean verbose) {
        this.impl = List.copyOf(impl);
        this.out = out;
        this.verbose = verbose;
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
        Tally t = new Tally(file);
        t.skipped = skipped;
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
        JSONArray vectors = resource("e2e.json").getJSONArray("vectors");
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
        try (Fixture fx = Fixture.create(v.getJSONArray("tree"), this::bytes)) {
            List<String> paths = new ArrayList<>();
            JSONArray queries = v.optJSONArray("queries");
            if (queries != null) {
                for (int q = 0; q < queries.length(); q++) {
                    paths.add(queries.getJSONObject(q).getString("path"));
                }
            } else {
                paths.add(v.optString("ask", "x"));
            }
            Answer a = ask(fx.root().resolve(v.optString("cwd", ".")).normalize(), v.optString("policy", null), paths);
            if (v.has("error")) {
                out.add(new Outcome(name, expectError(a, v.getJSONObject("error"), v.optJSONArray("problems"))));
            } else {
                for (int q = 0; q < queries.length(); q++) {
                    JSONObject query = queries.getJSONObject(q);
                    out.add(new Outcome(name + ": " + query.getString("path"), expectVerdict(a, fx.root(), q, query)));
                }
            }
        } catch (IOException e) {
            out.add(new Outcome(name, "cannot build the fixture or start the implementation: " + e.getMessage()));
        }
        return out;
    }

    private FileReport policies() {
        JSONArray vectors = resource("policies.json").getJSONArray("vectors");
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
        try (Fixture fx = Fixture.create(tree, this::bytes)) {
            Answer a = ask(fx.root(), null, List.of("agent.lock"));
            if (v.optBoolean("valid", false)) {
                JSONObject self = new JSONObject().put("path", "agent.lock").put("protected", true)
                        .put("by", new JSONArray().put(new JSONObject().put("policy", "agent.lock").put("self", true)));
                return new Outcome(file, expectVerdict(a, fx.root(), 0, self));
            }
            JSONObject err = new JSONObject().put("kind", v.getString("error"));
            if (!v.optBoolean("parser-position", false)) { // spec 12.1: a parser's own position is not compared
                err.put("line", v.getInt("line")).put("column", v.getInt("column"));
            }
            return new Outcome(file, expectError(a, err, v.optJSONArray("problems")));
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
        JSONObject doc = resource("match.json");
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
            if (!askable || !nameable(m.getString("path"))) {
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
        try (Fixture fx = Fixture.text("agent.lock", policyOf(patterns))) {
            Answer a = ask(fx.root(), null, paths);
            for (JSONObject m : asked) {
                String what = "'" + m.getString("pattern") + "' " + m.getString("mode") + " '" + m.getString("path") + "'";
                out.add(new Outcome(what, expectPattern(a, paths.indexOf(m.getString("path")), m.getString("pattern"),
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
        try (Fixture fx = Fixture.text("agent.lock", policyOf(patterns))) {
            Answer all = ask(fx.root(), null, List.of("x"));
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
            try (Fixture fx = Fixture.text("agent.lock", policyOf(List.of(v.getString("pattern"))))) {
                Answer a = ask(fx.root(), null, List.of("x"));
                out.add(new Outcome(what, expectError(a, new JSONObject().put("kind", kind).put("line", 3), null)));
            }
        }
        return out;
    }

    /** A policy listing {@code patterns}, one per line from line 3, double-quoted. */
    private static String policyOf(List<String> patterns) {
        StringBuilder b = new StringBuilder("version: 1\nprotect:\n");
        for (String p : patterns) {
            b.append("  - ").append(yamlQuoted(p)).append('\n');
        }
        return b.toString();
    }

    /** Null when pattern {@code pattern} is (or is not, as {@code want} says) among the rules protecting query q. */
    static String expectPattern(Answer a, int q, String pattern, boolean want) {
        if (a.json() == null || !a.json().has("results") || a.json().getJSONArray("results").length() <= q) {
            return "expected a verdict, got " + a.describe();
        }
        JSONObject r = a.json().getJSONArray("results").getJSONObject(q);
        boolean got = false;
        JSONArray rules = r.optJSONArray("rules");
        for (int i = 0; rules != null && i < rules.length(); i++) {
            JSONObject rule = rules.getJSONObject(i);
            got |= !rule.optBoolean("implicit", false) && pattern.equals(rule.optString("pattern"));
        }
        return got == want ? null : "expected the pattern " + (want ? "" : "not ") + "to protect it, got " + r;
    }

    /** A path the protocol can ask about: not empty, no empty, {@code .} or {@code ..} segment, no NUL. */
    static boolean nameable(String p) {
        if (p.isEmpty() || p.indexOf('\0') >= 0) {
            return false;
        }
        for (String s : p.split("/", -1)) {
            if (s.isEmpty() || s.equals(".") || s.equals("..")) {
                return false;
            }
        }
        return true;
    }

    /** A YAML double-quoted scalar holding exactly {@code s}. */
    static String yamlQuoted(String s) {
        StringBuilder b = new StringBuilder("\"");
        s.codePoints().forEach(c -> {
            if (c == '"' || c == '\\') {
                b.append('\\').appendCodePoint(c);
            } else if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029 || c == 0xFEFF) {
                b.append(String.format("\\u%04X", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.append('"').toString();
    }

    // ---- asking the implementation ----------------------------------------------------------------------------------

    /** What the implementation said: exit status, stdout parsed (null when not JSON), stderr. */
    record Answer(int exit, JSONObject json, String stdout, String stderr) {
        String describe() {
            return "exit " + exit + ", stdout " + abbreviate(stdout) + ", stderr " + abbreviate(stderr);
        }
    }

    private Answer ask(Path cwd, String policy, List<String> paths) throws IOException {
        List<String> cmd = new ArrayList<>(impl);
        if (policy != null) {
            cmd.add("--policy");
            cmd.add(policy);
        }
        cmd.add("--json");
        cmd.add("--");
        cmd.addAll(paths);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        CompletableFuture<byte[]> so = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
        CompletableFuture<byte[]> se = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Answer(-1, null, "", "timed out after " + TIMEOUT_SECONDS + " s");
            }
            String stdout = new String(so.get(), StandardCharsets.UTF_8);
            String stderr = new String(se.get(), StandardCharsets.UTF_8);
            JSONObject json = null;
            try {
                json = new JSONObject(new JSONTokener(stdout));
            } catch (RuntimeException e) {
                // not JSON: reported by the expectation
            }
            if (verbose) {
                out.println("$ (cd " + cwd + " && " + String.join(" ", cmd) + ") -> exit " + p.exitValue());
            }
            return new Answer(p.exitValue(), json, stdout, stderr);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException(e.getCause());
        }
    }

    private static byte[] drain(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }

    /** Null when the answer for query number {@code q} is the expected one, else what is wrong. */
    static String expectVerdict(Answer a, Path root, int q, JSONObject query) {
        boolean want = query.getBoolean("protected");
        if (a.json() == null || !a.json().has("results")) {
            return "expected a verdict, got " + a.describe();
        }
        JSONArray results = a.json().getJSONArray("results");
        if (results.length() <= q) {
            return "no result for query " + (q + 1) + ": " + a.describe();
        }
        JSONObject r = results.getJSONObject(q);
        if (r.getBoolean("protected") != want) {
            return "expected " + (want ? "protected" : "not protected") + ", got " + r;
        }
        if (a.exit() != 0 && a.exit() != 1) {
            return "exit status " + a.exit() + " with a verdict";
        }
        JSONArray by = query.optJSONArray("by");
        if (by == null) {
            return null;
        }
        Set<String> got = new TreeSet<>();
        JSONArray rules = r.optJSONArray("rules");
        for (int i = 0; rules != null && i < rules.length(); i++) {
            got.add(ruleKey(rules.getJSONObject(i), null));
        }
        for (int i = 0; i < by.length(); i++) {
            String key = ruleKey(by.getJSONObject(i), root);
            if (!got.contains(key)) {
                return "expected protection by " + key + ", got " + got;
            }
        }
        return null;
    }

    /** "policy-file-real-path: pattern" or "policy-file-real-path: (itself)". */
    private static String ruleKey(JSONObject rule, Path root) {
        String policy = rule.has("file") ? rule.getString("file") : rule.getString("policy");
        Path file = root == null ? Path.of(policy) : root.resolve(policy);
        try {
            file = file.toRealPath();
        } catch (IOException e) {
            file = file.toAbsolutePath().normalize();
        }
        boolean self = rule.optBoolean("self", false) || rule.optBoolean("implicit", false);
        return file + ": " + (self ? "(itself)" : rule.getString("pattern"));
    }

    /** Null when the answer is the expected error, else what is wrong. */
    static String expectError(Answer a, JSONObject want, JSONArray all) {
        if (a.exit() != 2) {
            return "expected error " + want + " and exit 2, got " + a.describe();
        }
        if (a.json() == null || !a.json().has("error")) {
            return "expected the error document of spec §12, got " + a.describe();
        }
        JSONObject first = a.json().getJSONObject("error");
        String mismatch = sameError(first, want);
        if (mismatch != null) {
            return mismatch;
        }
        JSONArray errors = a.json().optJSONArray("errors");
        if (errors != null && errors.length() > 1) {
            JSONArray expected = all != null ? all : new JSONArray().put(want);
            if (errors.length() != expected.length()) {
                return "listed " + errors.length() + " errors, the vector lists " + expected.length() + ": " + errors;
            }
            for (int i = 0; i < expected.length(); i++) {
                String m = sameError(errors.getJSONObject(i), expected.getJSONObject(i));
                if (m != null) {
                    return "error " + (i + 1) + ": " + m;
                }
            }
        }
        return null;
    }

    private static String sameError(JSONObject got, JSONObject want) {
        String kind = want.has("kind") ? want.getString("kind") : want.getString("error");
        StringBuilder w = new StringBuilder(kind);
        StringBuilder g = new StringBuilder(got.optString("kind"));
        for (String k : new String[] {"line", "column"}) {
            if (want.has(k)) {
                w.append(' ').append(k).append(' ').append(want.getInt(k));
                g.append(' ').append(k).append(' ').append(got.optInt(k, -1));
            }
        }
        return w.toString().contentEquals(g) ? null : "expected " + w + ", got " + g + " (" + got.optString("message") + ")";
    }

    // ---- fixtures ---------------------------------------------------------------------------------------------------

    /** A temporary fixture tree, removed on close. */
    record Fixture(Path root) implements AutoCloseable {
        interface Bytes {
            byte[] of(String resource);
        }

        static Fixture text(String name, String content) throws IOException {
            return create(new JSONArray().put(new JSONObject().put("path", name).put("file", content)), null);
        }

        /**
         * Builds the tree: entries {@code {"path", "file": text}}, {@code {"path", "bytes": vector file}},
         * {@code {"path", "dir": true}}, {@code {"path", "link": target}}; parents are created as directories.
         */
        static Fixture create(JSONArray tree, Bytes bytes) throws IOException {
            Path root = Files.createTempDirectory("agent-lock-vector").toRealPath();
            Fixture fx = new Fixture(root);
            try {
                for (int i = 0; i < tree.length(); i++) {
                    JSONObject e = tree.getJSONObject(i);
                    Path p = root.resolve(e.getString("path")).normalize();
                    if (!p.startsWith(root)) {
                        throw new IOException("fixture path leaves the fixture: " + e.getString("path"));
                    }
                    if (p.getParent() != null) {
                        Files.createDirectories(p.getParent());
                    }
                    if (e.has("link")) {
                        Files.createSymbolicLink(p, Path.of(e.getString("link")));
                    } else if (e.optBoolean("dir", false)) {
                        Files.createDirectories(p);
                    } else if (e.has("bytes")) {
                        Files.write(p, bytes.of(e.getString("bytes")));
                    } else {
                        Files.writeString(p, e.getString("file"));
                    }
                }
            } catch (IOException | RuntimeException ex) {
                fx.close();
                throw ex;
            }
            return fx;
        }

        @Override
        public void close() {
            try (Stream<Path> s = Files.walk(root)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                // a leftover temporary directory is not a test failure
            }
        }
    }

    // ---- resources and tallies --------------------------------------------------------------------------------------

    static JSONObject resource(String name) {
        return new JSONObject(new JSONTokener(new String(resourceBytes(name), StandardCharsets.UTF_8)));
    }

    private byte[] bytes(String name) {
        return resourceBytes(name);
    }

    static byte[] resourceBytes(String name) {
        try (InputStream in = VectorRunner.class.getResourceAsStream(BASE + name)) {
            if (in == null) {
                throw new IllegalStateException("vector resource missing: " + BASE + name);
            }
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            in.transferTo(b);
            return b.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + BASE + name, e);
        }
    }

    private static String abbreviate(String s) {
        String one = s.replaceAll("\\s+", " ").trim();
        return one.length() > 300 ? one.substring(0, 297) + "..." : one.isEmpty() ? "(empty)" : "'" + one + "'";
    }

    private static final class Tally {
        final String file;
        int passed;
        int failed;
        int skipped;
        final List<String> failures = new ArrayList<>();

        Tally(String file) {
            this.file = file;
        }

        void record(String what, String failure) {
            if (failure == null) {
                passed++;
            } else {
                failed++;
                failures.add(what + ": " + failure);
            }
        }

        FileReport report() {
            return new FileReport(file, passed, failed, skipped, List.copyOf(failures));
        }
    }
}
