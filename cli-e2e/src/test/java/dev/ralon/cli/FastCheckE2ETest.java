package dev.ralon.cli;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code ralon check PATH...}, {@code ralon hook FORMAT}, {@code ralon status [--json]} and
 * {@code ralon run [--backend NAME] -- CMD} skip picocli (FastParser). Differential, through the real executable: every
 * case gives the same exit code, stdout and stderr as a form picocli parses ({@code check -- PATH...},
 * {@code hook -- FORMAT}, {@code status [--json] --}, {@code run --backend=NAME -- CMD}); and the fast forms really load
 * no picocli class.
 */
class FastCheckE2ETest {
    @TempDir
    Path dir;

    ProcessResult ralon(Path cwd, Map<String, String> env, List<String> args) throws Exception {
        return ralon(cwd, env, args, null);
    }

    /** Runs ralon with {@code stdin} (a file) as its standard input, or an empty one when null. */
    ProcessResult ralon(Path cwd, Map<String, String> env, List<String> args, Path stdin) throws Exception {
        String exe = System.getProperty("ralon.executable");
        if (exe == null) {
            fail("system property ralon.executable is not set: run through Maven (mvn verify)");
        }
        List<String> cmd = new ArrayList<>(List.of(exe));
        cmd.addAll(args);
        TestProcess p = TestProcess.of(cmd).in(cwd).env(env);
        return (stdin == null ? p.stdin("") : p.stdinFrom(stdin)).run();
    }

    void same(Path cwd, String... paths) throws Exception {
        List<String> fast = new ArrayList<>(List.of("check"));
        fast.addAll(List.of(paths));
        List<String> slow = new ArrayList<>(List.of("check", "--"));
        slow.addAll(List.of(paths));
        ProcessResult f = ralon(cwd, Map.of(), fast);
        ProcessResult s = ralon(cwd, Map.of(), slow);
        assertEquals(s.answer(), f.answer(), "fast and picocli paths differ for " + List.of(paths));
    }

