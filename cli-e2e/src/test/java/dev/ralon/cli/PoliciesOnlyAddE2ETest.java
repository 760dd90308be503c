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
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.ralon.cli.CliE2ETest.exec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Policies only add (docs/spec.md §2, docs/security.md "Around the boundary"): an agent that plants
 * {@code sub/agent.lock} (empty, or broken) cannot remove the project's protection for a later {@code ralon run},
 * {@code check}, {@code status} or hook started in {@code sub/}. Every case runs the real executable; the run cases
 * write from a real sandboxed child under both backends, as root and as uid 65534, and read the files from outside.
 */
class PoliciesOnlyAddE2ETest {
    static final String SECRET = "s3cret\n";
    static final String KEY = "k3y\n";

    @TempDir
    Path tmp;

    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    /** The project: agent.lock at the top protects secret.txt and sub/inner.key; the agent works in sub/. */
    static Path project(Path base) throws IOException {
        Path root = Files.createDirectories(base.resolve("proj")).toRealPath();
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n  - sub/inner.key\n");
        Files.writeString(root.resolve("secret.txt"), SECRET);
        Files.writeString(root.resolve("sub/inner.key"), KEY);
        Files.createDirectories(root.resolve("work"));
        Files.writeString(root.resolve("work/free.txt"), "");
        return root;
    }

    interface Runner {
        ProcessResult run(Path cwd, String... args) throws Exception;
    }

    static Runner asRoot() {
        return (cwd, args) -> exec(cwd, null, Map.of(), CliE2ETest.cmd(args));
    }

    static void assertUntouched(Path root) throws IOException {
        assertEquals(SECRET, Files.readString(root.resolve("secret.txt")), "secret.txt changed");
        assertEquals(KEY, Files.readString(root.resolve("sub/inner.key")), "sub/inner.key changed");
    }

    // ---- check, status, dry-run, hook ----

    @Test
    void aPlantedEmptyNestedPolicyRemovesNothingForCheckStatusDryRunAndHook() throws Exception {
        Path root = project(tmp);
        Path sub = root.resolve("sub");
        Runner r = asRoot();
        // before: the baseline, from sub/
        ProcessResult before = r.run(sub, "check", "../secret.txt", "inner.key", "free.txt");
        assertEquals(1, before.code(), before.toString());
        // the agent's move
        Files.writeString(sub.resolve("agent.lock"), "version: 1\n");
        ProcessResult check = r.run(sub, "check", "--explain", "../secret.txt", "inner.key", "free.txt", "agent.lock");
        assertEquals(1, check.code(), check.toString());
        List<String> lines = check.out().lines().toList();
        assertEquals(4, lines.size(), check.out());
        assertTrue(lines.get(2).startsWith("free.txt: not protected (no pattern of "), check.out());
        assertTrue(lines.get(0).startsWith("../secret.txt: protected by \"secret.txt\" (" + root.resolve("agent.lock") + ":3)"),
                check.out());
        assertTrue(lines.get(1).startsWith("inner.key: protected by \"sub/inner.key\" (" + root.resolve("agent.lock") + ":4)"),
                check.out());
        assertTrue(lines.get(3).startsWith("agent.lock: protected by agent.lock (the policy file"), check.out());

        ProcessResult list = r.run(sub, "check");
        assertEquals(List.of(root.resolve("agent.lock").toString(), root.resolve("secret.txt").toString(), "agent.lock",
                "inner.key"), list.out().lines().toList(), list.toString());

        ProcessResult status = r.run(sub, "status");
        assertEquals(0, status.code(), status.toString());
        assertTrue(status.out().contains("policy: " + root.resolve("agent.lock") + "\npolicy: agent.lock\n"),
                "status lists every file in force, farthest first, as the user in sub/ reads them:\n" + status.out());
        JSONObject sj = new JSONObject(r.run(sub, "status", "--json").out());
        assertEquals(List.of(root.resolve("agent.lock").toString(), sub.resolve("agent.lock").toString()),
                sj.getJSONArray("policies").toList());

        ProcessResult dry = r.run(sub, "run", "--dry-run", "--backend", "noop", "--", "true");
        assertTrue(dry.out().contains("policy: " + root.resolve("agent.lock") + "\npolicy: agent.lock\n"), dry.out());
        assertTrue(dry.out().contains(root.resolve("secret.txt").toString()), dry.out());
        JSONObject dj = new JSONObject(r.run(sub, "run", "--dry-run", "--json", "--backend", "noop", "--", "true").out());
        assertEquals(2, dj.getJSONArray("policies").length(), dj.toString());
        assertTrue(dj.getJSONArray("protected").toString().contains(root.resolve("sub/inner.key").toString()), dj.toString());

        // the Claude Code hook with the agent's cwd in sub/
        String hook = "{\"session_id\":\"s\",\"cwd\":\"" + sub + "\",\"hook_event_name\":\"PreToolUse\","
                + "\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"" + sub.resolve("inner.key") + "\",\"content\":\"x\"}}";
        ProcessResult h = exec(sub, hook.getBytes(StandardCharsets.UTF_8), Map.of(), CliE2ETest.cmd("hook", "claude-code"));
        // a PreToolUse refusal: permissionDecision "deny" on stdout (docs/integrations.md)
        assertEquals(0, h.code(), "the hook must refuse: " + h);
        assertTrue(h.out().contains("\"permissionDecision\": \"deny\"") && h.out().contains("inner.key"), h.toString());
        assertUntouched(root);
    }

