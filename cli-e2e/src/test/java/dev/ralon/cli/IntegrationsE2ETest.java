package dev.ralon.cli;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
 * Integrations through the real executable: the Claude Code PreToolUse hook fed real-shaped JSON, the CI guard
 * {@code check --changed} and the pre-commit hook {@code check --staged} in real git repositories.
 */
class IntegrationsE2ETest {
    @TempDir
    Path repo;

    Path ralon;

    @BeforeEach
    void setUp() throws Exception {
        String exe = System.getProperty("ralon.executable");
        if (exe == null) {
            fail("system property ralon.executable is not set: run through Maven (mvn verify)");
        }
        ralon = Path.of(exe);
        repo = repo.toRealPath();
        Files.writeString(repo.resolve("agent.lock"), "version: 1\nprotect:\n  - src/auth/\n  - pom.xml\n  - notebooks/*.ipynb\n");
        Files.createDirectories(repo.resolve("src/auth"));
        Files.createDirectories(repo.resolve("notebooks"));
        Files.writeString(repo.resolve("src/auth/login.ts"), "login\n");
        Files.writeString(repo.resolve("src/app.ts"), "app\n");
        Files.writeString(repo.resolve("pom.xml"), "<project/>\n");
        Files.writeString(repo.resolve("notebooks/a.ipynb"), "{}\n");
        git("init", "-q");
        git("config", "user.email", "t@example.org");
        git("config", "user.name", "t");
        git("add", "-A");
        git("commit", "-qm", "init");
    }

    ProcessResult exec(List<String> cmd, String stdin) throws Exception {
        return exec(cmd, stdin, repo, Map.of());
    }

    /** Runs cmd in dir with the test's environment minus CI (a guard's default depends on it) plus {@code env}. */
    ProcessResult exec(List<String> cmd, String stdin, Path dir, Map<String, String> env) throws Exception {
        return TestProcess.of(cmd).in(dir).without("CI").env(env).stdin(stdin == null ? "" : stdin).run();
    }

