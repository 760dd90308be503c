package dev.ralon.cli;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;

import org.json.JSONObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The three real agent CLIs, installed from npm by the opt-in Maven profile {@code agents-e2e} (cli/pom.xml; versions
 * in docs/integrations.md), each configured with {@code ralon hook} as its documented pre-write hook and driven
 * offline by a {@link ModelStandIn} on the loopback interface that scripts its tool calls: protected writes (a file
 * in a protected directory, a new file in a protected directory, a patch that moves a protected file away) and
 * unprotected ones (a new file, an edit). Checked from outside after the agent exits: the protected files are
 * unchanged, nothing appeared in protected directories, the unprotected edits landed, and the hook's refusal reached
 * the model as the tool's result. Each agent runs with the hook alone and under {@code ralon run} with each backend.
 * And with Java broken on purpose, each agent's hook refuses every write.
 *
 * <p>What is not exercised: a signed-in session against the real model APIs (the stand-in replaces them), Codex's
 * persisted hook trust (the run passes {@code --dangerously-bypass-hook-trust}; the trust step is documented), and
 * Gemini CLI's folder trust (the run sets {@code GEMINI_CLI_TRUST_WORKSPACE=true}).
 */
class RealAgentsIT {
    enum Mode {
        HOOK_ONLY, MOUNT, LANDLOCK
    }

    @TempDir
    Path tmp;

    Path ralon;
    Path bin;
    Path created;

    @org.junit.jupiter.api.AfterEach
    void removeOutside() throws Exception {
        if (created != null && !created.startsWith(Path.of("/tmp"))) {
            TestProcess.of("rm", "-rf", "--one-file-system", created.toString()).run();
        }
    }
    Path project;
    Path home;