    @Test
    void aPlantedBrokenNestedPolicyIsRefusedNamingItNotSkipped() throws Exception {
        Path root = project(tmp);
        Path sub = root.resolve("sub");
        Files.writeString(sub.resolve("agent.lock"), "version: 1\nprotect: [\n");
        Runner r = asRoot();
        for (String[] args : List.of(new String[] {"check"}, new String[] {"check", "inner.key"}, new String[] {"status"},
                new String[] {"run", "--backend", "noop", "--", "sh", "-c", "echo pwned >> inner.key; touch ran"})) {
            ProcessResult res = r.run(sub, args);
            assertEquals(2, res.code(), List.of(args) + ": " + res);
            assertEquals(1, res.errLines().size(), "one line: " + res.err());
            assertTrue(res.err().startsWith("ralon: agent.lock:"), "names the broken file: " + res.err());
        }
        assertFalse(Files.exists(sub.resolve("ran")), "nothing was started");
        String hook = "{\"cwd\":\"" + sub + "\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\""
                + sub.resolve("free.txt") + "\"}}";
        ProcessResult h = exec(sub, hook.getBytes(StandardCharsets.UTF_8), Map.of(), CliE2ETest.cmd("hook", "claude-code"));
        assertEquals(0, h.code(), "a broken policy in force makes the hook refuse: " + h);
        assertTrue(h.out().contains("\"permissionDecision\": \"deny\""), h.toString());
        assertTrue(h.out().contains(sub.resolve("agent.lock").toString()) || h.out().contains("agent.lock:"), h.out());
        assertUntouched(root);
    }

    /** {@code --policy FILE} replaces discovery (the user asked for it), and says what it leaves out. */
    @Test
    void anExplicitPolicyReplacesDiscoveryAndSaysSo() throws Exception {
        Path root = project(tmp);
        Path sub = root.resolve("sub");
        Path other = Files.writeString(tmp.resolve("other.lock"), "version: 1\nprotect:\n  - free.txt\n");
        Runner r = asRoot();
        assertEquals(0, r.run(sub, "check", "--policy", other.toString(), "inner.key").code());
        ProcessResult status = r.run(sub, "status", "--policy", other.toString());
        assertTrue(status.out().contains("--policy replaces discovery: not in force in this command: "
                + root.resolve("agent.lock")), status.out());
        ProcessResult dry = r.run(sub, "run", "--dry-run", "--backend", "noop", "--policy", other.toString(), "--", "true");
        assertTrue(dry.out().contains("note: --policy replaces discovery"), dry.out());
    }

    // ---- check --changed: a branch that plants a nested file, or deletes the top one ----

