package dev.ralon.cli;

import dev.ralon.testsupport.Leftovers;
import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;

import org.json.JSONObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * End to end: the real {@code cli/target/ralon} executable (launcher stub + jar) started as a child process, in a
 * temporary working directory. Uses the Java named by JAVA_HOME, as the launcher does; run the build once with
 * {@code JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64} to cover Java 25.
 *
 * <p>Bad input must never hang, never print a stack trace, never write: each case checks exactly one stderr line
 * starting {@code ralon: } that names agent.lock, exit 2, a time bound, and an unchanged directory listing.
 */
class CliE2ETest {
    static Path exe;

    @TempDir
    Path tmp;

    @BeforeAll
    static void executable() {
        String p = System.getProperty("ralon.executable");
        assertNotNull(p, "system property ralon.executable is not set (the cli pom sets it for the e2e execution)");
        exe = Path.of(p);
        assertTrue(Files.isExecutable(exe), exe + " is not executable: run `mvn package` first");
    }

    /**
     * Runs {@code cmd} in {@code cwd} with {@code env} added (and RALON_DEBUG removed), {@code stdin} through a pipe
     * (null: an empty one), at most 60 s.
     */
    static ProcessResult exec(Path cwd, byte[] stdin, Map<String, String> env, String... cmd) throws Exception {
        return TestProcess.of(cmd).in(cwd).without("RALON_DEBUG").env(env)
                .stdin(stdin == null ? new byte[0] : stdin).run();
    }

    ProcessResult ralon(Path cwd, String... args) throws Exception {
        return exec(cwd, null, Map.of(), cmd(args));
    }

    static String[] cmd(String... args) {
        String[] c = new String[args.length + 1];
        c[0] = exe.toString();
        System.arraycopy(args, 0, c, 1, args.length);
        return c;
    }

    static void assertBadInput(ProcessResult r, String... mustContain) {
        assertEquals(2, r.code(), r.toString());
        assertEquals(1, r.errLines().size(), "exactly one line on stderr: " + r.err());
        String line = r.errLines().get(0);
        assertTrue(line.startsWith("ralon: "), line);
        assertTrue(line.contains("agent.lock"), "names agent.lock: " + line);
        assertFalse(line.contains("at dev.") || line.contains("Exception"), "no stack trace: " + line);
        for (String s : mustContain) {
            assertTrue(line.contains(s), "'" + s + "' missing from: " + line);
        }
        assertEquals("", r.out());
    }

