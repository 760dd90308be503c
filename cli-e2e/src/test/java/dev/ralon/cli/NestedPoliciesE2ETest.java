package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;

import org.json.JSONObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.ralon.cli.CliE2ETest.exec;
import static dev.ralon.cli.PoliciesOnlyAddE2ETest.Runner;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every agent.lock of the tree is in force, below the working directory too (docs/spec.md §2.1): a monorepo with
 * policies at the top, in {@code app/}, {@code app/deep/} and the sibling {@code lib/}. ONE {@code ralon run} started
 * at the top (and one started in {@code app/}) writes every file from a real sandboxed child under both backends, as
 * root and as uid 65534; the files are read from outside. {@code check} and the hook give the same answer for every
 * file; a broken nested file makes {@code run} refuse in one line.
 */
class NestedPoliciesE2ETest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    /** Protected by a policy (each nested policy file included), relative to the top. */
    static final List<String> PROTECTED = List.of("agent.lock", "top.key", "app/agent.lock", "app/app.key",
            "app/deep/agent.lock", "app/deep/deep.key", "lib/agent.lock", "lib/lib.key", "lib/vault/agent.lock",
            "lib/vault/v.txt");
    /** Protected by none. */
    static final List<String> FREE = List.of("free.txt", "app/free.txt", "app/deep/free.txt", "lib/free.txt",
            "app/top.key", "lib/app.key");

    static Path monorepo(Path base) throws IOException {
        Path top = Files.createDirectories(base.resolve("mono")).toRealPath();
        Files.createDirectories(top.resolve("app/deep"));
        Files.createDirectories(top.resolve("lib/vault"));
        Files.writeString(top.resolve("agent.lock"), "version: 1\nprotect:\n  - top.key\n");
        Files.writeString(top.resolve("app/agent.lock"), "version: 1\nprotect:\n  - app.key\n");
        Files.writeString(top.resolve("app/deep/agent.lock"), "version: 1\nprotect:\n  - deep.key\n");
        // lib protects its vault/ entirely; the vault's own policy tries to protect nothing more (it cannot unprotect)
        Files.writeString(top.resolve("lib/agent.lock"), "version: 1\nprotect:\n  - lib.key\n  - vault\n");
        Files.writeString(top.resolve("lib/vault/agent.lock"), "version: 1\nprotect: []\n");
        for (String f : PROTECTED) {
            if (!f.endsWith("agent.lock")) {
                Files.writeString(top.resolve(f), "orig\n");
            }
        }
        for (String f : FREE) {
            Files.writeString(top.resolve(f), "orig\n");
        }
        return top;
    }

    private static Map<String, String> contents(Path top) throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        for (String f : PROTECTED) {
            m.put(f, Files.readString(top.resolve(f)));
        }
        return m;
    }

    /** A script that appends to every file (protected and free), relative to {@code prefix} ("" or "../"). */
    private static String attack(String prefix) {
        StringBuilder sb = new StringBuilder();
        for (String f : PROTECTED) {
            sb.append("echo pwned >> ").append(prefix).append(f).append(" 2>/dev/null; ");
            sb.append("rm -f ").append(prefix).append(f).append(" 2>/dev/null; ");
        }
        for (String f : FREE) {
            sb.append("echo ok >> ").append(prefix).append(f).append("; ");
        }
        return sb.append("echo done").toString();
    }

    private static void runAttack(String backend, Path base, Runner r, String owner) throws Exception {
        Path top = monorepo(base);
        if (owner != null) {
            PoliciesOnlyAddE2ETest.chownTree(base, owner); // the agent's user owns everything: only the sandbox stops it
        }
        PoliciesOnlyAddE2ETest.requireBackend(r, top, backend);
        Map<String, String> before = contents(top);
        for (Path cwd : List.of(top, top.resolve("app"))) {
            String prefix = cwd.equals(top) ? "" : "../";
            ProcessResult run = r.run(cwd, "run", "--backend", backend, "--", "sh", "-c", attack(prefix));
            assertEquals(0, run.code(), run.toString());
            assertTrue(run.out().contains("done"), run.toString());
            assertEquals(before, contents(top), "from " + cwd + " under " + backend + ": a nested policy or what it"
                    + " protects was changed");
            for (String f : FREE) {
                assertTrue(Files.readString(top.resolve(f)).endsWith("ok\n"),
                        "control: " + f + " is writable in the sandbox (from " + cwd + ")");
            }
        }
    }

    @Test
    void runUnderMountAsRoot() throws Exception {
        runAttack("mount", tmp, PoliciesOnlyAddE2ETest.asRoot(), null);
    }

    @Test
    void runUnderLandlockAsRoot() throws Exception {
        runAttack("landlock", tmp, PoliciesOnlyAddE2ETest.asRoot(), null);
    }

    @Test
    void runUnderMountAsNobody() throws Exception {
        asNobody("mount");
    }

    @Test
    void runUnderLandlockAsNobody() throws Exception {
        asNobody("landlock");
    }

    private void asNobody(String backend) throws Exception {
        CliE2ETest.assumeRoot();
        CliE2ETest.Nobody nobody = new CliE2ETest.Nobody();
        try {
            runAttack(backend, nobody.dir("n"), nobody::run, "65534");
        } finally {
            nobody.delete();
        }
    }

    /** status and run --dry-run (text and JSON) list every file in force; check and the hook agree on every file. */
    @Test
    void checkStatusDryRunAndTheHookAgreeOnEveryFile() throws Exception {
        Path top = monorepo(tmp);
        Runner r = PoliciesOnlyAddE2ETest.asRoot();
        List<String> files = List.of(top.resolve("agent.lock").toString(), top.resolve("app/agent.lock").toString(),
                top.resolve("lib/agent.lock").toString(), top.resolve("app/deep/agent.lock").toString(),
                top.resolve("lib/vault/agent.lock").toString());
        for (Path cwd : List.of(top, top.resolve("app/deep"))) {
            JSONObject status = new JSONObject(r.run(cwd, "status", "--json").out());
            assertEquals(files, status.getJSONArray("policies").toList(), "status from " + cwd);
            ProcessResult dry = r.run(cwd, "run", "--dry-run", "--verbose", "--backend", "noop", "--", "true");
            for (String f : files) {
                assertTrue(dry.out().contains("policy: " + f + "\n"), dry.out());
            }
            JSONObject dj = new JSONObject(r.run(cwd, "run", "--dry-run", "--json", "--backend", "noop", "--", "true").out());
            assertEquals(files.size(), dj.getJSONArray("policies").length(), dj.toString());
        }
        // --explain names the nested file and line
        ProcessResult explain = r.run(top, "check", "--explain", "app/deep/deep.key");
        assertEquals(1, explain.code(), explain.toString());
        assertTrue(explain.out().startsWith("app/deep/deep.key: protected by \"deep.key\" (app/deep/agent.lock:3)"),
                explain.out());
        // --stdin
        ProcessResult stdin = exec(top, "lib/lib.key\nfree.txt\n".getBytes(StandardCharsets.UTF_8), Map.of(),
                CliE2ETest.cmd("check", "--stdin"));
        assertEquals(1, stdin.code(), stdin.toString());
        assertEquals(List.of("lib/lib.key"), stdin.out().lines().toList(), stdin.toString());

        List<String> all = new ArrayList<>(PROTECTED);
        all.addAll(FREE);
        all.add("lib/vault/new.txt"); // in lib's protected directory, not yet there
        all.add("app/deep/new.key");
        for (String f : all) {
            boolean expected = PROTECTED.contains(f) || f.equals("lib/vault/new.txt");
            ProcessResult check = r.run(top, "check", f);
            assertEquals(expected ? 1 : 0, check.code(), "check " + f + ": " + check);
            for (String agentCwd : List.of(top.toString(), top.resolve("app").toString())) {
                String hook = "{\"session_id\":\"s\",\"cwd\":\"" + agentCwd + "\",\"hook_event_name\":\"PreToolUse\","
                        + "\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"" + top.resolve(f)
                        + "\",\"content\":\"x\"}}";
                ProcessResult h = exec(top, hook.getBytes(StandardCharsets.UTF_8), Map.of(),
                        CliE2ETest.cmd("hook", "claude-code"));
                assertEquals(0, h.code(), h.toString());
                assertEquals(expected, h.out().contains("\"permissionDecision\": \"deny\""),
                        "the hook and check disagree on " + f + ": " + h);
            }
        }
    }

    /** A broken nested policy (one the run would otherwise not have seen from the top) makes run refuse in one line. */
    @Test
    void aBrokenNestedPolicyMakesRunRefuseInOneLine() throws Exception {
        Path top = monorepo(tmp);
        Files.writeString(top.resolve("app/deep/agent.lock"), "version: 1\nprotect:\n  - /etc\n");
        Runner r = PoliciesOnlyAddE2ETest.asRoot();
        for (String[] args : List.of(new String[] {"status"}, new String[] {"check", "free.txt"},
                new String[] {"run", "--backend", "noop", "--", "sh", "-c", "touch ran"})) {
            ProcessResult res = r.run(top, args);
            assertEquals(2, res.code(), List.of(args) + ": " + res);
            assertEquals(1, res.errLines().size(), "one line: " + res.err());
            assertTrue(res.err().startsWith("ralon: app/deep/agent.lock:3:5: "), res.err());
        }
        assertFalse(Files.exists(top.resolve("ran")), "nothing was started");
        // --policy walks nothing: the broken file is not looked for, and the note says so
        ProcessResult explicit = r.run(top, "status", "--policy", top.resolve("lib/agent.lock").toString());
        assertEquals(0, explicit.code(), explicit.toString());
        assertTrue(explicit.out().contains("(nor any agent.lock below; those were not looked for)"), explicit.out());
    }

    /** As uid 65534, a directory of the tree it cannot list may hide a policy: run refuses in one line, naming it. */
    @Test
    void anUnlistableDirectoryMakesRunRefuseAsNobody() throws Exception {
        CliE2ETest.assumeRoot();
        CliE2ETest.Nobody nobody = new CliE2ETest.Nobody();
        Path top = null;
        try {
            top = monorepo(nobody.dir("n"));
            PoliciesOnlyAddE2ETest.chownTree(nobody.base.resolve("n"), "65534");
            Path locked = Files.createDirectories(top.resolve("lib/locked"));
            ProcessResult ok = nobody.run(top, "run", "--backend", "noop", "--", "true");
            assertEquals(0, ok.code(), "control: with every directory listable the run starts: " + ok);
            Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("---------"));
            ProcessResult res = nobody.run(top, "run", "--backend", "noop", "--", "sh", "-c", "touch ran");
            assertEquals(2, res.code(), res.toString());
            assertEquals(1, res.errLines().size(), "one line: " + res.err());
            assertTrue(res.err().startsWith("ralon: lib/locked/agent.lock: ") && res.err().contains("permission denied"),
                    res.err());
            assertFalse(Files.exists(top.resolve("ran")), "nothing was started");
        } finally {
            if (top != null) {
                Files.setPosixFilePermissions(top.resolve("lib/locked"),
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            nobody.delete();
        }
    }
}