    @Test
    void changedJudgesByEveryPolicyInForceAndByEveryBasePolicyOnTheWay() throws Exception {
        Path root = project(tmp);
        Path sub = root.resolve("sub");
        Map<String, String> env = Map.of("GIT_CONFIG_GLOBAL", "/dev/null", "GIT_CONFIG_NOSYSTEM", "1");
        for (String[] c : List.of(new String[] {"git", "init", "-q"}, new String[] {"git", "add", "-A"},
                new String[] {"git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "base"})) {
            assertEquals(0, exec(root, null, env, c).code(), List.of(c).toString());
        }
        Files.writeString(sub.resolve("agent.lock"), "version: 1\n");
        Files.writeString(sub.resolve("inner.key"), "changed\n");
        ProcessResult r = exec(sub, null, env, CliE2ETest.cmd("check", "--changed", "HEAD"));
        assertEquals(1, r.code(), r.toString());
        assertTrue(r.out().contains("inner.key"), r.out());
        // the branch also deletes the top policy: its version at HEAD still judges
        Files.delete(root.resolve("agent.lock"));
        ProcessResult gone = exec(sub, null, env, CliE2ETest.cmd("check", "--changed", "HEAD"));
        assertEquals(1, gone.code(), gone.toString());
        assertTrue(gone.out().contains("inner.key") && gone.out().contains("agent.lock"), gone.out());
    }

    // ---- run: a real sandboxed child, both backends, root and uid 65534 ----

    @Test
    void runUnderMountAsRoot() throws Exception {
        runAttack("mount", tmp, asRoot(), null);
    }

    @Test
    void runUnderLandlockAsRoot() throws Exception {
        runAttack("landlock", tmp, asRoot(), null);
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

    /**
     * Session 1 (sandboxed, in the project) plants {@code work/agent.lock} (work/ is on the way to nothing protected,
     * so even Landlock lets it be created there); session 2 (sandboxed, in {@code work/}) writes both protected files.
     * Both must be refused; the files are read from outside.
     */
    private static void runAttack(String backend, Path base, Runner r, String owner) throws Exception {
        Path root = project(base);
        Path work = root.resolve("work");
        if (owner != null) {
            chownTree(base, owner); // the agent's user owns everything: only the sandbox can stop it
        }
        requireBackend(r, root, backend);
        ProcessResult plant = r.run(root, "run", "--backend", backend, "--", "sh", "-c", "printf 'version: 1\\n' > work/agent.lock");
        assertEquals(0, plant.code(), "planting an agent.lock in an unprotected directory is allowed: " + plant);
        assertEquals("version: 1\n", Files.readString(work.resolve("agent.lock")));

        ProcessResult attack = r.run(work, "run", "--backend", backend, "--", "sh", "-c",
                "echo pwned >> ../secret.txt; echo pwned >> ../sub/inner.key; echo pwned > ../secret.txt; "
                        + "rm -f ../sub/inner.key; echo ok > free.txt; echo done");
        assertEquals(0, attack.code(), attack.toString());
        assertTrue(attack.out().contains("done"), attack.toString());
        assertEquals("ok\n", Files.readString(work.resolve("free.txt")), "control: unprotected writes work in the sandbox");
        assertUntouched(root);
        // the planted file is itself protected now (it only added)
        ProcessResult again = r.run(work, "run", "--backend", backend, "--", "sh", "-c", "echo 'version: 2' > agent.lock");
        assertNotEquals(0, again.code(), again.toString());
        assertEquals("version: 1\n", Files.readString(work.resolve("agent.lock")));
    }

    static void chownTree(Path base, String owner) throws Exception {
        ProcessResult c = exec(base, null, Map.of(), "chown", "-R", owner + ":" + owner, base.toString());
        assertEquals(0, c.code(), c.toString());
    }

    /** The backend must be usable here: skipped with the reason locally, a failure under CI=true. */
    static void requireBackend(Runner r, Path dir, String backend) throws Exception {
        ProcessResult s = r.run(dir, "status", "--json");
        assertEquals(0, s.code(), s.toString());
        for (Object o : new JSONObject(s.out()).getJSONArray("backends")) {
            JSONObject b = (JSONObject) o;
            if (b.getString("name").equals(backend)) {
                if (b.getBoolean("available")) {
                    return;
                }
                String why = "backend " + backend + " unavailable here: " + b.optString("detail");
                dev.ralon.testsupport.Requirements.require(false, why);
            }
        }
        fail("no backend named " + backend + " in " + s.out());
    }

    static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return new ArrayList<>(s.toList());
        }
    }
}