    @BeforeEach
    void setUp() throws Exception {
        String exe = System.getProperty("ralon.executable");
        String prefix = System.getProperty("agents.prefix");
        if (exe == null || prefix == null) {
            fail("system properties ralon.executable and agents.prefix are not set: run mvn -P agents-e2e verify");
        }
        ralon = Path.of(exe).toAbsolutePath();
        bin = Path.of(prefix).toAbsolutePath().resolve("node_modules/.bin");
        // HOME and the project outside every temporary directory, as a real user's are: the session's writes there are
        // confined to the agents' state (/var/lib, writable by root, where these tests run; else the JUnit directory)
        Path outside = Path.of(System.getProperty("agents.base", "/var/lib"));
        tmp = Files.isWritable(outside) ? Files.createTempDirectory(outside, "ralon-agents-") : tmp.toRealPath();
        created = tmp;
        project = Files.createDirectories(tmp.resolve("project"));
        home = Files.createDirectories(tmp.resolve("home"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - secret/\n  - .github/workflows/\n");
        Files.createDirectories(project.resolve("secret"));
        Files.createDirectories(project.resolve(".github/workflows"));
        Files.createDirectories(project.resolve("src"));
        Files.writeString(project.resolve("secret/key.txt"), "KEY\n");
        Files.writeString(project.resolve(".github/workflows/ci.yml"), "on: push\n");
        Files.writeString(project.resolve("src/main.txt"), "main\n");
    }

    ProcessResult run(Mode mode, List<String> agent, Map<String, String> env) throws Exception {
        List<String> cmd = new ArrayList<>();
        if (mode != Mode.HOOK_ONLY) {
            cmd.addAll(List.of(ralon.toString(), "run", "--backend", mode == Mode.MOUNT ? "mount" : "landlock", "--"));
        }
        cmd.addAll(agent);
        TestProcess p = TestProcess.of(cmd).in(project).timeout(300);
        System.getenv().keySet().stream().filter(k -> k.startsWith("ANTHROPIC_") || k.startsWith("OPENAI_")
                || k.startsWith("GEMINI_") || k.startsWith("GOOGLE_") || k.startsWith("CLAUDE")
                || k.startsWith("CODEX_")).forEach(p::without);
        return p.env("HOME", home.toString()).env("PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"))
                .env(env).run();
    }

    void assumeBackend(Mode mode) throws Exception {
        if (mode == Mode.HOOK_ONLY) {
            return;
        }
        String backend = mode == Mode.MOUNT ? "mount" : "landlock";
        ProcessResult dry = TestProcess.of(ralon.toString(), "run", "--dry-run", "--backend", backend, "--", "true")
                .in(project).mergeStderr().run();
        dev.ralon.testsupport.Requirements.require(dry.code() == 0, "backend " + backend + ": " + dry.out());
    }

    String hookCommand(String format) {
        return ralon + " hook " + format;
    }

    void assertProtectedUntouched() throws Exception {
        assertEquals("KEY\n", Files.readString(project.resolve("secret/key.txt")));
        assertEquals("on: push\n", Files.readString(project.resolve(".github/workflows/ci.yml")));
        assertFalse(Files.exists(project.resolve(".github/workflows/evil.yml")), "a file was created in a protected directory");
        assertFalse(Files.exists(project.resolve("src/stolen.txt")), "a protected file was moved away");
    }

    void assertUnprotectedEditsLanded(ProcessResult r) throws Exception {
        assertTrue(Files.exists(project.resolve("src/ok.txt")), "the unprotected new file is missing: " + r);
        assertTrue(Files.readString(project.resolve("src/ok.txt")).contains("fine"), r.toString());
        assertTrue(Files.readString(project.resolve("src/main.txt")).contains("edited"), "the unprotected edit is missing: " + r);
    }

    static void assertTheModelWasTold(ModelStandIn model, String what, ProcessResult r) {
        assertTrue(model.bodies().stream().anyMatch(b -> b.contains(what)),
                "no request to the model carried \"" + what + "\" (the tool's result): " + r);
    }

    static JSONObject args(Object... kv) {
        JSONObject o = new JSONObject();
        for (int i = 0; i < kv.length; i += 2) {
            o.put((String) kv[i], kv[i + 1]);
        }
        return o;
    }

    // ---- Claude Code ----

    List<ModelStandIn.Call> claudeScript() {
        String key = project.resolve("secret/key.txt").toString();
        String main = project.resolve("src/main.txt").toString();
        return List.of(
                new ModelStandIn.Call("Read", args("file_path", key)),
                new ModelStandIn.Call("Write", args("file_path", key, "content", "PWNED\n")),
                new ModelStandIn.Call("Write", args("file_path", project.resolve(".github/workflows/evil.yml").toString(), "content", "on: pull_request_target\n")),
                new ModelStandIn.Call("Write", args("file_path", project.resolve("src/ok.txt").toString(), "content", "fine\n")),
                new ModelStandIn.Call("Read", args("file_path", main)),
                new ModelStandIn.Call("Edit", args("file_path", main, "old_string", "main", "new_string", "edited")));
    }

    void configureClaude(String format) throws Exception {
        Files.createDirectories(project.resolve(".claude"));
        // the README's snippet, with the executable's absolute path
        Files.writeString(project.resolve(".claude/settings.json"), new JSONObject().put("hooks", new JSONObject()
                .put("PreToolUse", new org.json.JSONArray().put(new JSONObject()
                        .put("matcher", "Write|Edit|MultiEdit|NotebookEdit")
                        .put("hooks", new org.json.JSONArray().put(new JSONObject().put("type", "command")
                                .put("command", hookCommand(format))))))).toString(2));
    }

    ProcessResult claude(Mode mode, ModelStandIn model, Map<String, String> extra) throws Exception {
        Map<String, String> env = new HashMap<>(Map.of("ANTHROPIC_BASE_URL", model.baseUrl(), "ANTHROPIC_API_KEY", "sk-ant-stand-in",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1", "DISABLE_AUTOUPDATER", "1"));
        env.putAll(extra);
        return run(mode, List.of(bin.resolve("claude").toString(), "-p", "Make the edits.", "--permission-mode", "acceptEdits",
                "--output-format", "json"), env);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void claudeCode(Mode mode) throws Exception {
        assumeBackend(mode);
        configureClaude("claude-code");
        try (ModelStandIn model = new ModelStandIn(claudeScript())) {
            ProcessResult r = claude(mode, model, Map.of());
            assertEquals(0, r.code(), r.toString());
            assertEquals(6, model.callsMade(), r.toString());
            assertProtectedUntouched();
            assertUnprotectedEditsLanded(r);
            assertTheModelWasTold(model, "secret/key.txt is protected by \\\"secret/\\\"", r);
            assertTheModelWasTold(model, ".github/workflows/evil.yml is protected by", r);
        }
    }

    // ---- Codex ----

    void configureCodex(String format) throws Exception {
        Path codexHome = Files.createDirectories(home.resolve(".codex"));
        // its state directory, made by an earlier session: a writable area of the confined session (WritableAreas)
        Files.createDirectories(codexHome.resolve("sessions"));
        Files.writeString(codexHome.resolve("config.toml"), String.join("\n",
                "model = \"gpt-5.5\"", "model_provider = \"standin\"", "approval_policy = \"never\"",
                "sandbox_mode = \"danger-full-access\"", "", "[model_providers.standin]", "name = \"stand-in\"",
                "base_url = \"" + "http://127.0.0.1:PORT/v1" + "\"", "wire_api = \"responses\"", "env_key = \"STANDIN_API_KEY\"", ""));
        // the documented hooks.json
        Files.writeString(codexHome.resolve("hooks.json"), new JSONObject().put("hooks", new JSONObject()
                .put("PreToolUse", new org.json.JSONArray().put(new JSONObject().put("matcher", "apply_patch")
                        .put("hooks", new org.json.JSONArray().put(new JSONObject().put("type", "command")
                                .put("command", hookCommand(format))))))).toString(2));
    }

    ProcessResult codex(Mode mode, ModelStandIn model, Map<String, String> extra) throws Exception {
        Path config = home.resolve(".codex/config.toml");
        Files.writeString(config, Files.readString(config).replace("http://127.0.0.1:PORT", model.baseUrl()));
        Map<String, String> env = new HashMap<>(Map.of("CODEX_HOME", home.resolve(".codex").toString(), "STANDIN_API_KEY", "stand-in"));
        env.putAll(extra);
        return run(mode, List.of(bin.resolve("codex").toString(), "exec", "--skip-git-repo-check",
                "--dangerously-bypass-hook-trust", "Make the edits."), env);
    }

    static List<ModelStandIn.Call> codexScript() {
        return List.of(
                new ModelStandIn.Call("apply_patch", args("patch", "*** Begin Patch\n*** Update File: secret/key.txt\n@@\n-KEY\n+PWNED\n*** End Patch\n")),
                new ModelStandIn.Call("apply_patch", args("patch", "*** Begin Patch\n*** Add File: .github/workflows/evil.yml\n+on: pull_request_target\n*** End Patch\n")),
                new ModelStandIn.Call("apply_patch", args("patch", "*** Begin Patch\n*** Update File: secret/key.txt\n*** Move to: src/stolen.txt\n@@\n KEY\n*** End Patch\n")),
                new ModelStandIn.Call("apply_patch", args("patch", "*** Begin Patch\n*** Add File: src/ok.txt\n+fine\n*** Update File: src/main.txt\n@@\n-main\n+edited\n*** End Patch\n")));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void codex(Mode mode) throws Exception {
        assumeBackend(mode);
        configureCodex("codex");
        try (ModelStandIn model = new ModelStandIn(codexScript())) {
            ProcessResult r = codex(mode, model, Map.of());
            assertEquals(0, r.code(), r.toString());
            assertEquals(4, model.callsMade(), r.toString());
            assertProtectedUntouched();
            assertUnprotectedEditsLanded(r);
            assertTheModelWasTold(model, "secret/key.txt is protected by", r);
            assertTheModelWasTold(model, ".github/workflows/evil.yml is protected by", r);
            // its state is kept: the session's transcript lands in ~/.codex/sessions, confined or not
            try (var found = Files.walk(home.resolve(".codex/sessions"))) {
                assertTrue(found.anyMatch(p -> p.getFileName().toString().startsWith("rollout-")),
                        "Codex kept no session transcript in ~/.codex/sessions: " + r);
            }
        }
    }

    // ---- Gemini CLI ----

    void configureGemini(String format) throws Exception {
        Path dir = Files.createDirectories(home.resolve(".gemini"));
        // the documented settings (user scope), with the API-key login the stand-in answers
        Files.writeString(dir.resolve("settings.json"), new JSONObject()
                .put("security", new JSONObject().put("auth", new JSONObject().put("selectedType", "gemini-api-key")))
                .put("hooks", new JSONObject().put("BeforeTool", new org.json.JSONArray().put(new JSONObject()
                        .put("matcher", "write_file|replace")
                        .put("hooks", new org.json.JSONArray().put(new JSONObject().put("type", "command")
                                .put("command", hookCommand(format)))))))
                .toString(2));
    }

    ProcessResult gemini(Mode mode, ModelStandIn model, Map<String, String> extra) throws Exception {
        Map<String, String> env = new HashMap<>(Map.of("GEMINI_API_KEY", "stand-in", "GOOGLE_GEMINI_BASE_URL", model.baseUrl(),
                "GEMINI_CLI_TRUST_WORKSPACE", "true"));
        env.putAll(extra);
        return run(mode, List.of(bin.resolve("gemini").toString(), "-m", "gemini-2.5-flash", "-p", "Make the edits.",
                "--approval-mode", "yolo"), env);
    }

    List<ModelStandIn.Call> geminiScript() {
        String key = project.resolve("secret/key.txt").toString();
        return List.of(
                new ModelStandIn.Call("write_file", args("file_path", key, "content", "PWNED\n")),
                new ModelStandIn.Call("replace", args("file_path", key, "instruction", "change it", "old_string", "KEY", "new_string", "PWNED")),
                new ModelStandIn.Call("write_file", args("file_path", project.resolve(".github/workflows/evil.yml").toString(), "content", "on: x\n")),
                new ModelStandIn.Call("write_file", args("file_path", project.resolve("src/ok.txt").toString(), "content", "fine\n")),
                new ModelStandIn.Call("replace", args("file_path", project.resolve("src/main.txt").toString(), "instruction", "edit",
                        "old_string", "main", "new_string", "edited")));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void geminiCli(Mode mode) throws Exception {
        assumeBackend(mode);
        configureGemini("gemini");
        try (ModelStandIn model = new ModelStandIn(geminiScript())) {
            ProcessResult r = gemini(mode, model, Map.of());
            assertEquals(0, r.code(), r.toString());
            assertEquals(5, model.callsMade(), r.toString());
            assertProtectedUntouched();
            assertUnprotectedEditsLanded(r);
            assertTheModelWasTold(model, "secret/key.txt is protected by", r);
            assertTheModelWasTold(model, ".github/workflows/evil.yml is protected by", r);
        }
    }

    // ---- `ralon init --agents`: each agent puts its instructions file, with the agent.lock section, in the model's context ----

    /** A phrase of the section (AgentInstructions.section) that JSON carries unescaped. */
    static final String SECTION_PHRASE = "the path is protected by agent.lock: do not retry another way";

    void initAgents() throws Exception {
        ProcessResult r = TestProcess.of(ralon.toString(), "init", "--agents").in(project).run();
        assertEquals(0, r.code(), r.toString());
        for (String f : List.of("AGENTS.md", "CLAUDE.md", "GEMINI.md")) {
            assertTrue(Files.readString(project.resolve(f)).contains(SECTION_PHRASE), f);
        }
    }

    static void assertTheModelReadTheSection(ModelStandIn model, ProcessResult r) {
        for (String what : List.of(SECTION_PHRASE, "- `secret/`", "- `.github/workflows/`")) {
            assertTrue(model.bodies().stream().anyMatch(b -> b.contains(what)),
                    "no request to the model carried the agent.lock section's \"" + what + "\": " + r);
        }
    }

    @Test
    void claudeCodeSendsTheSectionOfClaudeMd() throws Exception {
        initAgents();
        configureClaude("claude-code");
        try (ModelStandIn model = new ModelStandIn(claudeScript())) {
            ProcessResult r = claude(Mode.HOOK_ONLY, model, Map.of());
            assertEquals(0, r.code(), r.toString());
            assertTheModelReadTheSection(model, r);
            assertProtectedUntouched();
        }
    }

    @Test
    void codexSendsTheSectionOfAgentsMd() throws Exception {
        initAgents();
        configureCodex("codex");
        try (ModelStandIn model = new ModelStandIn(codexScript())) {
            ProcessResult r = codex(Mode.HOOK_ONLY, model, Map.of());
            assertEquals(0, r.code(), r.toString());
            assertTheModelReadTheSection(model, r);
            assertProtectedUntouched();
        }
    }

    @Test
    void geminiCliSendsTheSectionOfGeminiMd() throws Exception {
        initAgents();
        configureGemini("gemini");
        try (ModelStandIn model = new ModelStandIn(geminiScript())) {
            ProcessResult r = gemini(Mode.HOOK_ONLY, model, Map.of());
            assertEquals(0, r.code(), r.toString());
            assertTheModelReadTheSection(model, r);
            assertProtectedUntouched();
        }
    }

    // ---- Java broken on purpose: each agent's hook refuses every write, the unprotected ones too ----

    @Test
    void withJavaBrokenEveryAgentsHookRefusesEveryWrite() throws Exception {
        Map<String, String> broken = Map.of("RALON_JAVA", "/nonexistent/bin/java");
        configureClaude("claude-code");
        try (ModelStandIn model = new ModelStandIn(claudeScript())) {
            ProcessResult r = claude(Mode.HOOK_ONLY, model, broken);
            assertProtectedUntouched();
            assertFalse(Files.exists(project.resolve("src/ok.txt")), "Claude Code: a write went through a failed hook: " + r);
            assertTheModelWasTold(model, "ralon: cannot run Java", r);
        }
        configureCodex("codex");
        try (ModelStandIn model = new ModelStandIn(codexScript())) {
            ProcessResult r = codex(Mode.HOOK_ONLY, model, broken);
            assertProtectedUntouched();
            assertFalse(Files.exists(project.resolve("src/ok.txt")), "Codex: a write went through a failed hook: " + r);
            assertTheModelWasTold(model, "ralon: cannot run Java", r);
        }
        configureGemini("gemini");
        try (ModelStandIn model = new ModelStandIn(geminiScript())) {
            ProcessResult r = gemini(Mode.HOOK_ONLY, model, broken);
            assertProtectedUntouched();
            assertFalse(Files.exists(project.resolve("src/ok.txt")), "Gemini CLI: a write went through a failed hook: " + r);
            assertTheModelWasTold(model, "ralon: cannot run Java", r);
        }
    }

    // ---- `gemini hooks migrate --from-claude` turns the Claude Code snippet into a hook that still refuses ----

    @Test
    void geminiMigratedFromTheClaudeCodeSnippetStillRefuses() throws Exception {
        configureClaude("claude-code");
        configureGemini("gemini");
        Path settings = home.resolve(".gemini/settings.json");
        JSONObject s = new JSONObject(Files.readString(settings));
        s.remove("hooks");
        Files.writeString(settings, s.toString(2));
        ProcessResult migrated = run(Mode.HOOK_ONLY, List.of(bin.resolve("gemini").toString(), "hooks", "migrate", "--from-claude"),
                Map.of("GEMINI_CLI_TRUST_WORKSPACE", "true"));
        assertEquals(0, migrated.code(), migrated.toString());
        String projectSettings = project.resolve(".gemini/settings.json").toString();
        assertTrue(Files.exists(Path.of(projectSettings)), "migrate wrote nothing: " + migrated);
        try (ModelStandIn model = new ModelStandIn(geminiScript())) {
            ProcessResult r = gemini(Mode.HOOK_ONLY, model, Map.of());
            assertProtectedUntouched();
            assertUnprotectedEditsLanded(r);
            assertTheModelWasTold(model, "secret/key.txt is protected by", r);
        }
    }
}