    @Test
    void sameAnswersAsThePicocliPath() throws Exception {
        Path project = Files.createDirectories(dir.resolve("project"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - \"**/*.json\"\n  - secrets/\n  - pom.xml\n");
        Files.createDirectories(project.resolve("src/secrets"));
        Files.createDirectories(project.resolve("secrets"));
        Files.writeString(project.resolve("pom.xml"), "x");
        Files.createSymbolicLink(project.resolve("link"), project.resolve("pom.xml"));
        Path sub = project.resolve("src");
        same(project, "pom.xml");
        same(project, "src/a.java");
        same(project, "pom.xml", "src/a.java", "a/b/c.json", "secrets/k", "src/secrets/k", "agent.lock", "link", "help");
        same(project, "../project/pom.xml", project.resolve("x.json").toString(), "/etc/passwd");
        same(project); // the listing: `check` against `check --`
        Files.writeString(project.resolve("a.json"), "{}");
        Files.createSymbolicLink(project.resolve("out.json"), Path.of("/etc/hostname"));
        same(project); // with a warning (a protected link leading outside)
        same(sub);
        same(sub, "../pom.xml", "a.json");
        Path none = Files.createDirectories(dir.resolve("no-policy-here"));
        if (!Files.exists(dir.getRoot().resolve("agent.lock")) && !Files.exists(dir.getParent().resolve("agent.lock"))) {
            ProcessResult r = ralon(none, Map.of(), List.of("check", "x"));
            assertEquals(2, r.code(), r.err());
            same(none, "x");
        }
        Path bad = Files.createDirectories(dir.resolve("bad"));
        Files.writeString(bad.resolve("agent.lock"), "version: 2\n");
        same(bad, "x");
        same(bad);
        Files.writeString(bad.resolve("agent.lock"), "version: 1\nprotect: [\"[z-a]\"]\n");
        same(bad, "x");
        same(bad);
        // the link leading outside goes before @TempDir's cleanup, which would print a warning on meeting it
        Files.delete(project.resolve("out.json"));
    }

    @Test
    void statusSameAnswersAsThePicocliPath() throws Exception {
        Path project = Files.createDirectories(dir.resolve("s"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - \"**/*.json\"\n  - secrets/\n"
                + "  - pom.xml\n  - missing.txt\n  - docs\n");
        Files.createDirectories(project.resolve("secrets"));
        Files.createDirectories(project.resolve("src/docs"));
        Files.writeString(project.resolve("pom.xml"), "x");
        Files.writeString(project.resolve("src/a.json"), "{}");
        Files.createSymbolicLink(project.resolve("out.json"), Path.of("/etc/hostname")); // a warning
        Path none = Files.createDirectories(dir.resolve("no-policy-here"));
        Path bad = Files.createDirectories(dir.resolve("bad-status"));
        Files.writeString(bad.resolve("agent.lock"), "version: 1\nprotect: [\"[z-a]\", 3]\n");
        List<Path> dirs = new ArrayList<>(List.of(project, project.resolve("src"), bad));
        if (!Files.exists(dir.getRoot().resolve("agent.lock")) && !Files.exists(dir.getParent().resolve("agent.lock"))) {
            dirs.add(none);
        }
        for (Path cwd : dirs) {
            for (List<String> fast : List.of(List.of("status"), List.of("status", "--json"))) {
                List<String> slow = new ArrayList<>(fast);
                slow.add("--");
                ProcessResult f = ralon(cwd, Map.of(), fast);
                ProcessResult s = ralon(cwd, Map.of(), slow);
                assertEquals(s.answer(), f.answer(), "fast and picocli paths differ for " + fast + " in " + cwd);
                assertEquals(cwd.startsWith(project) ? 0 : 2, f.code(), f.err());
            }
        }
        // inside an enforced process, status also probes the boundary: the same there
        ProcessResult f = ralon(project, Map.of(), List.of("run", "--backend", "noop", "--", "sh", "-c",
                "\"$0\" status; \"$0\" status --json", System.getProperty("ralon.executable")));
        ProcessResult s = ralon(project, Map.of(), List.of("run", "--backend", "noop", "--", "sh", "-c",
                "\"$0\" status --; \"$0\" status --json --", System.getProperty("ralon.executable")));
        assertEquals(s.answer(), f.answer(), "inside a run");
        assertTrue(f.out().contains("boundary check:"), f.out());
        Files.delete(project.resolve("out.json")); // before @TempDir's cleanup, which would warn about it
    }

    @Test
    void runSameAnswersAsThePicocliPath() throws Exception {
        Path project = Files.createDirectories(dir.resolve("r"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n  - missing.txt\n");
        Files.writeString(project.resolve("pom.xml"), "x");
        for (List<String> cmd : List.of(
                List.of("sh", "-c", "echo out; echo err >&2; exit 3"),
                List.of("sh", "-c", "echo changed > pom.xml"),
                List.of("no-such-command-anywhere"),
                List.of("--help"),
                List.of("-x", "@y"))) {
            for (String backend : List.of("noop", "landlock", "mount", "no-such-backend")) {
                List<String> fast = new ArrayList<>(List.of("run", "--backend", backend, "--"));
                fast.addAll(cmd);
                List<String> slow = new ArrayList<>(List.of("run", "--backend=" + backend, "--"));
                slow.addAll(cmd);
                ProcessResult f = ralon(project, Map.of(), fast);
                Files.writeString(project.resolve("pom.xml"), "x");
                ProcessResult s = ralon(project, Map.of(), slow);
                Files.writeString(project.resolve("pom.xml"), "x");
                assertEquals(s.answer(), f.answer(), "fast and picocli paths differ for " + fast);
            }
            List<String> fast = new ArrayList<>(List.of("run", "--"));
            fast.addAll(cmd);
            List<String> slow = new ArrayList<>(List.of("run", "--allow-degraded", "--"));
            slow.addAll(cmd);
            Files.delete(project.resolve("agent.lock"));
            assertEquals(ralon(project, Map.of(), slow).answer(), ralon(project, Map.of(), fast).answer(), "no policy: " + fast);
            Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n  - missing.txt\n");
        }
    }

    @Test
    void fastFormLoadsNoPicocliClassAndTheOtherFormsDo() throws Exception {
        Path project = Files.createDirectories(dir.resolve("p"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n");
        // RALON_CDS=0: what the code path loads, not what a start-up archive preloads (JDK 25's AOT cache loads and
        // links its classes at start, and with them two picocli exception classes it cannot store: CdsE2ETest)
        Map<String, String> env = Map.of("RALON_JAVA_OPTS", "-Xlog:class+load=info:stdout", "RALON_CDS", "0");
        ProcessResult fast = ralon(project, env, List.of("check", "pom.xml"));
        assertEquals(1, fast.code(), fast.err());
        assertTrue(fast.out().contains("dev.ralon.cli.FastParser"), "no class-load log: " + fast.err());
        assertFalse(fast.out().contains(" picocli."), "the fast form loaded picocli");
        ProcessResult list = ralon(project, env, List.of("check"));
        assertEquals(0, list.code(), list.err());
        assertFalse(list.out().contains(" picocli."), "the fast listing loaded picocli");
        ProcessResult run = ralon(project, env, List.of("run", "--backend", "noop", "--", "true"));
        assertEquals(0, run.code(), run.err());
        assertFalse(run.out().contains(" picocli."), "the fast run form loaded picocli");
        ProcessResult status = ralon(project, env, List.of("status"));
        assertEquals(0, status.code(), status.err());
        assertFalse(status.out().contains(" picocli."), "the fast status form loaded picocli");
        assertTrue(status.out().contains("dev.ralon.cli.Status "), "no class-load log: " + status.err());
        ProcessResult hook = ralon(project, env, List.of("hook", "claude-code"));
        assertFalse(hook.out().contains("Getdents64Reader"), "the hook, which never walks, loaded the walk's reader");
        ProcessResult slow = ralon(project, env, List.of("check", "--explain", "pom.xml"));
        assertEquals(1, slow.code(), slow.err());
        assertTrue(slow.out().contains(" picocli.CommandLine "), "an option must go through picocli");
    }

    /** A Claude Code PreToolUse payload for {@code tool} with {@code input} (JSON members of tool_input). */
    static String payload(String cwd, String tool, String input) {
        return "{\"session_id\":\"3f2a9c1e\",\"transcript_path\":\"/tmp/t.jsonl\",\"cwd\":" + quote(cwd)
                + ",\"permission_mode\":\"default\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"" + tool
                + "\",\"tool_input\":{" + input + "}}";
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    @Test
    void hookSameAnswersAsThePicocliPath() throws Exception {
        Path project = Files.createDirectories(dir.resolve("h"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - \"**/*.json\"\n  - secrets/\n");
        Files.createDirectories(project.resolve("src"));
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        String p = project.toString();
        String big = "x".repeat(4 << 20); // a 4 MiB Write: streamed, never held
        List<String> payloads = List.of(
                payload(p, "Write", "\"file_path\":" + quote(p + "/src/index.ts") + ",\"content\":\"ok\""),
                payload(p, "Write", "\"file_path\":" + quote(p + "/package.json") + ",\"content\":\"{}\""),
                payload(p, "Write", "\"file_path\":\"src/a.json\",\"content\":\"{}\""),
                payload(elsewhere.toString(), "Write", "\"file_path\":" + quote(p + "/secrets/k") + ",\"content\":\"k\""),
                payload(elsewhere.toString(), "Edit", "\"file_path\":\"../h/x.json\",\"old_string\":\"a\",\"new_string\":\"b\""),
                payload(p, "Edit", "\"file_path\":\"src/a.ts\",\"old_string\":\"a\",\"new_string\":\"b\""),
                payload(p, "MultiEdit", "\"file_path\":" + quote(p + "/c.json")
                        + ",\"edits\":[{\"old_string\":\"a\",\"new_string\":\"b\"},{\"old_string\":\"c\",\"new_string\":\"d\"}]"),
                payload(p, "NotebookEdit", "\"notebook_path\":\"src/n.ipynb\",\"new_source\":\"print(1)\",\"cell_id\":\"c1\""),
                payload(p, "NotebookEdit", "\"notebook_path\":\"secrets/n.ipynb\",\"new_source\":\"x\""),
                payload(p, "Write", "\"content\":\"no path\""),
                payload(p, "Bash", "\"command\":\"echo > secrets/k\""),
                payload(p, "Write", "\"file_path\":" + quote(p + "/src/big.ts") + ",\"content\":\"" + big + "\""),
                payload(p, "Write", "\"file_path\":" + quote(p + "/big.json") + ",\"content\":\"" + big + "\""),
                "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",", // malformed: cut short
                "not json at all",
                "",
                "{\"a\":1} {\"b\":2}");
        int denied = 0;
        for (String body : payloads) {
            Path in = Files.writeString(Files.createTempFile(dir, "payload", ".json"), body);
            ProcessResult fast = ralon(elsewhere, Map.of(), List.of("hook", "claude-code"), in);
            ProcessResult slow = ralon(elsewhere, Map.of(), List.of("hook", "--", "claude-code"), in);
            String shown = body.length() > 200 ? body.substring(0, 200) + "..." : body;
            assertEquals(slow.answer(), fast.answer(), "fast and picocli hooks differ for " + shown);
            denied += fast.out().contains("\"permissionDecision\": \"deny\"") || fast.code() == 2 ? 1 : 0;
        }
        // the answers themselves (so that two equally broken paths cannot pass): 7 refusals by policy, 5 by input
        assertEquals(12, denied, "refusals");
    }

    @Test
    void hookLoadsNoPicocliClass() throws Exception {
        Path project = Files.createDirectories(dir.resolve("hp"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n");
        Path in = Files.writeString(dir.resolve("hook.json"),
                payload(project.toString(), "Write", "\"file_path\":\"pom.xml\",\"content\":\"x\""));
        ProcessResult r = ralon(project, Map.of("RALON_JAVA_OPTS", "-Xlog:class+load=info:stderr", "RALON_CDS", "0"),
                List.of("hook", "claude-code"), in); // RALON_CDS=0: see fastFormLoadsNoPicocliClassAndTheOtherFormsDo
        assertTrue(r.out().contains("\"permissionDecision\": \"deny\""), r.out());
        assertTrue(r.err().contains("dev.ralon.cli.HookRequest"), "no class-load log: " + r.err().lines().limit(5).toList());
        assertFalse(r.err().contains(" picocli."), "the hook loaded picocli");
        // the hook's JSON reader is its own (HookPayload): any org.json class it loads, reading the policy loads too
        ProcessResult check = ralon(project, Map.of("RALON_JAVA_OPTS", "-Xlog:class+load=info:stderr"), List.of("check", "pom.xml"));
        java.util.Set<String> byPolicy = orgJson(check.err());
        assertTrue(byPolicy.containsAll(orgJson(r.err())), "the hook loaded org.json classes of its own: " + orgJson(r.err()));
    }

    private static java.util.Set<String> orgJson(String classLoadLog) {
        return classLoadLog.lines().filter(l -> l.contains(" org.json.")).map(l -> l.replaceAll(".* (org\\.json\\.\\S+).*", "$1"))
                .collect(java.util.stream.Collectors.toSet());
    }
}
