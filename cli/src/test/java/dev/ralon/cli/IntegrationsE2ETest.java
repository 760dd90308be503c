package dev.ralon.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

    record Result(int exit, String out, String err) {
    }

    Result exec(List<String> cmd, String stdin) throws Exception {
        Path out = Files.createTempFile("out", ".txt");
        Path err = Files.createTempFile("err", ".txt");
        Process p = new ProcessBuilder(cmd).directory(repo.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("did not finish: " + cmd);
        }
        Result r = new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    Result ralon(String stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ralon.toString());
        cmd.addAll(List.of(args));
        return exec(cmd, stdin);
    }

    Result git(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.addAll(List.of(args));
        Result r = exec(cmd, null);
        return r;
    }

    String hookInput(String tool, String inputJson) {
        return "{\"session_id\":\"abc\",\"transcript_path\":\"/tmp/t.jsonl\",\"cwd\":\"" + repo + "\","
                + "\"permission_mode\":\"default\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"" + tool + "\","
                + "\"tool_input\":" + inputJson + ",\"tool_use_id\":\"toolu_01\"}";
    }

    @Test
    void writeToAProtectedFileIsRefusedWithExit2AndAReasonForTheModel() throws Exception {
        Result r = ralon(hookInput("Write", "{\"file_path\":\"" + repo.resolve("src/auth/login.ts")
                + "\",\"content\":\"pwned\"}"), "hook", "claude-code");
        assertEquals(2, r.exit(), "exit 2 is what makes Claude Code block the call");
        assertTrue(r.err().contains("src/auth/login.ts is protected by \"src/auth/\" (agent.lock:3)"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void editOfAnUnprotectedFileIsAllowedSilently() throws Exception {
        Result r = ralon(hookInput("Edit", "{\"file_path\":\"" + repo.resolve("src/app.ts")
                + "\",\"old_string\":\"app\",\"new_string\":\"App\",\"replace_all\":false}"), "hook", "claude-code");
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err());
    }

    @Test
    void multiEditAndNotebookEditAreChecked() throws Exception {
        Result multi = ralon(hookInput("MultiEdit", "{\"file_path\":\"" + repo.resolve("pom.xml")
                + "\",\"edits\":[{\"old_string\":\"a\",\"new_string\":\"b\"}]}"), "hook", "claude-code");
        assertEquals(2, multi.exit());
        assertTrue(multi.err().contains("pom.xml is protected"), multi.err());
        Result nb = ralon(hookInput("NotebookEdit", "{\"notebook_path\":\"" + repo.resolve("notebooks/a.ipynb")
                + "\",\"new_source\":\"x\",\"cell_id\":\"c1\"}"), "hook", "claude-code");
        assertEquals(2, nb.exit());
        assertTrue(nb.err().contains("notebooks/a.ipynb is protected by \"notebooks/*.ipynb\""), nb.err());
    }

    @Test
    void relativePathsResolveAgainstTheHooksCwdAndNewFilesInProtectedDirsAreRefused() throws Exception {
        Result r = ralon(hookInput("Write", "{\"file_path\":\"src/auth/new.ts\",\"content\":\"x\"}"), "hook", "claude-code");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("src/auth/new.ts is protected"), r.err());
    }

    @Test
    void bashIsLeftToTheKernelBoundary() throws Exception {
        Result r = ralon(hookInput("Bash", "{\"command\":\"echo x > src/auth/login.ts\",\"description\":\"d\"}"),
                "hook", "claude-code");
        assertEquals(0, r.exit(), r.err());
    }

    @Test
    void brokenInputOrBrokenPolicyFailsClosed() throws Exception {
        Result garbage = ralon("not json", "hook", "claude-code");
        assertEquals(2, garbage.exit());
        assertTrue(garbage.err().startsWith("ralon: cannot read the hook input"), garbage.err());
        Files.writeString(repo.resolve("agent.lock"), "version: 1\nprotected:\n  - x\n");
        Result bad = ralon(hookInput("Write", "{\"file_path\":\"" + repo.resolve("src/app.ts") + "\"}"), "hook", "claude-code");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().contains("agent.lock:2:1: unknown key \"protected\""), bad.err());
    }

    @Test
    void changedListsProtectedModificationsRenamesDeletionsAndNewFiles() throws Exception {
        git("mv", "src/auth/login.ts", "src/login.ts"); // rename away from a protected dir
        Files.writeString(repo.resolve("pom.xml"), "<project>changed</project>\n");
        Files.delete(repo.resolve("notebooks/a.ipynb"));
        Files.writeString(repo.resolve("src/auth/added.ts"), "new\n"); // untracked, inside protected dir
        Files.writeString(repo.resolve("src/app.ts"), "app2\n"); // unprotected change
        Result r = ralon(null, "check", "--changed");
        assertEquals(1, r.exit(), r.err());
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
        Result r = ralon(null, "check", "--changed", "master", "--explain");
        if (r.exit() == 2 && r.err().contains("master")) {
            r = ralon(null, "check", "--changed", "main", "--explain");
        }
        assertEquals(1, r.exit(), r.err());
        // the rule is named where it is written: line 4 of the policy as it was at the base revision
        assertTrue(r.out().matches("(?s).*M\tpom.xml: protected by \"pom.xml\" \\((master|main):agent.lock:4\\).*"),
                r.out());
        assertTrue(r.out().contains("M\tagent.lock: protected by"), r.out());
        Result clean = ralon(null, "check", "--changed", "HEAD");
        assertEquals(0, clean.exit(), clean.out() + clean.err());
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
        Result refused = git("commit", "-qm", "touch auth");
        assertEquals(1, refused.exit(), refused.out() + refused.err());
        // git runs hooks with their stdout sent to its stderr
        assertTrue((refused.out() + refused.err()).contains("M\tsrc/auth/login.ts: protected by \"src/auth/\""),
                refused.out() + refused.err());
        assertEquals(head, git("rev-parse", "HEAD").out().trim(), "the commit must not have been made");

        git("reset", "-q", "--hard");
        Files.writeString(repo.resolve("src/app.ts"), "fine\n");
        git("add", "-A");
        Result ok = git("commit", "-qm", "unprotected change");
        assertEquals(0, ok.exit(), ok.out() + ok.err());
        assertFalse(head.equals(git("rev-parse", "HEAD").out().trim()));
    }

    @Test
    void schemaAndCompletionArePrinted() throws Exception {
        Result s = ralon(null, "schema");
        assertEquals(0, s.exit());
        assertTrue(s.out().contains("\"$id\": \"https://ralon.dev/schema/agent-lock/v1.json\""), s.out());
        Result c = ralon(null, "generate-completion");
        assertEquals(0, c.exit());
        assertTrue(c.out().contains("complete -F") && c.out().contains("ralon"), c.out().substring(0, 200));
    }

    @Test
    void initWritesTheEditorModeline() throws Exception {
        Path dir = Files.createTempDirectory("init");
        Result r = exec(List.of(ralon.toString(), "init", dir.toString()), null);
        assertEquals(0, r.exit(), r.err());
        assertTrue(Files.readString(dir.resolve("agent.lock"))
                .startsWith("# yaml-language-server: $schema=https://ralon.dev/schema/agent-lock/v1.json\n"));
    }

}
