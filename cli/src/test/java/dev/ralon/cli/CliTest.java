package dev.ralon.cli;


import dev.ralon.testsupport.ProcessResult;

import dev.ralon.policy.load.PolicyLoader;
import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CLI in-process through {@link Ralon#execute(String[], PrintWriter, PrintWriter)}. The JVM's working directory
 * cannot change, so every path here is absolute and the policy is named with --policy; what depends on the working
 * directory (discovery, relative paths) is in {@link CliE2ETest}, through the real executable.
 */
class CliTest {
    @TempDir
    Path tmp;

    Path root;
    Path lock;

    /** Runs Ralon in this JVM: the result is this process's (its pid). */
    static ProcessResult run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Ralon.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new ProcessResult(code, out.toString(), err.toString(), ProcessHandle.current().pid());
    }

    static ProcessResult runWithStdin(byte[] stdin, String... args) {
        InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream(stdin));
        try {
            return run(args);
        } finally {
            System.setIn(saved);
        }
    }

    /** One line on stderr, "ralon: ...", exit 2, nothing on stdout. */
    static void assertError(ProcessResult r, String... mustContain) {
        assertEquals(2, r.code(), r.toString());
        assertEquals(1, r.errLines().size(), "exactly one line on stderr: " + r.err());
        String line = r.errLines().get(0);
        assertTrue(line.startsWith("ralon: "), line);
        assertFalse(line.contains("Exception") || line.contains("\tat "), line);
        for (String s : mustContain) {
            assertTrue(line.contains(s), "'" + s + "' missing from: " + line);
        }
        assertEquals("", r.out(), "nothing on stdout for an error");
    }

    @BeforeEach
    void project() throws Exception {
        root = tmp.resolve("proj");
        Files.createDirectories(root.resolve("src/auth"));
        Files.writeString(root.resolve("src/auth/login.ts"), "x");
        Files.writeString(root.resolve("src/app.ts"), "x");
        Files.writeString(root.resolve(".env"), "x");
        Files.createDirectories(root.resolve("keys"));
        Files.writeString(root.resolve("keys/server.pem"), "x");
        root = root.toRealPath();
        lock = Files.writeString(root.resolve("agent.lock"),
                "version: 1\nprotect:\n  - .env\n  - \"**/*.pem\"\n  - src/auth/\n  - not/yet.txt\n");
    }

    String p(String rel) {
        return root.resolve(rel).toString();
    }

    // ---- top level ----

    @Test
    void version() {
        ProcessResult r = run("--version");
        assertEquals(0, r.code());
        assertTrue(r.out().matches("ralon \\S+ \\(agent\\.lock version 1\\)\\n"), r.out());
        assertFalse(r.out().contains("unknown"), "the build's version is filtered in: " + r.out());
    }

    @Test
    void helpHasExamplesAndExitCodes() {
        ProcessResult r = run("--help");
        assertEquals(0, r.code());
        for (String s : List.of("Usage: ralon", "init", "check", "status", "run", "Examples:", "ralon check --stdin",
                "Exit codes:")) {
            assertTrue(r.out().contains(s), s + " missing from help:\n" + r.out());
        }
        for (String sub : List.of("init", "check", "status")) {
            ProcessResult h = run(sub, "--help");
            assertEquals(0, h.code(), sub);
            assertTrue(h.out().startsWith("Usage: ralon " + sub), h.out());
        }
    }

    @Test
    void badArgumentsAreOneLineAndExit2() {
        assertError(run(), "command is required");
        assertError(run("frobnicate"), "frobnicate");
        assertError(run("check", "--no-such-option"), "--no-such-option", "ralon check --help");
        assertError(run("init", "a", "b"), "ralon init --help");
        assertError(run("check", "--policy"), "--policy");
        assertError(run("check", "-z", "--policy", lock.toString(), "x"), "-z goes with --stdin");
    }

    // ---- the command line: --policy before the command, did you mean, completion ----

    @Test
    void policyBeforeTheCommandIsTheCommandsOwn() throws Exception {
        ProcessResult before = run("--policy", lock.toString(), "check", "--explain", p(".env"));
        ProcessResult after = run("check", "--explain", "--policy", lock.toString(), p(".env"));
        assertEquals(1, before.code(), before.toString());
        assertEquals(after, before);
        assertEquals(0, run("--policy", lock.toString(), "status").code());
        assertEquals(0, run("--policy", lock.toString(), "run", "--dry-run", "--backend", "noop", "--", "true").code());
        assertError(run("--policy", lock.toString(), "schema"), "--policy does not apply to schema");
        Path other = Files.writeString(tmp.resolve("other.lock"), "version: 1\n");
        assertError(run("--policy", lock.toString(), "check", "--policy", other.toString(), p(".env")),
                "--policy given twice");
        assertEquals(1, run("--policy", lock.toString(), "check", "--policy", lock.toString(), p(".env")).code());
    }

    @Test
    void anUnknownCommandOrOptionGetsADidYouMean() {
        assertError(run("chek", "x"), "'chek'", "did you mean: check");
        assertError(run("stauts"), "did you mean: status");
        assertError(run("run", "--dryrun", "--", "true"), "Unknown option: '--dryrun'", "did you mean: --dry-run?");
    }

    @Test
    void completionCompletesFileNamesBackendNamesAndHookNames() {
        ProcessResult r = run("generate-completion");
        assertEquals(0, r.code(), r.err());
        String script = r.out();
        String check = script.substring(script.indexOf("function _picocli_ralon_check()"));
        check = check.substring(0, check.indexOf("\n}\n"));
        assertTrue(check.contains("positionals=$( compgen -f -- \"${curr_word}\" ) # files"), "check PATH: " + check);
        assertTrue(script.contains("local NAME_option_args=(\"mount\" \"landlock\" \"noop\") # --backend values"),
                script);
        String hook = script.substring(script.indexOf("function _picocli_ralon_hook()"));
        hook = hook.substring(0, hook.indexOf("\n}\n"));
        assertTrue(hook.contains("claude-code"), "hook FORMAT: " + hook);
        String run = script.substring(script.indexOf("function _picocli_ralon_run()"));
        run = run.substring(0, run.indexOf("\n}\n"));
        assertTrue(run.contains("compgen -f"), "run CMD: " + run);
    }

    // ---- JSON: a version field, and errors as JSON ----

    @Test
    void everyJsonDocumentHasItsFormatAndErrorsAreJsonToo() throws Exception {
        for (String[] args : List.of(new String[] {"status", "--json"}, new String[] {"check", "--json"},
                new String[] {"check", "--json", p(".env")},
                new String[] {"run", "--dry-run", "--json", "--backend", "noop", "--", "true"})) {
            List<String> a = new ArrayList<>(List.of(args));
            a.add(1, lock.toString());
            a.add(1, "--policy");
            ProcessResult r = run(a.toArray(String[]::new));
            JSONObject doc = new JSONObject(r.out());
            assertEquals(1, doc.getInt("format"), List.of(args) + ": " + r.out());
            assertTrue(r.out().startsWith("{\n  \"format\": 1,\n"), "the format comes first: " + r.out());
        }
        Files.writeString(lock, "version: 1\nprotect:\n  - ok\n  - /abs\n");
        for (String cmd : List.of("status", "check")) {
            ProcessResult bad = run(cmd, "--json", "--policy", lock.toString());
            assertEquals(2, bad.code(), bad.toString());
            JSONObject e = new JSONObject(bad.out()).getJSONObject("error");
            assertEquals(1, new JSONObject(bad.out()).getInt("format"));
            assertEquals("pattern-absolute", e.getString("kind"), bad.out());
            assertEquals(4, e.getInt("line"));
            assertEquals(5, e.getInt("column"));
            assertEquals(lock.toString(), e.getString("file"));
            assertTrue(e.getString("message").contains("agent.lock:4:5"), e.toString());
            assertEquals(1, bad.errLines().size(), "the one line on stderr stays: " + bad.err());
            // one JSON document on stdout (spec §12.2): check printed its own and picocli's handler a second one
            assertEquals(bad.out().indexOf("\"format\""), bad.out().lastIndexOf("\"format\""), bad.out());
        }
        ProcessResult empty = run("check", "--json", "--policy", lock.toString(), p(".env"), "");
        assertEquals(2, empty.code(), empty.toString());
        assertEquals("pattern-absolute", new JSONObject(empty.out()).getJSONObject("error").getString("kind"),
                "the policy is loaded before any path is judged (spec §12.2): " + empty.out());
        Files.writeString(lock, "version: 1\n");
        empty = run("check", "--json", "--policy", lock.toString(), p(".env"), "", p("x"));
        assertEquals(2, empty.code(), empty.toString());
        JSONObject e = new JSONObject(empty.out());
        assertEquals("path-empty", e.getJSONObject("error").getString("kind"), empty.out());
        assertTrue(e.getJSONObject("error").isNull("offset") && !e.has("results"), empty.out());
        assertEquals(e.getJSONObject("error").toString(), e.getJSONArray("errors").getJSONObject(0).toString());
        assertEquals(empty.out().indexOf("\"format\""), empty.out().lastIndexOf("\"format\""), empty.out());
        Files.writeString(lock, "version: 1\nprotect:\n  - ok\n  - /abs\n");
        ProcessResult usage = run("status", "--json", "--bogus");
        assertEquals("usage", new JSONObject(usage.out()).getJSONObject("error").getString("kind"));
        ProcessResult plain = run("status", "--policy", lock.toString());
        assertError(plain, "agent.lock:4:5");
    }

    @Test
    void explainSaysADirectoryIsProtectedAsAWhole() throws Exception {
        Files.createDirectories(root.resolve(".github/workflows"));
        Files.writeString(lock, "version: 1\nprotect:\n  - .github/workflows/**\n");
        ProcessResult r = run("check", "--explain", "--policy", lock.toString(), p(".github/workflows"),
                p(".github/workflows/new.yml"), p(".github"));
        assertEquals(1, r.code(), r.toString());
        assertEquals(p(".github/workflows") + ": protected by \".github/workflows/**\" (agent.lock:3), which matches"
                + " everything beneath it, so it is protected as a whole, new entries included\n"
                + p(".github/workflows/new.yml") + ": protected by \".github/workflows/**\" (agent.lock:3)\n"
                + p(".github") + ": not protected (no pattern of agent.lock matches it)\n", r.out());
        ProcessResult status = run("status", "--policy", lock.toString());
        assertFalse(status.out().contains("expanded at start"), status.out());
        Files.writeString(lock, "version: 1\nprotect:\n  - .github/workflows/**\n  - \"**/*.pem\"\n");
        status = run("status", "--policy", lock.toString());
        assertTrue(status.out().contains("note: expanded at start: \"**/*.pem\" (agent.lock:4): a path created during a"
                + " run that matches it is protected only inside a protected directory"), status.out());
    }

    // ---- init ----

    @Test
    void initWritesTheTemplateAndRefusesToOverwrite() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("fresh"));
        ProcessResult r = run("init", dir.toString());
        assertEquals(0, r.code(), r.toString());
        Path written = dir.resolve("agent.lock");
        assertEquals(InitCommand.TEMPLATE, Files.readString(written));
        assertTrue(r.out().contains(written.toString()), r.out());
        assertEquals(List.of("agent.lock"), PolicyLoader.load(written).declaredRules().stream()
                .map(dev.ralon.policy.Rule::pattern).toList(), "the template is a valid policy");

        Files.writeString(written, "version: 1\n# mine\n");
        Files.setLastModifiedTime(written, FileTime.fromMillis(1_500_000_000_000L));
        Map<String, String> before = listing(dir);
        ProcessResult again = run("init", dir.toString());
        assertError(again, written.toString(), "already exists", "--force");
        assertEquals(before, listing(dir), "refused: file untouched, no temporary file left");

        ProcessResult forced = run("init", "--force", dir.toString());
        assertEquals(0, forced.code(), forced.toString());
        assertEquals(InitCommand.TEMPLATE, Files.readString(written));
        assertEquals(List.of("agent.lock"), List.copyOf(listing(dir).keySet()), "no temporary file left");
    }

    @Test
    void initProposesTheSensitivePathsItFindsWithACommentEachAndMinimalDoesNot() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("project"));
        for (String f : List.of(".env", ".env.example", ".env.local", ".github/workflows/ci.yml", "certs/server.pem", "deploy/id_rsa",
                "config/app.key", "node_modules/dep/test.pem", "src/main.c", ".npmrc")) {
            Files.createDirectories(dir.resolve(f).getParent());
            Files.writeString(dir.resolve(f), "x");
        }
        ProcessResult r = run("init", dir.toString());
        assertEquals(0, r.code(), r.toString());
        String text = Files.readString(dir.resolve("agent.lock"));
        List<String> patterns = PolicyLoader.load(dir.resolve("agent.lock")).declaredRules().stream()
                .map(dev.ralon.policy.Rule::pattern).toList();
        assertEquals(List.of("agent.lock", ".env*", ".github/workflows/**", ".npmrc", "**/*.pem", "**/*.key",
                "**/id_rsa"), patterns, text);
        // the comment names everything the pattern takes here, the template .env.example included
        assertTrue(text.contains("  # environment files with secrets; every name starting with .env, templates such as"
                + " .env.example too (covers here: .env, .env.example, .env.local)\n  - .env*\n"), text);
        assertTrue(text.contains("(covers here: certs/server.pem)\n  - \"**/*.pem\"\n"), "node_modules is not walked: " + text);
        assertTrue(text.contains("  # - src/auth/\n"), "examples not proposed stay as examples: " + text);
        assertFalse(text.contains("  # - .env\n"), text);
        assertTrue(r.out().contains("protecting what it found here: .env*, .github/workflows/**"), r.out());
        // what it proposes is protected, directories as a whole
        assertEquals(1, run("check", "--policy", dir.resolve("agent.lock").toString(), dir.resolve(".env.local").toString(),
                dir.resolve(".github/workflows/new.yml").toString()).code());
        // --explain answers for every path, the unprotected one too
        ProcessResult explained = run("check", "--explain", "--policy", dir.resolve("agent.lock").toString(),
                dir.resolve(".env.example").toString(), dir.resolve("src/main.c").toString());
        assertEquals(1, explained.code(), explained.toString());
        assertEquals(List.of(dir.resolve(".env.example") + ": protected by \".env*\" (agent.lock:12)",
                dir.resolve("src/main.c") + ": not protected (no pattern of agent.lock matches it)"),
                explained.out().lines().toList());

        ProcessResult min = run("init", "--minimal", "--force", dir.toString());
        assertEquals(0, min.code(), min.toString());
        assertEquals(InitCommand.TEMPLATE, Files.readString(dir.resolve("agent.lock")));
    }

    @Test
    void initRefusesADirectoryNamedAgentLockAndAMissingDirectory() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("d/agent.lock")).getParent();
        assertError(run("init", dir.toString()), "is a directory");
        assertError(run("init", "--force", dir.toString()), "is a directory");
        assertTrue(Files.isDirectory(dir.resolve("agent.lock")));
        assertError(run("init", tmp.resolve("nope").toString()), "not a directory");
        assertFalse(Files.exists(tmp.resolve("nope")));
    }

    static Map<String, String> listing(Path dir) throws Exception {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path q : s.filter(q -> !q.equals(dir)).toList()) {
                m.put(dir.relativize(q).toString(), Files.isRegularFile(q)
                        ? Files.size(q) + "/" + Files.getLastModifiedTime(q) + "/" + Files.readString(q).hashCode() : "d");
            }
        }
        return m;
    }

    // ---- check ----

    @Test
    void checkExitCodes() {
        ProcessResult prot = run("check", "--policy", lock.toString(), p(".env"));
        assertEquals(1, prot.code(), prot.toString());
        assertEquals(p(".env") + "\n", prot.out());
        assertEquals("", prot.err());

        ProcessResult free = run("check", "--policy", lock.toString(), p("src/app.ts"));
        assertEquals(0, free.code(), free.toString());
        assertEquals("", free.out());

        ProcessResult mixed = run("check", "--policy", lock.toString(), p("src/app.ts"), p("src/auth/login.ts"),
                p("keys/server.pem"), p("agent.lock"), p("not/yet.txt"), p("src/auth/new-file.ts"));
        assertEquals(1, mixed.code());
        assertEquals(String.join("\n", p("src/auth/login.ts"), p("keys/server.pem"), p("agent.lock"),
                p("not/yet.txt"), p("src/auth/new-file.ts")) + "\n", mixed.out(), "only the protected ones, in order");

        ProcessResult outside = run("check", "--policy", lock.toString(), tmp.resolve("elsewhere/.env").toString(), "/etc/passwd");
        assertEquals(0, outside.code(), "paths outside the root are not protected by this policy");

        ProcessResult top = run("check", "--policy", lock.toString(), root.toString());
        assertEquals(0, top.code(), "the root directory itself is not protected");
    }

    @Test
    void checkExplain() {
        ProcessResult r = run("check", "--explain", "--policy", lock.toString(), p("keys/server.pem"), p("agent.lock"),
                p("src/app.ts"));
        assertEquals(1, r.code());
        assertEquals(p("keys/server.pem") + ": protected by \"**/*.pem\" (agent.lock:4)\n"
                + p("agent.lock") + ": protected by agent.lock (the policy file always protects itself)\n"
                + p("src/app.ts") + ": not protected (no pattern of agent.lock matches it)\n", r.out());
        ProcessResult outside = run("check", "--explain", "--policy", lock.toString(), "/etc/passwd");
        assertEquals(0, outside.code(), outside.toString());
        assertEquals("/etc/passwd: not protected (outside " + root + ", where agent.lock applies)\n", outside.out());
    }

    @Test
    void checkJson() {
        ProcessResult r = run("check", "--json", "--policy", lock.toString(), p("src/auth/x.ts"), p("src/app.ts"));
        assertEquals(1, r.code());
        JSONObject doc = new JSONObject(r.out());
        assertEquals(java.util.Set.of("format", "policy", "policies", "policyReplacedDiscovery", "root", "anyProtected",
                "results"), doc.keySet());
        assertEquals(lock.toString(), doc.getString("policy"));
        assertEquals(root.toString(), doc.getString("root"));
        assertTrue(doc.getBoolean("anyProtected"));
        JSONArray res = doc.getJSONArray("results");
        assertEquals(2, res.length());
        JSONObject first = res.getJSONObject(0);
        assertEquals(p("src/auth/x.ts"), first.getString("path"));
        assertTrue(first.getBoolean("protected"));
        JSONObject rule = first.getJSONArray("rules").getJSONObject(0);
        assertEquals("src/auth/", rule.getString("pattern"));
        assertEquals(5, rule.getInt("line"));
        assertFalse(rule.getBoolean("implicit"));
        JSONObject second = res.getJSONObject(1);
        assertFalse(second.getBoolean("protected"));
        assertEquals(0, second.getJSONArray("rules").length());

        ProcessResult none = run("check", "--json", "--policy", lock.toString(), p("src/app.ts"));
        assertEquals(0, none.code());
        assertFalse(new JSONObject(none.out()).getBoolean("anyProtected"));
    }

    @Test
    void checkThroughASymbolicLinkIsProtected() throws Exception {
        Files.createSymbolicLink(root.resolve("innocent.txt"), Path.of(".env"));
        Files.createSymbolicLink(root.resolve("door"), Path.of("src/auth"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.createSymbolicLink(outside.resolve("back"), root);
        ProcessResult r = run("check", "--policy", lock.toString(), p("innocent.txt"), p("door/login.ts"), p("door/new.ts"),
                outside.resolve("back/.env").toString(), p("src/../.env"));
        assertEquals(1, r.code());
        assertEquals(5, r.out().lines().count(), r.out());
    }

    @Test
    void checkStdinNewlinesAndNul() {
        String lines = p(".env") + "\r\n" + p("src/app.ts") + "\n\n" + p("keys/server.pem") + "\n";
        ProcessResult r = runWithStdin(lines.getBytes(StandardCharsets.UTF_8), "check", "--stdin", "--policy", lock.toString());
        assertEquals(1, r.code(), r.toString());
        assertEquals(p(".env") + "\n" + p("keys/server.pem") + "\n", r.out());

        String odd = root.resolve("we ird\nname.pem").toString();
        byte[] z = (p("src/app.ts") + "\0" + odd + "\0").getBytes(StandardCharsets.UTF_8);
        ProcessResult rz = runWithStdin(z, "check", "-z", "--stdin", "--policy", lock.toString());
        assertEquals(1, rz.code(), rz.toString());
        assertEquals(odd + "\0", rz.out(), "NUL-terminated output; a newline inside a name survives");

        ProcessResult free = runWithStdin(p("src/app.ts").getBytes(StandardCharsets.UTF_8), "check", "--stdin", "--policy",
                lock.toString());
        assertEquals(0, free.code());
        ProcessResult empty = runWithStdin(new byte[0], "check", "--stdin", "--policy", lock.toString());
        assertEquals(0, empty.code(), "no paths on stdin: nothing is protected (not a listing)");
        assertEquals("", empty.out());

        ProcessResult nulWithoutZ = runWithStdin("a\0b\n".getBytes(StandardCharsets.UTF_8), "check", "--stdin", "--policy",
                lock.toString());
        assertError(nulWithoutZ, "-z");
    }

    @Test
    void checkWithoutPathsListsWhatIsProtected() throws Exception {
        ProcessResult r = run("check", "--policy", lock.toString());
        assertEquals(0, r.code(), r.toString());
        assertEquals(List.of(p(".env"), p("agent.lock"), p("keys/server.pem"), p("not/yet.txt"), p("src/auth") + "/"),
                r.out().lines().toList());

        ProcessResult ex = run("check", "--explain", "--policy", lock.toString());
        assertTrue(ex.out().contains(p("not/yet.txt") + " (does not exist yet): protected by \"not/yet.txt\" (agent.lock:6)"),
                ex.out());
        assertTrue(ex.out().contains(p("src/auth") + "/: protected by \"src/auth/\" (agent.lock:5)"), ex.out());

        ProcessResult js = run("check", "--json", "--policy", lock.toString());
        assertEquals(0, js.code());
        JSONObject doc = new JSONObject(js.out());
        assertEquals(java.util.Set.of("format", "policy", "policies", "policyReplacedDiscovery", "root", "protected",
                "warnings", "warningDetails"), doc.keySet());
        JSONArray prot = doc.getJSONArray("protected");
        assertEquals(5, prot.length());
        JSONObject auth = prot.getJSONObject(4);
        assertEquals("src/auth", auth.getString("path"));
        assertEquals("directory", auth.getString("kind"));
        assertEquals("src/auth/", auth.getJSONArray("rules").getJSONObject(0).getString("pattern"));
        assertFalse(auth.has("via"));
        assertEquals("missing", prot.getJSONObject(3).getString("kind"));
        assertEquals(List.of("agent.lock:6:5: pattern \"not/yet.txt\" names nothing that exists yet"),
                doc.getJSONArray("warnings").toList());
        JSONObject detail = doc.getJSONArray("warningDetails").getJSONObject(0);
        assertEquals(List.of("names-nothing-yet", lock.toString(), 6, 5, "pattern \"not/yet.txt\" names nothing that exists yet"),
                List.of(detail.getString("kind"), detail.getString("file"), detail.getInt("line"), detail.getInt("column"),
                        detail.getString("text")), detail.toString());
    }

    @Test
    void listingWarningsGoToStderr() throws Exception {
        Files.writeString(lock, "version: 1\nprotect:\n  - \"*.pem\"\n");
        ProcessResult r = run("check", "--policy", lock.toString());
        assertEquals(0, r.code());
        assertEquals(List.of(p("agent.lock")), r.out().lines().toList());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().startsWith("ralon: warning: agent.lock:3:5: pattern \"*.pem\"") && r.err().contains("**/*.pem"),
                r.err());
    }

    @Test
    void badPolicyIsOneLineWithLocation() throws Exception {
        Files.writeString(lock, "version: 1\nprotect:\n  - ok\n  - /abs\n");
        assertError(run("check", "--policy", lock.toString(), p(".env")), lock + ":4:5: ");
        assertError(run("status", "--policy", lock.toString()), lock + ":4:5: ");
        Files.writeString(lock, "version: 1\nprotected: [a]\n");
        assertError(run("check", "--policy", lock.toString()), ":2:1: ", "did you mean \"protect\"");
        assertError(run("check", "--policy", tmp.resolve("missing/agent.lock").toString(), "x"), "agent.lock", "no such file");
    }

    // ---- status ----

    @Test
    void statusText() {
        ProcessResult r = run("status", "--policy", lock.toString());
        assertEquals(0, r.code(), r.toString());
        String o = r.out();
        assertTrue(o.startsWith("policy: " + lock + "\n"), o);
        assertTrue(o.contains("protected paths now: 5 "), o);
        assertTrue(o.contains("LINE") && o.contains("MATCHES") && o.contains("PATTERN"), o);
        assertTrue(o.matches("(?s).*\\n  -\\s+1  agent\\.lock  \\(always protected\\)\\n.*"), o);
        assertTrue(o.matches("(?s).*\\n  4\\s+1  \\*\\*/\\*\\.pem\\n.*"), o);
        assertTrue(o.matches("(?s).*\\n  6\\s+0  not/yet\\.txt\\n.*"), o);
        assertTrue(o.contains("warning: agent.lock:6:5: pattern \"not/yet.txt\" names nothing that exists yet"), o);
        assertTrue(o.contains("\nbackends (`ralon run` would use "), o);
        assertTrue(o.matches("(?s).*\\n  noop\\s+yes  no guarantee \\(reports only\\)\\n.*"),
                "noop is always listed and available:\n" + o);
        assertTrue(o.matches("(?s).*\\nwritable outside the project: [^\\n]*/tmp/[^\\n]*\\n.*"), o);
        assertTrue(o.matches("(?s).*\\nbaseline: \\d+ paths that run code later [^\\n]*\\n.*"), o);
        assertTrue(o.endsWith("(`ralon status --verbose` shows every guarantee, writable area and baseline path)\n"), o);
        assertFalse(o.contains("boundary check"), "not inside ralon run");
        assertFalse(o.contains("(shell start-up or logout file"), "the baseline's paths are --verbose's:\n" + o);
        assertTrue(o.lines().count() <= 25, "a screen:\n" + o);
    }

    @Test
    void statusVerboseListsEverything() {
        ProcessResult r = run("status", "--verbose", "--policy", lock.toString());
        assertEquals(0, r.code(), r.toString());
        String o = r.out();
        assertTrue(o.startsWith("policy: " + lock + "\n"), o);
        assertTrue(o.contains("backends:") && o.contains("NAME") && o.contains("AVAILABLE"), o);
        assertTrue(o.matches("(?s).*\\n  noop\\s+yes .*"), "noop is always listed and available:\n" + o);
        assertTrue(o.contains("`ralon run` would use: "), o);
        assertTrue(o.contains("  writable: /tmp/ (temporary files)"), o);
        assertTrue(o.contains("baseline: protected by `ralon run` besides the policy"), o);
        assertTrue(System.getenv("HOME") == null || o.contains("(shell start-up or logout file: runs in every later shell)"),
                o);
    }

    @Test
    void statusJson() {
        ProcessResult r = run("status", "--json", "--policy", lock.toString());
        assertEquals(0, r.code(), r.toString());
        JSONObject doc = new JSONObject(r.out());
        assertEquals(java.util.Set.of("format", "policy", "policies", "policyReplacedDiscovery", "root", "version", "patterns",
                "protectedPaths", "expandedAtStart", "warnings", "warningDetails", "backends", "runWouldUse", "startupArchive", "enforcedBy", "baseline", "pluginDirectory",
                "session", "writable"),
                doc.keySet());
        assertEquals(1, doc.getInt("version"));
        assertEquals(5, doc.getInt("protectedPaths"));
        JSONArray pats = doc.getJSONArray("patterns");
        assertEquals(5, pats.length());
        assertTrue(pats.getJSONObject(0).getBoolean("implicit"));
        assertEquals(0, pats.getJSONObject(0).getInt("line"));
        assertEquals(1, pats.getJSONObject(0).getInt("matches"));
        assertEquals("**/*.pem", pats.getJSONObject(2).getString("pattern"));
        assertEquals(4, pats.getJSONObject(2).getInt("line"));
        assertEquals(1, pats.getJSONObject(2).getInt("matches"));
        assertEquals(0, pats.getJSONObject(4).getInt("matches"));
        assertEquals(1, doc.getJSONArray("warnings").length(), doc.getJSONArray("warnings").toString());
        JSONArray backends = doc.getJSONArray("backends");
        boolean noop = false;
        for (int i = 0; i < backends.length(); i++) {
            JSONObject b = backends.getJSONObject(i);
            assertEquals(java.util.Set.of("name", "rank", "available", "detail", "fix", "description", "guarantees",
                    "notGuaranteed", "from"), b.keySet());
            if (b.getString("name").equals("noop")) {
                noop = true;
                assertTrue(b.getBoolean("available"));
                assertEquals(0, b.getInt("rank"));
            }
        }
        assertTrue(noop, "noop backend listed");
        assertTrue(doc.isNull("enforcedBy"));
        if (!doc.isNull("runWouldUse")) {
            assertFalse(doc.getString("runWouldUse").equals("noop"), "noop is never chosen by itself");
        }
    }

    @Test
    void policyOptionNamesTheFileExactly() throws Exception {
        Path other = Files.writeString(root.resolve("other.lock"), "version: 1\nprotect: [src/app.ts]\n");
        ProcessResult r = run("check", "--policy", other.toString(), p("src/app.ts"), p("other.lock"), p("agent.lock"));
        assertEquals(1, r.code());
        assertEquals(List.of(p("src/app.ts"), p("other.lock")), r.out().lines().toList(),
                "the named policy, and it protects itself (agent.lock is just a file here)");
    }
}