    static Map<String, String> listing(Path dir) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path q : s.toList()) {
                var a = Files.readAttributes(q, java.nio.file.attribute.BasicFileAttributes.class,
                        java.nio.file.LinkOption.NOFOLLOW_LINKS);
                m.put(dir.relativize(q).toString(), a.size() + "/" + a.lastModifiedTime() + "/" + a.isDirectory());
            }
        }
        return m;
    }

    Path project() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("proj")).toRealPath();
        Files.createDirectories(root.resolve("src/auth"));
        Files.writeString(root.resolve("src/auth/login.ts"), "x");
        Files.writeString(root.resolve("src/app.ts"), "x");
        Files.writeString(root.resolve(".env"), "x");
        Files.writeString(root.resolve("agent.lock"), "version: 1\nprotect:\n  - .env\n  - src/auth/\n");
        return root;
    }

    // ---- basics through the executable ----

    @Test
    void versionAndHelp() throws Exception {
        ProcessResult v = ralon(tmp, "--version");
        assertEquals(0, v.code(), v.toString());
        assertTrue(v.out().startsWith("ralon ") && v.out().contains("(agent.lock version 1)"), v.out());
        ProcessResult h = ralon(tmp, "--help");
        assertEquals(0, h.code());
        assertTrue(h.out().contains("Examples:") && h.out().contains("git diff --name-only | ralon check --stdin"), h.out());
        ProcessResult bad = ralon(tmp, "check", "--bogus");
        assertEquals(2, bad.code());
        assertEquals(1, bad.errLines().size(), bad.err());
        assertTrue(bad.err().startsWith("ralon: "), bad.err());
    }

    @Test
    void initInTheWorkingDirectory() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("w"));
        ProcessResult r = ralon(dir, "init");
        assertEquals(0, r.code(), r.toString());
        assertEquals(InitCommand.TEMPLATE, Files.readString(dir.resolve("agent.lock")));
        Files.writeString(dir.resolve("agent.lock"), "version: 1\n");
        Map<String, String> before = listing(dir);
        ProcessResult again = ralon(dir, "init");
        assertEquals(2, again.code());
        assertTrue(again.err().contains("--force"), again.err());
        assertEquals(before, listing(dir));
        assertEquals("version: 1\n", Files.readString(dir.resolve("agent.lock")));
        assertEquals(0, ralon(dir, "init", "--force").code());
        assertEquals(InitCommand.TEMPLATE, Files.readString(dir.resolve("agent.lock")));
    }

    @Test
    void checkRelativePathsAndDiscoveryFromASubdirectory() throws Exception {
        Path root = project();
        Path sub = root.resolve("src");
        ProcessResult r = ralon(sub, "check", "auth/login.ts", "app.ts", "../.env", "auth/../app.ts");
        assertEquals(1, r.code(), r.toString());
        assertEquals(List.of("auth/login.ts", "../.env"), r.out().lines().toList());
        assertEquals(0, ralon(sub, "check", "app.ts").code());
        assertEquals(1, ralon(root, "check", root.resolve(".env").toString()).code(), "absolute path");
        assertEquals(0, ralon(root, "check", tmp.resolve("x/.env").toString()).code(), "outside the root");
        Files.createSymbolicLink(root.resolve("shortcut"), Path.of("src/auth/login.ts"));
        assertEquals(1, ralon(root, "check", "shortcut").code(), "reaches a protected file through a link");

        ProcessResult list = ralon(sub, "check");
        assertEquals(0, list.code(), list.toString());
        assertEquals(List.of(root.resolve(".env").toString(), root.resolve("agent.lock").toString(), "auth/"),
                list.out().lines().toList(), "listing: relative to the working directory when beneath it, else absolute");
    }

    @Test
    void gitLsFilesPipedIntoCheck() throws Exception {
        Path root = project();
        Files.writeString(root.resolve("src/auth/we ird\nname.ts"), "x");
        Map<String, String> env = Map.of("GIT_CONFIG_GLOBAL", "/dev/null", "GIT_CONFIG_NOSYSTEM", "1");
        assertEquals(0, exec(root, null, env, "git", "init", "-q").code());
        assertEquals(0, exec(root, null, env, "git", "add", "-A").code());
        ProcessResult z = exec(root, null, env, "sh", "-c", "git ls-files -z | \"$0\" check -z --stdin", exe.toString());
        assertEquals(1, z.code(), z.toString());
        List<String> got = new ArrayList<>(Arrays.asList(z.out().split("\0")));
        assertEquals(List.of(".env", "agent.lock", "src/auth/login.ts", "src/auth/we ird\nname.ts"), got);
        assertTrue(z.out().endsWith("\0"));
        ProcessResult nl = exec(root, null, env, "sh", "-c", "git ls-files src/app.ts | \"$0\" check --stdin", exe.toString());
        assertEquals(0, nl.code(), nl.toString());
    }

    @Test
    void statusThroughTheExecutable() throws Exception {
        Path root = project();
        ProcessResult t = ralon(root, "status");
        assertEquals(0, t.code(), t.toString());
        // paths as the user stands: ralon ran in the project
        assertTrue(t.out().startsWith("policy: agent.lock\n") && t.out().contains("\nbackends (`ralon run` would use "),
                t.out());
        ProcessResult j = ralon(root, "status", "--json");
        assertEquals(0, j.code(), j.toString());
        JSONObject doc = new JSONObject(j.out());
        assertEquals(3, doc.getInt("protectedPaths"));
        assertTrue(doc.getJSONArray("backends").length() >= 1);
    }

    // ---- bad input: one line, exit 2, no hang, nothing written ----

    private void badPolicy(Path dir, String... mustContain) throws Exception {
        Map<String, String> before = listing(dir);
        long t0 = System.nanoTime();
        for (String[] args : List.of(new String[] {"check"}, new String[] {"check", "x"}, new String[] {"status"})) {
            ProcessResult r = ralon(dir, args);
            assertBadInput(r, mustContain);
        }
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(60), "took too long");
        assertEquals(before, listing(dir), "nothing written");
    }

    @Test
    void fiftyMegabytePolicy() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("big"));
        try (var ch = java.nio.channels.FileChannel.open(dir.resolve("agent.lock"),
                java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap("version: 1\n".getBytes(StandardCharsets.US_ASCII)));
            ch.position(50L << 20).write(java.nio.ByteBuffer.wrap(new byte[] {'\n'}));
        }
        badPolicy(dir, "bytes");
    }

    @Test
    void aliasBomb() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("bomb"));
        StringBuilder sb = new StringBuilder("version: 1\na0: &a0 [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n");
        for (int i = 1; i < 10; i++) {
            sb.append('a').append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 9; j++) {
                sb.append(j == 0 ? "" : ",").append("*a").append(i - 1);
            }
            sb.append("]\n");
        }
        Files.writeString(dir.resolve("agent.lock"), sb.toString());
        badPolicy(dir, "agent.lock:2:5: ", "anchors");
    }

    @Test
    void binaryFile() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("bin"));
        byte[] elf = new byte[4096];
        elf[0] = 0x7f;
        elf[1] = 'E';
        elf[2] = 'L';
        elf[3] = 'F';
        Files.write(dir.resolve("agent.lock"), elf);
        // spec §3: the first offending character in file order, here the DEL (0x7F) that starts every ELF file
        badPolicy(dir, "agent.lock:1:1: ", "U+007F");
        elf[0] = 'E';
        Files.write(dir.resolve("agent.lock"), elf);
        badPolicy(dir, "agent.lock:1:5: ", "NUL");
    }

    /** Spec §10.2: every key, shape and pattern error of the file, each on its own line; --json lists them with ids. */
    @Test
    void everyErrorOfAFileInOneRun() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("four")).toRealPath();
        Files.writeString(dir.resolve("agent.lock"), "version: 2\nprotected: x\nprotect:\n  - /etc\n  - ok\n  - ../up\n  - 7\n");
        Map<String, String> before = listing(dir);
        ProcessResult r = ralon(dir, "check", "x");
        assertEquals(2, r.code(), r.toString());
        assertEquals(List.of("ralon: agent.lock:1:10: ", "ralon: agent.lock:2:1: ", "ralon: agent.lock:7:5: ",
                "ralon: agent.lock:4:5: ", "ralon: agent.lock:6:5: "),
                r.errLines().stream().map(l -> l.substring(0, l.indexOf(": ", 7) + 2)).toList(), r.err());
        assertEquals("", r.out());
        ProcessResult j = ralon(dir, "check", "--json", "x");
        assertEquals(2, j.code(), j.toString());
        JSONObject doc = new JSONObject(j.out());
        assertEquals("schema", doc.getJSONObject("error").getString("kind"));
        List<String> kinds = new ArrayList<>();
        for (Object o : doc.getJSONArray("errors")) {
            JSONObject e = (JSONObject) o;
            kinds.add(e.getString("kind") + "@" + e.getInt("line") + ":" + e.getInt("column"));
            assertEquals(dir.resolve("agent.lock").toString(), e.getString("file"));
        }
        assertEquals(List.of("schema@1:10", "unknown-key@2:1", "schema@7:5", "pattern-absolute@4:5",
                "pattern-parent-segment@6:5"), kinds);
        assertEquals(5, j.errLines().size(), j.err());
        assertEquals(before, listing(dir), "nothing written");
    }

    /** Spec §8.5 through the executable: '..' after a link applies to the directory reached. */
    @Test
    void dotDotAfterALinkIsResolvedLikeTheKernel() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("dd")).toRealPath();
        Files.createDirectories(dir.resolve("sub/deeper"));
        Files.createSymbolicLink(dir.resolve("deep"), Path.of("sub/deeper"));
        Files.writeString(dir.resolve("key.pem"), "k");
        Files.writeString(dir.resolve("agent.lock"), "version: 1\nprotect:\n  - key.pem\n");
        ProcessResult r = ralon(dir, "check", "deep/../../key.pem");
        assertEquals(1, r.code(), r.toString());
        assertEquals("deep/../../key.pem\n", r.out());
        ProcessResult empty = ralon(dir, "check", "");
        assertEquals(2, empty.code(), empty.toString());
        assertTrue(empty.err().startsWith("ralon: an empty path names nothing"), empty.err());
    }

    @Test
    void invalidUtf8() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("latin1"));
        Files.write(dir.resolve("agent.lock"), "version: 1\nprotect:\n  - caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        badPolicy(dir, "agent.lock:3:8: ", "UTF-8");
    }

    @Test
    void directoryNamedAgentLock() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("d"));
        Files.createDirectory(dir.resolve("agent.lock"));
        badPolicy(dir, "directory");
    }

    @Test
    void fifoNamedAgentLockDoesNotHang() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("f"));
        assertEquals(0, TestProcess.of("mkfifo", dir.resolve("agent.lock").toString()).run().code());
        badPolicy(dir, "fifo");
    }

    @Test
    void policyOptionNamingAMissingFile() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("m"));
        Map<String, String> before = listing(dir);
        assertBadInput(ralon(dir, "check", "--policy", "nope/agent.lock", "x"), "nope/agent.lock", "no such file");
        assertBadInput(ralon(dir, "status", "--policy", dir.resolve("agent.lock").toString()), "no such file");
        assertEquals(before, listing(dir));
    }

    /** /tmp and / hold no agent.lock here (checked first), so nothing is found from a directory under /tmp. */
    @Test
    void noPolicyAnywhereUpTheTree() throws Exception {
        Path dir = Leftovers.createTempDirectory(Path.of("/tmp"), "ralon-e2e-none").toRealPath();
        try {
            for (Path p = dir; p != null; p = p.getParent()) {
                assertFalse(Files.exists(p.resolve("agent.lock"), java.nio.file.LinkOption.NOFOLLOW_LINKS),
                        p.resolve("agent.lock") + " exists: this machine cannot show 'nothing found'");
            }
            Map<String, String> before = listing(dir);
            for (String[] args : List.of(new String[] {"check"}, new String[] {"check", "x"}, new String[] {"status"})) {
                assertBadInput(ralon(dir, args), "no agent.lock in " + dir, "ralon init");
            }
            assertEquals(before, listing(dir));
        } finally {
            Files.walk(dir).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    // ---- as an unprivileged user (root reads everything) ----

    /**
     * A world-readable copy of the executable (this JVM's {@link SharedExecutable}) and a writable HOME for uid 65534
     * (CI may clone into a directory that user cannot read).
     */
    static final class Nobody {
        final Path base;
        final Path exe;
        final Path home;

        Nobody() throws IOException {
            base = Leftovers.createTempDirectory(Path.of("/tmp"), "ralon-e2e-nobody");
            Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
            exe = SharedExecutable.exe();
            home = Files.createDirectory(base.resolve("home"));
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));
        }

        ProcessResult run(Path cwd, String... args) throws Exception {
            List<String> c = new ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                    exe.toString()));
            c.addAll(List.of(args));
            return exec(cwd, null, Map.of("HOME", home.toString(), "RALON_JAVA_OPTS", "-Djava.io.tmpdir=" + home),
                    c.toArray(String[]::new));
        }

        Path dir(String name) throws IOException {
            Path d = Files.createDirectories(base.resolve(name));
            Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
            return d;
        }

        void delete() throws IOException {
            try (Stream<Path> s = Files.walk(base)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** These cases start uid 65534 with setpriv: root is required (skipped elsewhere, failed under CI=true). */
    static void assumeRoot() {
        dev.ralon.testsupport.Requirements.requireRoot("these cases start uid 65534 with setpriv");
    }

    @Test
    void unreadablePolicy() throws Exception {
        assumeRoot();
        Nobody nobody = new Nobody();
        try {
            Path dir = nobody.dir("p");
            Path lock = Files.writeString(dir.resolve("agent.lock"), "version: 1\n");
            Files.setPosixFilePermissions(lock, PosixFilePermissions.fromString("---------"));
            Map<String, String> before = listing(dir);
            for (String[] args : List.of(new String[] {"check"}, new String[] {"check", "x"}, new String[] {"status"})) {
                assertBadInput(nobody.run(dir, args), "agent.lock", "cannot read", "permission denied");
            }
            assertEquals(before, listing(dir));
            Files.setPosixFilePermissions(lock, PosixFilePermissions.fromString("rw-r--r--"));
            ProcessResult ok = nobody.run(dir, "check");
            assertEquals(0, ok.code(), "the same file, readable, works for uid 65534: " + ok);
        } finally {
            nobody.delete();
        }
    }

    /**
     * A directory that can be listed but not searched (mode r--): the names of its entries are known, not what they
     * are. Skipping them silently would leave a matching file unprotected (found by an attacker's review: the agent
     * can chmod such a directory in one session and write the file in the next); the walk reports it and run refuses.
     */
    @Test
    void aListableButUnsearchableDirectoryMakesRunRefuse() throws Exception {
        assumeRoot();
        Nobody nobody = new Nobody();
        try {
            Path dir = nobody.dir("s");
            Files.writeString(dir.resolve("agent.lock"), "version: 1\nprotect:\n  - \"**/*.pem\"\n");
            Path src = Files.createDirectories(dir.resolve("src"));
            Files.writeString(src.resolve("a.pem"), "key\n");
            Files.setPosixFilePermissions(src, PosixFilePermissions.fromString("r--r--r--"));
            Map<String, String> before = listing(dir);
            ProcessResult run = nobody.run(dir, "run", "--backend", "noop", "--", "true");
            assertEquals(2, run.code(), "an incomplete protected set must be refused: " + run);
            assertTrue(run.err().contains("cannot examine") && run.err().contains("src/a.pem"), run.toString());
            ProcessResult list = nobody.run(dir, "check");
            assertTrue(list.err().contains("cannot examine") && list.err().contains("src/a.pem"), list.toString());
            Files.setPosixFilePermissions(src, PosixFilePermissions.fromString("rwxr-xr-x"));
            ProcessResult ok = nobody.run(dir, "run", "--backend", "noop", "--", "true");
            assertEquals(0, ok.code(), "control: searchable again, the same run starts: " + ok);
            assertEquals(before, listing(dir));
        } finally {
            Files.setPosixFilePermissions(nobody.base.resolve("s/src"), PosixFilePermissions.fromString("rwxr-xr-x"));
            nobody.delete();
        }
    }

    /**
     * An unreadable directory the policy could reach yields a warning (its contents are unknown); one outside every
     * pattern's reach is never entered, so no warning (the walk is pruned).
     */
    @Test
    void unreadableDirectoriesInsideAndOutsideReach() throws Exception {
        assumeRoot();
        Nobody nobody = new Nobody();
        try {
            Path dir = nobody.dir("q");
            Files.writeString(dir.resolve("agent.lock"), "version: 1\nprotect:\n  - \"config/**/*.key\"\n");
            Path inReach = Files.createDirectories(dir.resolve("config/private"));
            Path outOfReach = Files.createDirectories(dir.resolve("node_modules/pkg"));
            Files.setPosixFilePermissions(dir.resolve("config"), PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(inReach, PosixFilePermissions.fromString("---------"));
            Files.setPosixFilePermissions(dir.resolve("node_modules"), PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(outOfReach, PosixFilePermissions.fromString("---------"));
            // discovery walks the whole tree for nested agent.lock files (docs/spec.md §2.2): an unlistable directory
            // anywhere may hide one, so the command refuses, naming it
            ProcessResult discovered = nobody.run(dir, "check");
            assertEquals(2, discovered.code(), discovered.toString());
            assertTrue(discovered.err().startsWith("ralon: config/private/agent.lock: cannot tell"), discovered.toString());
            // the expansion's own walk, without discovery (--policy walks no tree)
            ProcessResult r = nobody.run(dir, "check", "--policy", "agent.lock");
            assertEquals(0, r.code(), r.toString());
            assertTrue(r.err().contains("cannot list") && r.err().contains("config/private"),
                    "unreadable directory inside the policy's reach is reported: " + r);
            assertFalse(r.err().contains("node_modules"), "a directory no pattern can reach is not walked: " + r);
        } finally {
            nobody.delete();
        }
    }

    @Test
    void initInADirectoryTheUserCannotWrite() throws Exception {
        assumeRoot();
        Nobody nobody = new Nobody();
        try {
            Path dir = nobody.dir("ro");
            Map<String, String> before = listing(dir);
            ProcessResult r = nobody.run(dir, "init");
            assertBadInput(r, dir.resolve("agent.lock").toString(), "permission denied");
            assertEquals(before, listing(dir), "nothing written");
        } finally {
            nobody.delete();
        }
    }
}
