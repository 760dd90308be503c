package dev.ralon.cli;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;

import org.json.JSONObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code ralon hook} through the real executable (launcher + jar) with the three agents' real payload shapes: Claude
 * Code's PreToolUse, Codex's PreToolUse for {@code apply_patch}, Gemini CLI's BeforeTool; the policy found from each
 * target, not from {@code cwd}; large payloads; and a Java that is missing or broken on purpose, which must make every
 * hook answer "deny" in its agent's convention (exit 2 with the reason on stderr).
 */
class HookE2ETest {
    @TempDir
    Path tmp;

    Path ralon;
    Path mono;
    Path app;

    @BeforeEach
    void setUp() throws Exception {
        String exe = System.getProperty("ralon.executable");
        if (exe == null) {
            fail("system property ralon.executable is not set: run through Maven (mvn verify)");
        }
        ralon = Path.of(exe);
        tmp = tmp.toRealPath();
        mono = tmp.resolve("mono");
        app = mono.resolve("app");
        Files.createDirectories(app.resolve(".github/workflows"));
        Files.createDirectories(app.resolve("src"));
        Files.writeString(app.resolve("agent.lock"), "version: 1\nprotect:\n  - .env\n  - .github/workflows/\n");
        Files.writeString(app.resolve(".env"), "SECRET=1\n");
        Files.writeString(app.resolve(".github/workflows/ci.yml"), "on: push\n");
        Files.writeString(app.resolve("src/main.txt"), "main\n");
    }

