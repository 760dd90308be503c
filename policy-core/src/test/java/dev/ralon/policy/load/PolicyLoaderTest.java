package dev.ralon.policy.load;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.policy.ErrorKind;
import dev.ralon.policy.Policy;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.Rule;
import dev.ralon.policy.Warning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The loader's file checks (what is refused before any byte is parsed), its messages, and the policy API. */
class PolicyLoaderTest {
    @TempDir
    Path tmp;

    private PolicyException refused(Path file) {
        PolicyException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(PolicyException.class, () -> PolicyLoader.load(file)));
        PolicyVectorsTest.assertOneLineMessage(e, file);
        return e;
    }

    @Test
    void missingFile() {
        PolicyException e = refused(tmp.resolve("agent.lock"));
        assertEquals(ErrorKind.NOT_FOUND, e.kind());
        assertTrue(e.isIoFault());
        assertEquals("not-found", e.id());
        assertTrue(e.getMessage().contains("agent.lock"), e.getMessage());
    }

    @Test
    void directoryIsNotAPolicy() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("agent.lock"));
        PolicyException e = refused(dir);
        assertEquals(ErrorKind.NOT_A_FILE, e.kind());
        assertTrue(e.getMessage().contains("directory"), e.getMessage());
    }

    @Test
    void symbolicLinkIsRefusedEvenToAValidPolicy() throws IOException {
        Path real = Files.writeString(tmp.resolve("real.lock"), "version: 1\n");
        Path link = Files.createSymbolicLink(tmp.resolve("agent.lock"), real.getFileName());
        PolicyException e = refused(link);
        assertEquals(ErrorKind.NOT_A_FILE, e.kind());
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    }

    /** A fifo would block a reader forever: it is refused from its attributes, never opened. */
    @Test
    void fifoIsRefusedWithoutBlocking() throws Exception {
        Path fifo = tmp.resolve("agent.lock");
        assertEquals(0, TestProcess.of("mkfifo", fifo.toString()).run().code());
        PolicyException e = refused(fifo);
        assertEquals(ErrorKind.NOT_A_FILE, e.kind());
        assertTrue(e.getMessage().contains("fifo"), e.getMessage());
    }

    @Test
    void deviceIsRefused() {
        PolicyException e = refused(Path.of("/dev/zero"));
        assertEquals(ErrorKind.NOT_A_FILE, e.kind());
    }

    @Test
    void loadingNeverWrites() throws Exception {
        Path lock = Files.writeString(tmp.resolve("agent.lock"), "version: 1\nprotect:\n  - a\n");
        Files.setLastModifiedTime(lock, FileTime.fromMillis(1_000_000_000_000L));
        Map<String, String> before = listing(tmp);
        PolicyLoader.load(lock);
        Files.writeString(tmp.resolve("bad.lock"), "version: 2\n");
        assertThrows(PolicyException.class, () -> PolicyLoader.load(tmp.resolve("bad.lock")));
        Files.delete(tmp.resolve("bad.lock"));
        assertEquals(before, listing(tmp));
    }

    static Map<String, String> listing(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                String v = Files.isRegularFile(p) ? Files.size(p) + " " + Files.getLastModifiedTime(p) + " "
                        + java.util.Arrays.hashCode(Files.readAllBytes(p)) : "dir";
                out.put(dir.relativize(p).toString(), v);
            }
        }
        return out;
    }

    /**
     * Each kind of mistake the loader itself reports gets a message that says what to write, not only what is wrong
     * (the pattern language's own messages are the matcher's, tested with its vectors).
     */
    @Test
    void messagesSayWhatToDo() throws Exception {
        Map<String, String> cases = Map.of(
                "", "version: 1",
                "version: 2\n", "version: 1",
                "version: \"1\"\n", "version: 1",
                "version: 1\nprotected: [a]\n", "did you mean \"protect\"",
                "version: 1\nprotect: a\n", "- ",
                "version: 1\nprotect:\n  - 42\n", "quotes",
                "version: 1\nprotect:\n  -\n", "remove the entry",
                "version: 1\nprotect:\n  - \"\"\n", "remove the entry");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Path lock = Files.writeString(tmp.resolve("agent.lock"), c.getKey());
            PolicyException e = refused(lock);
            assertTrue(e.reason().contains(c.getValue()), "for " + c.getKey().replace("\n", "\\n") + ": " + e.getMessage());
        }
    }

    /** Relative to the working directory when beneath it, so that the editor jump "file:line:col" works. */
    @Test
    void messageShowsTheFileRelativeToTheWorkingDirectory() throws Exception {
        Path cwd = Path.of("").toAbsolutePath();
        Path dir = Files.createTempDirectory(cwd.resolve("target"), "msg");
        try {
            Path lock = Files.writeString(dir.resolve("agent.lock"), "version: 1\nprotect:\n  - /x\n");
            PolicyException e = refused(lock);
            assertTrue(e.getMessage().startsWith(cwd.relativize(lock) + ":3:5: "), e.getMessage());
            PolicyException outside = refused(Files.writeString(tmp.resolve("agent.lock"), "version: 1\nprotect:\n  - /x\n"));
            assertTrue(outside.getMessage().startsWith(tmp.resolve("agent.lock") + ":3:5: "), outside.getMessage());
        } finally {
            Files.deleteIfExists(dir.resolve("agent.lock"));
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void repeatedPatternIsAWarningWithItsLocation() throws Exception {
        Path lock = Files.writeString(tmp.resolve("agent.lock"), "version: 1\nprotect:\n  - src/\n  - ./src\n");
        Policy p = PolicyLoader.load(lock);
        assertEquals(1, p.warnings().size(), p.warnings().toString());
        Warning w = p.warnings().get(0);
        assertEquals(List.of(Warning.Kind.REPEATED_PATTERN, 4, 5, "pattern \"./src\" repeats line 3"),
                List.of(w.kind(), w.line(), w.column(), w.text()), w.toString());
        assertTrue(w.toString().endsWith("agent.lock:4:5: pattern \"./src\" repeats line 3"), w.toString());
    }

    @Test
    void policyApi() throws Exception {
        Path lock = Files.writeString(tmp.resolve("agent.lock"),
                "version: 1\nprotect:\n  - .env\n  - \"**/*.pem\"\n  - src/auth/\n");
        Policy p = PolicyLoader.load(lock);
        Path root = tmp.toRealPath();
        assertEquals(root, p.root());
        assertEquals(root.resolve("agent.lock"), p.file());
        assertEquals(4, p.rules().size());
        assertEquals(List.of(".env", "**/*.pem", "src/auth/"), PolicyVectorsTest.patterns(p));
        Rule pem = p.declaredRules().get(1);
        assertEquals(4, pem.line());
        assertEquals(5, pem.column());
        assertTrue(p.isProtected("agent.lock"));
        assertTrue(p.isProtected(".env"));
        assertFalse(p.isProtected(".env.example"));
        assertTrue(p.isProtected("a/b/key.pem"));
        assertTrue(p.isProtected("src/auth/login.ts"), "a matched directory covers its contents");
        assertTrue(p.isProtected("src/auth"));
        assertFalse(p.isProtected("src/authz"));
        assertFalse(p.isProtected("src"));
        assertEquals(List.of(pem), p.matchingRules("x.pem"));
        assertEquals(".env", p.relativize(root.resolve(".env")));
        assertEquals(null, p.relativize(root));
        assertEquals(null, p.relativize(root.getParent().resolve("x")));
    }

    @Test
    void checkFollowsSymbolicLinksToProtectedPaths() throws Exception {
        Path root = tmp.toRealPath();
        Files.writeString(root.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n  - locked/\n");
        Files.writeString(root.resolve("secret.txt"), "s");
        Files.createDirectories(root.resolve("locked/deep"));
        Files.createSymbolicLink(root.resolve("alias.txt"), Path.of("secret.txt"));
        Files.createSymbolicLink(root.resolve("door"), Path.of("locked"));
        Path outside = Files.createTempDirectory("ralon-outside");
        try {
            Files.createSymbolicLink(outside.resolve("back"), root);
            Policy p = PolicyLoader.load(root.resolve("agent.lock"));
            assertFalse(p.check(root.resolve("alias.txt")).isEmpty(), "link to a protected file");
            assertFalse(p.check(root.resolve("door/deep/new.txt")).isEmpty(), "not yet existing, through a linked directory");
            assertFalse(p.check(outside.resolve("back/secret.txt")).isEmpty(), "from outside the root, through a link");
            assertFalse(p.check(root.resolve("locked/../secret.txt")).isEmpty(), "lexical .. is normalised");
            assertTrue(p.check(outside.resolve("secret.txt")).isEmpty(), "outside the root: not protected");
            assertTrue(p.check(root.resolve("free.txt")).isEmpty());
            assertTrue(p.check(root).isEmpty(), "the root itself is not protected");
            assertEquals("secret.txt", p.check(root.resolve("alias.txt")).get(0).pattern());
        } finally {
            Files.delete(outside.resolve("back"));
            Files.delete(outside);
        }
    }

    /** parse() validates content that is not on disk; it too refuses bytes before YAML sees them. */
    @Test
    void parseFromMemory() throws Exception {
        Path root = tmp.toRealPath();
        Policy p = PolicyLoader.parse("version: 1\nprotect: [a]\n".getBytes(StandardCharsets.UTF_8),
                Path.of("agent.lock"), root.resolve("agent.lock"), root);
        assertEquals(List.of("a"), PolicyVectorsTest.patterns(p));
        PolicyException e = assertThrows(PolicyException.class, () -> PolicyLoader.parse(new byte[] {'v', 0},
                Path.of("agent.lock"), root.resolve("agent.lock"), root));
        assertEquals("binary", e.id());
    }
}
