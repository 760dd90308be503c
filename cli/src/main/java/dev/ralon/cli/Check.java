package dev.ralon.cli;

import dev.ralon.policy.git.GitLayout;
import dev.ralon.policy.Expansion;
import dev.ralon.policy.Rule;
import dev.ralon.policy.RuleText;
import dev.ralon.policy.Warning;
import dev.ralon.policy.git.ChangedPaths;
import dev.ralon.policy.git.GitException;
import dev.ralon.policy.walk.PolicySet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ralon check}, executed: is a path protected? Exit 1 when any given path is protected, 0 when none is, 2 on
 * error. Without paths: lists every existing path the policy protects now (exit 0), and reports each agent-instructions
 * section that no longer says what agent.lock says ({@link AgentInstructions#reportStale}: a line each, exit 1). With
 * {@code --changed} or
 * {@code --staged}: the protected paths a branch or the next commit changes. Free of picocli: the fast path
 * ({@link FastParser}) and the picocli binding ({@link CheckCommand}) both hand it a {@link CheckRequest}.
 */
final class Check {
    /** Most bytes read from stdin with --stdin: a bound, so a runaway producer is an error, not an exhausted heap. */
    static final int MAX_STDIN = 64 << 20;

    /** What {@code --changed} without a value stores: no base given (HEAD, refused under CI=true). */
    static final String DEFAULT_BASE = "";

    private Check() {
    }

    static int execute(CheckRequest r, InputStream in, PrintWriter out, PrintWriter err) throws IOException {
        if (r.changedBase() != null || r.staged()) {
            if (!r.paths().isEmpty() || r.stdin()) {
                throw CliException.error("--changed and --staged take no paths");
            }
            if (r.changedBase() != null && r.staged()) {
                throw CliException.error("--changed and --staged go separately");
            }
            return changes(r, PolicyOption.load(r.policy()), out);
        }
        if (r.nul() && !r.stdin()) {
            throw CliException.error("-z goes with --stdin");
        }
        List<String> all = new ArrayList<>(r.paths());
        if (r.stdin()) {
            all.addAll(readStdin(in, r.nul()));
        }
        try {
            PolicySet policy = PolicyOption.load(r.policy());
            if (all.isEmpty() && !r.stdin()) {
                // and the agents' instructions (AGENTS.md, CLAUDE.md, GEMINI.md) still say what agent.lock says
                return AgentInstructions.reportStale(policy, err, listProtected(policy, out, err, r.explain(), r.json()));
            }
            return checkPaths(policy, all, out, r.explain(), r.json(), r.nul());
        } catch (CliException e) {
            if (!r.json()) {
                throw e;
            }
            // the one JSON document of the run (spec §12.2): the handler, told it is written, adds none
            out.println(Json.write(errorJson(e)));
            out.flush();
            throw e.jsonWritten();
        }
    }

    private static int changes(CheckRequest r, PolicySet policy, PrintWriter out) {
        boolean json = r.json();
        boolean explain = r.explain();
        String changedBase = r.changedBase();
        boolean staged = r.staged();
        Path cwd = Path.of("").toAbsolutePath();
        String redirect = GitLayout.redirectRefusal(Path.of("").toAbsolutePath(), policy.nearest().root());
        if (redirect != null) {
            throw CliException.error(redirect);
        }
        ChangedPaths.Result result;
        try {
            String base = changedBase == null || changedBase.equals(DEFAULT_BASE) ? null : changedBase;
            result = ChangedPaths.find(policy, cwd, base, staged, ChangedPaths.underCi(System.getenv()), "--changed ");
        } catch (GitException e) {
            throw CliException.error(e.getMessage());
        } catch (dev.ralon.policy.PolicyException e) {
            throw CliException.error("the policy at " + e.getMessage());
        }
        List<Object> results = new ArrayList<>();
        for (ChangedPaths.Finding f : result.findings()) {
            // relative to the repository's top level wherever ralon runs: the same lines from every directory, and
            // the form git itself prints (and CI annotations expect)
            String shown = f.from() == null ? f.path() : f.from() + " -> " + f.path();
            if (json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("status", f.status());
                m.put("path", f.path());
                m.put("from", f.from());
                m.put("rules", rulesJson(f.rules()));
                m.put("where", f.where());
                m.put("codeRunningConfig", f.codeRunning());
                results.add(m);
            } else {
                out.println(f.status() + "\t" + shown + (explain ? ": " + reasons(policy, f) : ""));
            }
        }
        boolean any = !result.findings().isEmpty();
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("format", Json.FORMAT);
            putPolicies(doc, policy);
            doc.put("base", result.base());
            doc.put("top", result.top().toString());
            doc.put("staged", staged);
            doc.put("anyProtected", any);
            doc.put("changes", results);
            out.println(Json.write(doc));
        }
        out.flush();
        return any ? ExitCodes.PROTECTED : ExitCodes.OK;
    }

    /**
     * Why a change is reported, for {@code --explain}: {@code protected by "x" (agent.lock:3)} and/or
     * {@code code-running configuration: <why>}, then where the change is: {@code (in commits, index)}.
     */
    static String reasons(PolicySet policy, ChangedPaths.Finding f) {
        List<String> why = new ArrayList<>();
        if (!f.rules().isEmpty()) {
            why.add("protected by " + describe(policy, f.rules()));
        }
        if (f.codeRunning() != null) {
            why.add("code-running configuration: " + f.codeRunning());
        }
        return String.join("; ", why) + (f.where().isEmpty() ? "" : " (in " + String.join(", ", f.where()) + ")");
    }

    /** Checks each path, printing protected ones (or JSON); exit 1 if any is protected. */
    static int checkPaths(PolicySet policy, List<String> all, PrintWriter out, boolean explain, boolean json, boolean nul) {
        boolean any = false;
        List<Object> results = new ArrayList<>();
        for (String p : all) {
            if (dev.ralon.policy.FileNames.hasReplacement(p)) {
                // not valid UTF-8 (decoded with U+FFFD): the path asked about is not the one judged
                throw CliException.error("not a valid UTF-8 path (file names are UTF-8): " + CliException.oneLine(p));
            }
            if (p.isEmpty()) { // spec §8.5, error id path-empty (§10.1): no result for any path (§12.2)
                throw CliException.of("path-empty", "an empty path names nothing; give a path (use . for this directory)");
            }
            Path path;
            try {
                path = Path.of(p);
            } catch (InvalidPathException e) {
                throw CliException.error("not a valid path: " + CliException.oneLine(p));
            }
            List<Rule> rules = policy.check(path);
            any |= !rules.isEmpty();
            if (json) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("path", p);
                r.put("protected", !rules.isEmpty());
                r.put("rules", rulesJson(rules));
                results.add(r);
            } else if (!rules.isEmpty()) {
                if (explain) {
                    out.print(p + ": protected by " + describe(policy, rules, path));
                } else {
                    out.print(p);
                }
                out.print(nul ? "\0" : "\n");
            } else if (explain) { // --explain answers for every path asked about, in the same words as the hook
                String lock = RuleText.file(policy.nearest().file(), policy.naming());
                Path abs = path.toAbsolutePath().normalize();
                out.print(p + ": not protected (" + (abs.startsWith(policy.root()) ? "no pattern of " + lock
                        + (policy.policies().size() > 1 ? " or the policies above it" : "") + " matches it"
                        : "outside " + policy.root() + ", where " + lock + " applies") + ")");
                out.print(nul ? "\0" : "\n");
            }
        }
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("format", Json.FORMAT);
            putPolicies(doc, policy);
            doc.put("root", policy.root().toString());
            doc.put("anyProtected", any);
            doc.put("results", results);
            out.println(Json.write(doc));
        }
        out.flush();
        return any ? ExitCodes.PROTECTED : ExitCodes.OK;
    }

    /**
     * Lists every protected path of {@code policy} (or the JSON document), warnings on {@code err}; exit 0.
     */
    static int listProtected(PolicySet policy, PrintWriter out, PrintWriter err, boolean explain, boolean json)
            throws IOException {
        WalkReader.install();
        Expansion exp = policy.expand(true);
        Path cwd = Path.of("").toAbsolutePath();
        if (json) {
            List<Object> entries = new ArrayList<>();
            for (Expansion.Entry e : exp.entries()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("path", e.relPath());
                m.put("kind", e.kind().name().toLowerCase(java.util.Locale.ROOT));
                m.put("rules", rulesJson(e.rules()));
                if (e.via() != null) {
                    m.put("via", e.via());
                }
                entries.add(m);
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("format", Json.FORMAT);
            putPolicies(doc, policy);
            doc.put("root", exp.root().toString());
            doc.put("protected", entries);
            doc.put("warnings", exp.warningMessages());
            doc.put("warningDetails", warningsJson(exp.warnings(), exp.naming()));
            out.println(Json.write(doc));
        } else {
            // buffered: picocli's writer flushes on every println, one write(2) per line (14,000 for a large tree)
            PrintWriter lines = new PrintWriter(new java.io.BufferedWriter(out, 1 << 16), false);
            for (Expansion.Entry e : exp.entries()) {
                String shown = display(cwd, e.path()) + (e.kind() == Expansion.Entry.Kind.DIRECTORY ? "/" : "");
                if (explain) {
                    String note = e.kind() == Expansion.Entry.Kind.MISSING ? " (does not exist yet)"
                            : e.via() != null ? " (reached as " + e.via() + " through a symbolic link)" : "";
                    lines.println(shown + note + ": protected by " + describe(policy, e.rules(), e.path()));
                } else {
                    lines.println(shown);
                }
            }
            lines.flush();
            for (String w : exp.warningMessages()) {
                err.println("ralon: warning: " + w);
            }
            err.flush();
        }
        out.flush();
        return ExitCodes.OK;
    }

    static String display(Path cwd, Path p) {
        if (p.startsWith(cwd) && !p.equals(cwd)) {
            return cwd.relativize(p).toString();
        }
        return p.toString();
    }

    /**
     * Every rule, with the file and line it is written at: {@code "secrets/" (agent.lock:6), ...} (the file named in
     * full when several policies are in force).
     */
    static String describe(PolicySet set, List<Rule> rules) {
        return describe(set, rules, null);
    }

    /**
     * {@link #describe(PolicySet, List)}, saying for a rule that protects {@code path} (absolute) only because it
     * matches everything beneath it ({@code X/**} and {@code X}) that the directory is protected as a whole.
     */
    static String describe(PolicySet set, List<Rule> rules, Path path) {
        List<String> parts = new ArrayList<>();
        for (Rule r : rules) {
            parts.add(RuleText.of(r, set.naming()) + (holdsOnly(r, path) ? ", which matches everything beneath"
                    + " it, so it is protected as a whole, new entries included" : ""));
        }
        return String.join(", ", parts);
    }

    /**
     * Warnings as JSON objects ({@code warningDetails}, docs/json.md): {@code kind} (a stable id), {@code file}
     * (absolute, or null when the warning points nowhere in a policy), {@code line} and {@code column} (null when
     * none), {@code text} (without the place) and {@code message} (the line as printed).
     */
    static List<Object> warningsJson(List<Warning> warnings, RuleText.Naming naming) {
        List<Object> out = new ArrayList<>();
        for (Warning w : warnings) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("kind", w.kind().id());
            m.put("file", w.file() == null ? null : RuleText.file(w.file(), RuleText.Naming.ABSOLUTE));
            m.put("line", w.line() > 0 ? w.line() : null);
            m.put("column", w.column() > 0 ? w.column() : null);
            m.put("text", w.text());
            m.put("message", w.message(naming));
            out.add(m);
        }
        return out;
    }

    /** Whether {@code r} protects {@code path} (absolute, or null) only because it holds it (Glob.holds). */
    private static boolean holdsOnly(Rule r, Path path) {
        if (path == null || r.implicit() || r.file() == null) {
            return false;
        }
        Path root = r.file().toAbsolutePath().getParent();
        Path abs = path.toAbsolutePath().normalize();
        return root != null && abs.startsWith(root) && !abs.equals(root)
                && r.holdsOnly(root.relativize(abs).toString());
    }

    /**
     * The JSON document {@code check --json} prints on stdout when no policy can be used or a path is invalid (exit 2;
     * the same lines on stderr): {@code format} as every JSON document (docs/json.md), {@code error} the first problem,
     * {@code errors} every problem of the file (spec §10.2), each with the stable error id of spec §10.1 as
     * {@code kind}, and {@code offset} in code points (null when line is 0, spec §12.2).
     */
    static Map<String, Object> errorJson(CliException e) {
        List<Object> all = new ArrayList<>();
        if (e.policyError() != null) {
            for (dev.ralon.policy.PolicyException.Problem p : e.policyError().problems()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("kind", p.id());
                m.put("file", p.file() == null ? null : p.file().toAbsolutePath().normalize().toString());
                m.put("line", p.line());
                m.put("column", p.column());
                m.put("offset", p.offset() < 0 ? null : p.offset());
                m.put("message", p.message());
                all.add(m);
            }
        } else {
            // no place in a file (spec §12.2: line and column 0, offset null)
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("kind", e.getMessage().startsWith("no " + dev.ralon.policy.walk.PolicyDiscovery.FILE_NAME + " ")
                    ? dev.ralon.policy.ErrorKind.NOT_FOUND.id() : e.kind().equals("error") ? "usage" : e.kind());
            m.put("file", null);
            m.put("line", 0);
            m.put("column", 0);
            m.put("offset", null);
            m.put("message", e.getMessage());
            all.add(m);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("format", Json.FORMAT);
        doc.put("error", all.get(0));
        doc.put("errors", all);
        return doc;
    }

    /**
     * {@code "policy"}: the nearest policy file (the only one, mostly); {@code "policies"}: every file in force,
     * farthest first; {@code "policyReplacedDiscovery"}: whether {@code --policy} named it.
     */
    static void putPolicies(Map<String, Object> doc, PolicySet set) {
        doc.put("policy", set.nearest().file().toString());
        doc.put("policies", set.files().stream().map(Path::toString).toList());
        doc.put("policyReplacedDiscovery", set.isExplicit());
    }

    static List<Object> rulesJson(List<Rule> rules) {
        List<Object> out = new ArrayList<>();
        for (Rule r : rules) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("file", r.file().toAbsolutePath().normalize().toString()); // spec §12.2: absolute
            m.put("pattern", r.pattern());
            m.put("line", r.line());
            m.put("implicit", r.implicit());
            out.add(m);
        }
        return out;
    }

    /**
     * Reads a stream to its end, refusing more than {@code max} bytes (a runaway producer is an error, not an
     * exhausted heap).
     */
    static byte[] readBounded(InputStream in, int max, String what) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        byte[] chunk = new byte[65536];
        int n;
        while ((n = in.read(chunk)) > 0) {
            buf.write(chunk, 0, n);
            if (buf.size() > max) {
                throw new IOException(what + " is larger than " + (max >> 20) + " MiB");
            }
        }
        return buf.toByteArray();
    }

    static List<String> readStdin(InputStream in, boolean nul) throws IOException {
        String text;
        try {
            text = new String(readBounded(in, MAX_STDIN, "standard input"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw CliException.error(e.getMessage());
        }
        List<String> out = new ArrayList<>();
        for (String s : text.split(nul ? "\0" : "\n", -1)) {
            if (!nul && s.endsWith("\r")) {
                s = s.substring(0, s.length() - 1);
            }
            if (!s.isEmpty()) {
                if (!nul && s.indexOf('\0') >= 0) {
                    throw CliException.error("standard input contains a NUL byte; use -z for NUL-separated paths");
                }
                out.add(s);
            }
        }
        return out;
    }
}