    ProcessResult ralon(String stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ralon.toString());
        cmd.addAll(List.of(args));
        return exec(cmd, stdin);
    }

    ProcessResult git(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.addAll(List.of(args));
        ProcessResult r = exec(cmd, null);
        return r;
    }

    String hookInput(String tool, String inputJson) {
        return "{\"session_id\":\"abc\",\"transcript_path\":\"/tmp/t.jsonl\",\"cwd\":\"" + repo + "\","
                + "\"permission_mode\":\"default\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"" + tool + "\","
                + "\"tool_input\":" + inputJson + ",\"tool_use_id\":\"toolu_01\"}";
    }

    /**
     * The reason of a PreToolUse refusal in Claude Code's JSON form (exit 0, {@code hookSpecificOutput.permissionDecision:
     * "deny"}, nothing on stderr); fails the test if the answer is anything else.
     */
    static String denied(ProcessResult r) {
        assertEquals(0, r.code(), r.toString());
        org.json.JSONObject specific = new org.json.JSONObject(r.out()).getJSONObject("hookSpecificOutput");
        assertEquals("PreToolUse", specific.getString("hookEventName"));
        assertEquals("deny", specific.getString("permissionDecision"));
        assertEquals("", r.err());
        return specific.getString("permissionDecisionReason");
    }

    @Test
    void writeToAProtectedFileIsRefusedWithAReasonForTheModel() throws Exception {
        ProcessResult r = ralon(hookInput("Write", "{\"file_path\":\"" + repo.resolve("src/auth/login.ts")
                + "\",\"content\":\"pwned\"}"), "hook", "claude-code");
        assertEquals("src/auth/login.ts is protected by \"src/auth/\" (agent.lock:3)", denied(r).split(". This file")[0]
                .substring("agent.lock: ".length()));
    }

    @Test
    void editOfAnUnprotectedFileIsAllowedSilently() throws Exception {
        ProcessResult r = ralon(hookInput("Edit", "{\"file_path\":\"" + repo.resolve("src/app.ts")
                + "\",\"old_string\":\"app\",\"new_string\":\"App\",\"replace_all\":false}"), "hook", "claude-code");
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.err());
    }

    @Test
    void multiEditAndNotebookEditAreChecked() throws Exception {
        ProcessResult multi = ralon(hookInput("MultiEdit", "{\"file_path\":\"" + repo.resolve("pom.xml")
                + "\",\"edits\":[{\"old_string\":\"a\",\"new_string\":\"b\"}]}"), "hook", "claude-code");
        assertTrue(denied(multi).contains("pom.xml is protected"), multi.toString());
        ProcessResult nb = ralon(hookInput("NotebookEdit", "{\"notebook_path\":\"" + repo.resolve("notebooks/a.ipynb")
                + "\",\"new_source\":\"x\",\"cell_id\":\"c1\"}"), "hook", "claude-code");
        assertTrue(denied(nb).contains("notebooks/a.ipynb is protected by \"notebooks/*.ipynb\""), nb.toString());
    }

    @Test
    void relativePathsResolveAgainstTheHooksCwdAndNewFilesInProtectedDirsAreRefused() throws Exception {
        ProcessResult r = ralon(hookInput("Write", "{\"file_path\":\"src/auth/new.ts\",\"content\":\"x\"}"), "hook", "claude-code");
        assertTrue(denied(r).contains("src/auth/new.ts is protected"), r.toString());
    }

    @Test
    void bashIsLeftToTheKernelBoundary() throws Exception {
        ProcessResult r = ralon(hookInput("Bash", "{\"command\":\"echo x > src/auth/login.ts\",\"description\":\"d\"}"),
                "hook", "claude-code");
        assertEquals(0, r.code(), r.err());
    }

    @Test
    void brokenInputOrBrokenPolicyFailsClosed() throws Exception {
        ProcessResult garbage = ralon("not json", "hook", "claude-code");
        assertEquals(2, garbage.code());
        assertTrue(garbage.err().startsWith("ralon: cannot read the hook input"), garbage.err());
        Files.writeString(repo.resolve("agent.lock"), "version: 1\nprotected:\n  - x\n");
        ProcessResult bad = ralon(hookInput("Write", "{\"file_path\":\"" + repo.resolve("src/app.ts") + "\"}"), "hook", "claude-code");
        assertTrue(denied(bad).contains("agent.lock:2:1: unknown key \"protected\""), bad.toString());
    }

    @Test
    void changedListsProtectedModificationsRenamesDeletionsAndNewFiles() throws Exception {
        git("mv", "src/auth/login.ts", "src/login.ts"); // rename away from a protected dir
        Files.writeString(repo.resolve("pom.xml"), "<project>changed</project>\n");
        Files.delete(repo.resolve("notebooks/a.ipynb"));
        Files.writeString(repo.resolve("src/auth/added.ts"), "new\n"); // untracked, inside protected dir
        Files.writeString(repo.resolve("src/app.ts"), "app2\n"); // unprotected change
        ProcessResult r = ralon(null, "check", "--changed");
        assertEquals(1, r.code(), r.err());
        List<String> lines = r.out().lines().sorted().toList();
        assertEquals(List.of("A\tsrc/auth/added.ts", "D\tnotebooks/a.ipynb", "M\tpom.xml",
                "R\tsrc/auth/login.ts -> src/login.ts"), lines);
    }

    @Test
    void changedAgainstABaseCommitUsesTheBasePolicyToo() throws Exception {
        // the branch weakens the policy and changes what it protected: both are reported
        git("checkout", "-qb", "agent");
        Files.writeString(repo.resolve("agent.lock"), "version: 1\nprotect: []\n");
        Files.writeString(repo.resolve("pom.xml"), "<project>evil</project>\n");
        git("commit", "-qam", "agent work");
        String base = "master";
        ProcessResult r = ralon(null, "check", "--changed", base, "--explain");
        if (r.code() == 2 && r.err().contains("master")) {
            base = "main";
            r = ralon(null, "check", "--changed", base, "--explain");
        }
        assertEquals(1, r.code(), r.err());
        // the rule is named where it is written: line 4 of the policy as it was at the base revision
        assertTrue(r.out().matches("(?s).*M\tpom.xml: protected by \"pom.xml\" \\((master|main):agent.lock:4\\).*"),
                r.out());
        assertTrue(r.out().contains("M\tagent.lock: protected by"), r.out());
        ProcessResult clean = ralon(null, "check", "--changed", "HEAD");
        assertEquals(0, clean.code(), clean.out() + clean.err());
    }

    @Test
    void preCommitHookRefusesACommitOfAProtectedChangeAndAllowsOthers() throws Exception {
        Path hook = repo.resolve(".git/hooks/pre-commit");
        Files.writeString(hook, "#!/bin/sh\n# refuse commits that change paths agent.lock protects\nexec \""
                + ralon + "\" check --staged --explain\n");
        Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwxr-xr-x"));
        String head = git("rev-parse", "HEAD").out().trim();

        Files.writeString(repo.resolve("src/auth/login.ts"), "changed\n");
        git("add", "-A");
        ProcessResult refused = git("commit", "-qm", "touch auth");
        assertEquals(1, refused.code(), refused.out() + refused.err());
        // git runs hooks with their stdout sent to its stderr
        assertTrue((refused.out() + refused.err()).contains("M\tsrc/auth/login.ts: protected by \"src/auth/\""),
                refused.out() + refused.err());
        assertEquals(head, git("rev-parse", "HEAD").out().trim(), "the commit must not have been made");

        git("reset", "-q", "--hard");
        Files.writeString(repo.resolve("src/app.ts"), "fine\n");
        git("add", "-A");
        ProcessResult ok = git("commit", "-qm", "unprotected change");
        assertEquals(0, ok.code(), ok.out() + ok.err());
        assertFalse(head.equals(git("rev-parse", "HEAD").out().trim()));
    }

    @Test
    void commitAllIsJudgedByTheIndexGitPassesToTheHook() throws Exception {
        // git commit -a records an index git hands to the hook in GIT_INDEX_FILE; .git/index is still the old one
        Path hook = repo.resolve(".git/hooks/pre-commit");
        Files.writeString(hook, "#!/bin/sh\nexec \"" + ralon + "\" check --staged\n");
        Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwxr-xr-x"));
        String head = git("rev-parse", "HEAD").out().trim();
        Files.writeString(repo.resolve("pom.xml"), "<project>changed, not staged</project>\n");
        ProcessResult refused = git("commit", "-qam", "commit -a of a protected change");
        assertEquals(1, refused.code(), refused.out() + refused.err());
        assertTrue(refused.err().contains("M\tpom.xml"), refused.err());
        Files.writeString(repo.resolve("src/app.ts"), "only path given\n");
        ProcessResult partial = git("commit", "-qm", "partial commit of a protected path", "pom.xml");
        assertEquals(1, partial.code(), partial.out() + partial.err());
        assertEquals(head, git("rev-parse", "HEAD").out().trim());
    }

    @Test
    void changedPrintsPathsRelativeToTheRepositoryTopWhereverItRuns() throws Exception {
        Files.writeString(repo.resolve("pom.xml"), "<project>changed</project>\n");
        Files.writeString(repo.resolve("src/auth/login.ts"), "changed\n");
        ProcessResult top = ralon(null, "check", "--changed");
        ProcessResult sub = exec(List.of(ralon.toString(), "check", "--changed"), null, repo.resolve("src/auth"), Map.of());
        assertEquals(1, sub.code(), sub.err());
        assertEquals("M\tpom.xml\nM\tsrc/auth/login.ts\n", sub.out());
        assertEquals(top.out(), sub.out());
    }

    @Test
    void anUnknownRevisionOrNoBaseUnderCiIsOneLineSayingWhatToDo() throws Exception {
        ProcessResult r = ralon(null, "check", "--changed", "nosuchref");
        assertEquals(2, r.code());
        assertEquals("ralon: unknown revision \"nosuchref\": fetch it first (git fetch origin BRANCH) or name a "
                + "branch, tag or commit that exists in this repository\n", r.err());
        ProcessResult ci = exec(List.of(ralon.toString(), "check", "--changed"), null, repo, Map.of("CI", "true"));
        assertEquals(2, ci.code());
        assertTrue(ci.err().startsWith("ralon: no base revision given and CI=true: ")
                && ci.err().contains("--changed origin/main") && ci.err().lines().count() == 1, ci.err());
        ProcessResult dots = ralon(null, "check", "--changed", "HEAD..HEAD");
        assertEquals(2, dots.code());
        assertTrue(dots.err().contains("write HEAD...HEAD"), dots.err());
    }

    /**
     * Ralon never runs code from the repository it checks: every helper git can be told to run is planted as an agent
     * would (git config, .gitattributes, an included file, the user's ~/.gitconfig, a git earlier in PATH, the
     * caller's GIT_* variables); check --changed, --staged and A...B answer right and nothing ran.
     */
    @Test
    void checkChangedAndStagedRunNothingTheRepositoryPlanted(@TempDir Path outside) throws Exception {
        Path marker = outside.resolve("PWNED");
        String leave = "echo ran >> " + marker;
        String cmd = "sh -c '" + leave + "'"; // fsmonitor, process filter, external diff, diff command, pager
        String filter = "sh -c '" + leave + "; cat'"; // a clean filter copies stdin to stdout
        String textconv = "sh -c '" + leave + "; cat \"$0\"'";
        Files.writeString(repo.resolve("src/app.ts"), "app changed by the agent\n");
        Files.writeString(repo.resolve("pom.xml"), "<project>staged</project>\n");
        git("add", "pom.xml");
        Thread.sleep(1100);
        Files.writeString(repo.resolve("src/app.ts"), "stat-dirty again\n");
        Files.writeString(repo.resolve(".gitattributes"), "* filter=x diff=d\n");
        git("config", "core.fsmonitor", cmd);
        git("config", "filter.x.clean", filter);
        git("config", "filter.x.process", cmd);
        git("config", "diff.external", cmd);
        git("config", "diff.d.textconv", textconv);
        git("config", "diff.d.command", cmd);
        git("config", "core.pager", cmd);
        git("config", "core.hooksPath", outside.toString());
        Path included = outside.resolve("included.cfg");
        Files.writeString(included, "[filter \"y\"]\n\tclean = \"" + filter + "\"\n[core]\n\tfsmonitor = \"" + cmd + "\"\n");
        git("config", "include.path", included.toString());
        Files.writeString(repo.resolve(".git/info/attributes"), "*.ts filter=y\n");
        Path home = Files.createDirectories(outside.resolve("home"));
        Files.writeString(home.resolve(".gitconfig"), "[core]\n\tfsmonitor = \"" + cmd + "\"\n");
        Path bin = Files.createDirectories(outside.resolve("bin"));
        Files.writeString(bin.resolve("git"), "#!/bin/sh\necho ran >> " + marker + "\nexit 0\n");
        Files.setPosixFilePermissions(bin.resolve("git"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = Map.of("HOME", home.toString(), "PATH", bin + ":" + System.getenv("PATH"),
                "GIT_DIR", outside.toString(), "GIT_CONFIG_COUNT", "1", "GIT_CONFIG_KEY_0", "core.fsmonitor",
                "GIT_CONFIG_VALUE_0", cmd, "GIT_EXTERNAL_DIFF", cmd);
        // the plants are real: plain git runs them
        ProcessResult plain = exec(List.of("git", "diff", "HEAD"), null, repo, Map.of("HOME", home.toString()));
        assertTrue(Files.exists(marker), "plain git did not run the plants: " + plain.err());
        Files.delete(marker);

        ProcessResult changed = exec(List.of(ralon.toString(), "check", "--changed"), null, repo, env);
        ProcessResult staged = exec(List.of(ralon.toString(), "check", "--staged"), null, repo, env);
        ProcessResult branch = exec(List.of(ralon.toString(), "check", "--changed", "HEAD...HEAD"), null, repo, env);
        assertFalse(Files.exists(marker), "ralon ran a planted command");
        assertEquals(1, changed.code(), changed.err());
        assertEquals("M\tpom.xml\n", changed.out());
        assertEquals(1, staged.code(), staged.err());
        assertEquals("M\tpom.xml\n", staged.out());
        assertEquals(0, branch.code(), branch.err());
    }

    @Test
    void schemaAndCompletionArePrinted() throws Exception {
        ProcessResult s = ralon(null, "schema");
        assertEquals(0, s.code());
        assertTrue(s.out().contains("\"$id\": \"https://ralon.dev/schema/agent-lock/v1.json\""), s.out());
        ProcessResult c = ralon(null, "generate-completion");
        assertEquals(0, c.code());
        assertTrue(c.out().contains("complete -F") && c.out().contains("ralon"), c.out().substring(0, 200));
    }

    @Test
    void initHeaderWritesTheLicenceHeaderAsCommentsAndThePolicyStaysValid(@TempDir Path dir) throws Exception {
        Path header = Files.writeString(dir.resolve("HEADER.txt"),
                "Licensed to the Apache Software Foundation (ASF) under one\n\nor more contributor license agreements.\n");
        ProcessResult r = exec(List.of(ralon.toString(), "init", "--header", header.toString(), dir.toString()), null);
        assertEquals(0, r.code(), r.err());
        String text = Files.readString(dir.resolve("agent.lock"));
        assertTrue(text.startsWith("# Licensed to the Apache Software Foundation (ASF) under one\n#\n"
                + "# or more contributor license agreements.\n\n# yaml-language-server:"), text);
        ProcessResult check = exec(List.of(ralon.toString(), "check", "pom.xml"), null, dir, Map.of());
        assertEquals(0, check.code(), check.err());
    }

    @Test
    void initWritesTheEditorModeline(@TempDir Path dir) throws Exception {
        ProcessResult r = exec(List.of(ralon.toString(), "init", dir.toString()), null);
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.readString(dir.resolve("agent.lock"))
                .startsWith("# yaml-language-server: $schema=https://ralon.dev/schema/agent-lock/v1.json\n"));
    }

}