    ProcessResult hook(String format, String stdin, Map<String, String> env) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ralon.toString(), "hook"));
        if (format != null) {
            cmd.add(format);
        }
        return exec(cmd, stdin.getBytes(StandardCharsets.UTF_8), env);
    }

    ProcessResult hook(String format, String stdin) throws Exception {
        return hook(format, stdin, Map.of());
    }

    ProcessResult exec(List<String> cmd, byte[] stdin, Map<String, String> env) throws Exception {
        return TestProcess.of(cmd).in(tmp).env(env).stdin(stdin).timeout(120).run();
    }

    static String claude(Path cwd, String tool, String toolInput) {
        return "{\"session_id\":\"s1\",\"transcript_path\":\"/tmp/t.jsonl\",\"cwd\":" + JSONObject.quote(cwd.toString())
                + ",\"permission_mode\":\"default\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"" + tool
                + "\",\"tool_input\":" + toolInput + ",\"tool_use_id\":\"toolu_01\"}";
    }

    /** Codex 0.171's PreToolUse input for apply_patch: Claude Code's shape plus turn_id and model; the patch in command. */
    static String codex(Path cwd, String patch) {
        return "{\"session_id\":\"0199\",\"turn_id\":\"t1\",\"transcript_path\":null,\"cwd\":" + JSONObject.quote(cwd.toString())
                + ",\"hook_event_name\":\"PreToolUse\",\"model\":\"gpt-5\",\"permission_mode\":\"bypassPermissions\","
                + "\"tool_name\":\"apply_patch\",\"tool_input\":{\"command\":" + JSONObject.quote(patch)
                + "},\"tool_use_id\":\"call_1\"}";
    }

    /** Gemini CLI 0.61's BeforeTool input. */
    static String gemini(Path cwd, String tool, String toolInput) {
        return "{\"session_id\":\"g1\",\"transcript_path\":\"\",\"cwd\":" + JSONObject.quote(cwd.toString())
                + ",\"hook_event_name\":\"BeforeTool\",\"timestamp\":\"2026-11-30T10:00:00.000Z\",\"tool_name\":\"" + tool
                + "\",\"tool_input\":" + toolInput + "}";
    }

    static String write(Path file) {
        return "{\"file_path\":" + JSONObject.quote(file.toString()) + ",\"content\":\"pwned\"}";
    }

    /** The reason of a PreToolUse refusal (Claude Code, Codex): JSON on stdout, exit 0, nothing on stderr. */
    static String deniedPreToolUse(ProcessResult r) {
        assertEquals(0, r.code(), r.toString());
        JSONObject specific = new JSONObject(r.out()).getJSONObject("hookSpecificOutput");
        assertEquals("PreToolUse", specific.getString("hookEventName"), r.toString());
        assertEquals("deny", specific.getString("permissionDecision"), r.toString());
        assertEquals(3, specific.length(), "Codex treats an unknown field as a failed hook: " + r);
        assertEquals(1, new JSONObject(r.out()).length(), r.toString());
        assertEquals("", r.err());
        return specific.getString("permissionDecisionReason");
    }

    /** The reason of a BeforeTool refusal (Gemini CLI): {"decision":"deny","reason":…} on stdout, exit 0. */
    static String deniedBeforeTool(ProcessResult r) {
        assertEquals(0, r.code(), r.toString());
        JSONObject doc = new JSONObject(r.out());
        assertEquals("deny", doc.getString("decision"), r.toString());
        assertEquals("", r.err());
        return doc.getString("reason");
    }

    static void allowed(ProcessResult r) {
        assertEquals(0, r.code(), r.toString());
        assertEquals("", r.out(), r.toString());
        assertEquals("", r.err(), r.toString());
    }

    /** A refusal by exit status: 2, nothing on stdout, a last stderr line starting "ralon: ". Returns that line. */
    static String deniedByExit2(ProcessResult r) {
        assertEquals(2, r.code(), r.toString());
        assertEquals("", r.out(), r.toString());
        List<String> lines = r.err().lines().toList();
        assertFalse(lines.isEmpty(), r.toString());
        String last = lines.get(lines.size() - 1);
        assertTrue(last.startsWith("ralon: "), r.toString());
        return last;
    }

    // ---- the policy is found from each target ----

    @Test
    void aWriteToAppEnvFromACwdAboveTheProjectIsDenied() throws Exception {
        String reason = deniedPreToolUse(hook("claude-code", claude(mono, "Write", "{\"file_path\":\"app/.env\",\"content\":\"x\"}")));
        // the path and the policy file as the agent stands (mono/), not relative to app/agent.lock
        assertTrue(reason.startsWith("agent.lock: app/.env is protected by \".env\" (app/agent.lock:3)."), reason);
        deniedPreToolUse(hook("claude-code", claude(tmp, "Edit", "{\"file_path\":" + JSONObject.quote(app.resolve(".github/workflows/ci.yml").toString())
                + ",\"old_string\":\"push\",\"new_string\":\"pull_request_target\"}")));
        allowed(hook("claude-code", claude(mono, "Write", "{\"file_path\":\"app/src/main.txt\",\"content\":\"x\"}")));
    }

    @Test
    void aCwdInAnotherProjectWithItsOwnPolicyDoesNotDecideForTheTarget() throws Exception {
        Path other = Files.createDirectories(tmp.resolve("other"));
        Files.writeString(other.resolve("agent.lock"), "version: 1\nprotect:\n  - secrets/\n");
        deniedPreToolUse(hook("claude-code", claude(other, "Write", "{\"file_path\":\"../mono/app/.env\",\"content\":\"x\"}")));
        allowed(hook("claude-code", claude(other, "Write", "{\"file_path\":\"../mono/app/src/new.txt\",\"content\":\"x\"}")));
        // and the other project's own policy still holds for its own files, from a cwd in the first one
        deniedPreToolUse(hook("claude-code", claude(app, "Write", write(other.resolve("secrets/key")))));
    }

    @Test
    void aTargetOutsideAnyPolicyIsAllowed() throws Exception {
        Path outside = Files.createDirectories(tmp.resolve("scratch"));
        allowed(hook("claude-code", claude(app, "Write", write(outside.resolve(".env")))));
    }

    @Test
    void aTargetReachedThroughALinkIsJudgedByThePolicyWhereTheLinkLeads() throws Exception {
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(elsewhere.resolve("proj"), app);
        deniedPreToolUse(hook("claude-code", claude(elsewhere, "Write", "{\"file_path\":\"proj/.env\",\"content\":\"x\"}")));
        allowed(hook("claude-code", claude(elsewhere, "Write", "{\"file_path\":\"proj/src/x.txt\",\"content\":\"x\"}")));
    }

    @Test
    void dotDotAfterALinkIsJudgedWhereTheKernelResolvesIt() throws Exception {
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(elsewhere.resolve("src-link"), app.resolve("src"));
        // lexically elsewhere/.env (no policy); for the kernel app/src/.. is app, so app/.env
        deniedPreToolUse(hook("claude-code", claude(elsewhere, "Write", "{\"file_path\":\"src-link/../.env\",\"content\":\"x\"}")));
        deniedPreToolUse(hook("codex", codex(elsewhere, "*** Begin Patch\n*** Delete File: src-link/../.env\n*** End Patch\n")));
        allowed(hook("claude-code", claude(elsewhere, "Write", "{\"file_path\":\"src-link/../src/y.txt\",\"content\":\"x\"}")));
    }

    // ---- Codex ----

    @Test
    void codexApplyPatchIsDeniedForEveryProtectedPathItNames() throws Exception {
        String add = "*** Begin Patch\n*** Add File: .github/workflows/evil.yml\n+on: push\n*** End Patch\n";
        String update = "*** Begin Patch\n*** Update File: .env\n@@\n-SECRET=1\n+SECRET=2\n*** End Patch\n";
        String delete = "*** Begin Patch\n*** Delete File: .env\n*** End Patch\n";
        String moveFrom = "*** Begin Patch\n*** Update File: .env\n*** Move to: src/env.txt\n@@\n SECRET=1\n*** End Patch\n";
        String moveTo = "*** Begin Patch\n*** Update File: src/main.txt\n*** Move to: .env\n@@\n-main\n+x\n*** End Patch\n";
        String second = "*** Begin Patch\n*** Add File: src/ok.txt\n+fine\n*** Update File: " + app.resolve(".env")
                + "\n@@\n-SECRET=1\n+x\n*** End Patch";
        for (String patch : List.of(add, update, delete, moveFrom, moveTo, second)) {
            String reason = deniedPreToolUse(hook("codex", codex(app, patch)));
            assertTrue(reason.contains(" is protected by "), reason);
        }
        assertTrue(deniedPreToolUse(hook("codex", codex(app, moveTo))).startsWith("agent.lock: .env is protected"));
        // from a cwd above the project
        deniedPreToolUse(hook("codex", codex(mono, "*** Begin Patch\n*** Delete File: app/.env\n*** End Patch\n")));
    }

    @Test
    void codexApplyPatchOfUnprotectedFilesIsAllowed() throws Exception {
        String patch = "*** Begin Patch\n*** Add File: src/new.txt\n+*** Add File: .env (content, not a header)\n"
                + "*** Update File: src/main.txt\n*** Move to: src/renamed.txt\n@@\n-main\n+main2\n*** End Patch\n";
        allowed(hook("codex", codex(app, patch)));
    }

    @Test
    void codexApplyPatchWhoseFilesCannotBeToldIsDenied() throws Exception {
        String noPatch = codex(app, "just text");
        assertTrue(deniedPreToolUse(hook("codex", noPatch)).contains("cannot tell which files"));
        String noInput = "{\"cwd\":" + JSONObject.quote(app.toString()) + ",\"hook_event_name\":\"PreToolUse\","
                + "\"tool_name\":\"apply_patch\",\"tool_input\":{}}";
        deniedPreToolUse(hook("codex", noInput));
    }

    @Test
    void aPatchGivenToTheShellToolIsCheckedToo() throws Exception {
        String bash = "{\"cwd\":" + JSONObject.quote(app.toString()) + ",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":" + JSONObject.quote("apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: .env\n*** End Patch\nEOF\n")
                + "}}";
        deniedPreToolUse(hook("codex", bash));
        String plain = "{\"cwd\":" + JSONObject.quote(app.toString()) + ",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"rm .env\"}}";
        allowed(hook("codex", plain)); // shell commands are the kernel boundary's
    }

    // ---- Gemini CLI ----

    @Test
    void geminiWriteFileAndReplaceOfProtectedFilesAreDenied() throws Exception {
        String reason = deniedBeforeTool(hook("gemini", gemini(app, "write_file", "{\"file_path\":\".env\",\"content\":\"x\"}")));
        assertTrue(reason.startsWith("agent.lock: .env is protected"), reason);
        deniedBeforeTool(hook("gemini", gemini(mono, "replace", "{\"file_path\":" + JSONObject.quote(app.resolve(".github/workflows/ci.yml").toString())
                + ",\"instruction\":\"x\",\"old_string\":\"push\",\"new_string\":\"pull\",\"allow_multiple\":false}")));
    }

    @Test
    void geminiWritesOfUnprotectedFilesAreAllowed() throws Exception {
        allowed(hook("gemini", gemini(app, "write_file", "{\"file_path\":\"src/new.txt\",\"content\":\"x\"}")));
        allowed(hook("gemini", gemini(app, "replace", "{\"file_path\":\"src/main.txt\",\"old_string\":\"main\",\"new_string\":\"x\"}")));
        allowed(hook("gemini", gemini(app, "run_shell_command", "{\"command\":\"echo x > .env\"}")));
    }

    @Test
    void aHookConfiguredUnderAnotherAgentsNameStillRefusesInTheCallersConvention() throws Exception {
        // `gemini hooks migrate --from-claude` keeps the command `ralon hook claude-code` and sends BeforeTool payloads
        deniedBeforeTool(hook("claude-code", gemini(app, "write_file", "{\"file_path\":\".env\",\"content\":\"x\"}")));
        deniedPreToolUse(hook("gemini", codex(app, "*** Begin Patch\n*** Delete File: .env\n*** End Patch\n")));
        deniedPreToolUse(hook(null, claude(app, "Write", write(app.resolve(".env")))));
    }

    @Test
    void aWriteToolThatNamesNoFileIsDenied() throws Exception {
        deniedBeforeTool(hook("gemini", gemini(app, "write_file", "{\"content\":\"x\"}")));
        deniedPreToolUse(hook("claude-code", claude(app, "Write", "{\"file_path\":\"\",\"content\":\"x\"}")));
    }

    // ---- input ----

    @Test
    void aLargeWriteOfAnUnprotectedFileIsNeverRefusedForItsSizeAndIsNotHeldInMemory() throws Exception {
        int size = 48 << 20; // 48 MiB of content, with a 32 MiB heap: the content must stream by
        StringBuilder content = new StringBuilder(size);
        for (int i = 0; i < size / 16; i++) {
            content.append("0123456789\\n\\\"ab");
        }
        Map<String, String> smallHeap = Map.of("RALON_JAVA_OPTS", "-Xmx32m");
        String big = claude(app, "Write", "{\"file_path\":\"src/big.txt\",\"content\":\"" + content + "\"}");
        allowed(hook("claude-code", big, smallHeap));
        String bigProtected = claude(app, "Write", "{\"content\":\"" + content + "\",\"file_path\":\".env\"}");
        deniedPreToolUse(hook("claude-code", bigProtected, smallHeap));
        String bigPatch = "*** Begin Patch\n*** Add File: src/big.txt\n+" + "x".repeat(size / 2) + "\n*** Delete File: .env\n*** End Patch\n";
        deniedPreToolUse(hook("codex", codex(app, bigPatch), smallHeap));
    }

    @Test
    void unreadableInputIsRefusedByExitStatus() throws Exception {
        for (String bad : List.of("", "not json", "{\"tool_name\":\"Write\"", "[]", "{\"a\":1} {}",
                "{\"tool_name\":\"Write\",\"tool_name\":\"Bash\"}", "{\"a\":" + "[".repeat(5000) + "]".repeat(5000) + "}")) {
            assertTrue(deniedByExit2(hook("claude-code", bad)).startsWith("ralon: cannot read the hook input"), bad);
        }
        byte[] invalidUtf8 = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, '"', '}'};
        deniedByExit2(exec(List.of(ralon.toString(), "hook", "gemini"), invalidUtf8, Map.of()));
    }

    @Test
    void anUnknownFormatIsRefusedByExitStatus() throws Exception {
        assertTrue(deniedByExit2(hook("claude", claude(app, "Write", write(app.resolve("src/x")))))
                .contains("unknown hook format 'claude'"));
    }

    // ---- a broken Java fails closed ----

    /** Each way of breaking Java, as environment changes. */
    List<Map<String, String>> brokenJavas() throws Exception {
        Path exits1 = tmp.resolve("java-exits-1");
        Files.writeString(exits1, "#!/bin/sh\necho 'Error: Could not create the Java Virtual Machine.' >&2\nexit 1\n");
        Path silent = tmp.resolve("java-exits-0");
        Files.writeString(silent, "#!/bin/sh\nexit 0\n");
        Path killed = tmp.resolve("java-killed");
        Files.writeString(killed, "#!/bin/sh\nkill -9 $$\n");
        for (Path p : List.of(exits1, silent, killed)) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path noJdk = Files.createDirectories(tmp.resolve("not-a-jdk"));
        return List.of(
                Map.of("PATH", tmp.resolve("empty-bin").toString(), "JAVA_HOME", "", "RALON_JAVA", ""),
                Map.of("RALON_JAVA", "/nonexistent/java"),
                Map.of("RALON_JAVA", exits1.toString()),
                Map.of("RALON_JAVA", silent.toString()),
                Map.of("RALON_JAVA", killed.toString()),
                Map.of("RALON_JAVA", noJdk.toString()),
                Map.of("JAVA_HOME", noJdk.toString(), "RALON_JAVA", ""),
                Map.of("RALON_JAVA_OPTS", "-XX:+NoSuchOption"),
                // HotSpot writes "Error occurred during initialization of VM" to its stdout, where the agent reads JSON
                Map.of("RALON_JAVA_OPTS", "-Xmx1k"),
                // the java launcher prints its version on stdout and exits 0 without an answer
                Map.of("RALON_JAVA_OPTS", "--version"),
                // a "java" that writes JSON of its own on stdout and exits 1
                Map.of("RALON_JAVA", writesJson().toString()),
                // the answer channel moved by a -D the JVM reads after the launcher's: the answer would go to stderr
                // or /dev/null while the status said "answered" (an empty stdout reads as "allow")
                Map.of("_JAVA_OPTIONS", "-Dralon.launcher.hook=x"),
                Map.of("_JAVA_OPTIONS", "-Dralon.launcher.hook=/dev/null"));
    }

    Path writesJson() throws Exception {
        Path p = tmp.resolve("java-writes-json");
        Files.writeString(p, "#!/bin/sh\necho '{\"decision\":\"allow\"}'\nexit 1\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    // ---- nothing but the answer reaches stdout ----

    @Test
    void theJvmsOwnOutputNeverReachesStdoutBesideTheAnswer() throws Exception {
        // -Xlog to stdout: the JVM starts and answers, and writes its log lines where the agent reads the answer
        Map<String, String> logs = Map.of("RALON_JAVA_OPTS", "-Xlog:gc*,safepoint:stdout");
        String reason = deniedPreToolUse(hookKeepingStderr("claude-code", claude(app, "Write", write(app.resolve(".env"))), logs));
        assertTrue(reason.contains(".env is protected by"), reason);
        assertTrue(deniedPreToolUse(hookKeepingStderr("codex", codex(app, "*** Begin Patch\n*** Add File: .env\n+x\n*** End Patch\n"), logs))
                .contains(".env is protected by"));
        assertTrue(deniedBeforeTool(hookKeepingStderr("gemini", gemini(app, "write_file", write(app.resolve(".env"))), logs))
                .contains(".env is protected by"));
        ProcessResult allowed = hook("claude-code", claude(app, "Write", write(app.resolve("src/x.txt"))), logs);
        assertEquals(0, allowed.code(), allowed.toString());
        assertEquals("", allowed.out(), allowed.toString());
        assertTrue(allowed.err().contains("gc"), "the JVM's log goes to stderr: " + allowed);
    }

    /** {@link #hook}, for a deny whose stderr holds the JVM's log: stderr is checked by the caller, not here. */
    ProcessResult hookKeepingStderr(String format, String stdin, Map<String, String> env) throws Exception {
        ProcessResult r = hook(format, stdin, env);
        assertTrue(r.err().contains("gc"), "the JVM's log goes to stderr: " + r);
        return new ProcessResult(r.code(), r.out(), "", r.pid());
    }

    // ---- the payload's cwd must be where the agent works ----

    @Test
    void aRelativeOrMissingCwdIsRefused() throws Exception {
        // the hook runs in tmp, where "mono/app" exists: a relative cwd would be resolved there, not where the agent is
        for (String cwd : List.of("mono/app", tmp.resolve("nowhere").toString(), app.resolve("src/main.txt").toString())) {
            String target = "{\"file_path\":\"src/x.txt\",\"content\":\"x\"}";
            String claudeReason = deniedPreToolUse(hook("claude-code", claude(Path.of(cwd), "Write", target)));
            assertTrue(claudeReason.startsWith("ralon: the hook input's cwd (" + cwd + ") is "), claudeReason);
            assertTrue(claudeReason.contains("refusing it to stay safe"), claudeReason);
            assertTrue(deniedPreToolUse(hook("codex", codex(Path.of(cwd), "*** Begin Patch\n*** Add File: src/x.txt\n+x\n*** End Patch\n")))
                    .startsWith("ralon: the hook input's cwd ("));
            assertTrue(deniedBeforeTool(hook("gemini", gemini(Path.of(cwd), "write_file", target)))
                    .startsWith("ralon: the hook input's cwd ("));
        }
        // the same call from the agent's real directory is allowed
        allowed(hook("claude-code", claude(app, "Write", "{\"file_path\":\"src/x.txt\",\"content\":\"x\"}")));
    }

    @Test
    void aMissingOrBrokenJavaMakesEveryHookDeny() throws Exception {
        List<String> inputs = List.of(claude(app, "Write", write(app.resolve("src/x.txt"))),
                codex(app, "*** Begin Patch\n*** Add File: src/x.txt\n+x\n*** End Patch\n"),
                gemini(app, "write_file", "{\"file_path\":\"src/x.txt\",\"content\":\"x\"}"));
        List<String> formats = List.of("claude-code", "codex", "gemini");
        for (Map<String, String> env : brokenJavas()) {
            for (int i = 0; i < formats.size(); i++) {
                ProcessResult r = hook(formats.get(i), inputs.get(i), env);
                String line = deniedByExit2(r);
                assertTrue(line.contains("refusing the tool call to stay safe"), env + ": " + r);
            }
        }
    }

    @Test
    void outsideHookModeAMissingJavaIsOneLineWithExit2() throws Exception {
        ProcessResult none = exec(List.of(ralon.toString(), "status"), new byte[0],
                Map.of("PATH", tmp.resolve("empty-bin").toString(), "JAVA_HOME", "", "RALON_JAVA", ""));
        assertEquals(2, none.code(), none.toString());
        assertEquals("ralon: cannot run Java: no java on PATH; set JAVA_HOME to a JDK 17 or later, or RALON_JAVA to its bin/java\n",
                none.err());
        Path noJdk = Files.createDirectories(tmp.resolve("not-a-jdk"));
        ProcessResult home = exec(List.of(ralon.toString(), "check", "x"), new byte[0], Map.of("JAVA_HOME", noJdk.toString(), "RALON_JAVA", ""));
        assertEquals(2, home.code(), home.toString());
        assertEquals(1, home.err().lines().count(), home.toString());
        assertTrue(home.err().startsWith("ralon: cannot run Java: JAVA_HOME=" + noJdk + ": " + noJdk + "/bin/java does not exist;"),
                home.toString());
        ProcessResult notExe = exec(List.of(ralon.toString(), "check", "x"), new byte[0], Map.of("RALON_JAVA", noJdk.toString()));
        assertEquals(2, notExe.code(), notExe.toString());
        assertTrue(notExe.err().contains("is not an executable file; set JAVA_HOME to a JDK 17 or later, or RALON_JAVA"),
                notExe.toString());
    }
}
