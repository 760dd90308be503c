package dev.ralon.policy;

import dev.ralon.policy.load.PolicyLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Checked paths (spec §8.5): a path that reaches a protected file in any way is protected. */
class CheckedPathTest {
    @TempDir
    Path tmp;

    private Policy policy(Path root, String... patterns) throws Exception {
        StringBuilder sb = new StringBuilder("version: 1\nprotect:\n");
        for (String p : patterns) {
            sb.append("  - \"").append(p).append("\"\n");
        }
        Files.writeString(root.resolve("agent.lock"), sb.toString());
        return PolicyLoader.load(root.resolve("agent.lock"));
    }

    @Test
    void dotDotAfterALinkAppliesToTheDirectoryReached() throws Exception {
        Path root = tmp.toRealPath();
        Files.createDirectories(root.resolve("sub/deeper"));
        Files.createSymbolicLink(root.resolve("deep"), Path.of("sub/deeper"));
        Files.writeString(root.resolve("key.pem"), "k");
        Policy p = policy(root, "key.pem");
        // the kernel: deep -> sub/deeper, .. -> sub, .. -> root, key.pem
        assertTrue(Files.isSameFile(root.resolve("deep/../../key.pem"), root.resolve("key.pem")), "fixture");
        assertEquals("key.pem", p.check(root.resolve("deep/../../key.pem")).get(0).pattern());
        // lexically the same path leaves the root: that form is judged too, and is not protected
        assertTrue(p.check(root.resolve("deep/../../../key.pem")).isEmpty(), "outside the root either way");
        // a path to a file not yet created through the link
        assertFalse(p.check(root.resolve("deep/../../key.pem/../key.pem")).isEmpty(), "lexical form");
    }

    @Test
    void lexicalFormCountsEvenWhereTheKernelWouldFail() throws Exception {
        Path root = tmp.toRealPath();
        Files.writeString(root.resolve("key.pem"), "k");
        Policy p = policy(root, "key.pem");
        assertFalse(p.check(root.resolve("missing/../key.pem")).isEmpty(), "a tool that normalises reaches key.pem");
        assertFalse(p.check(root.resolve("key.pem/")).isEmpty(), "a trailing slash names the same entry");
        assertFalse(p.check(root.resolve("./key.pem")).isEmpty());
        assertTrue(p.check(root).isEmpty(), "the root itself: no pattern names it");
    }

    @Test
    void aLinkIsJudgedAsItselfAndAsItsTargetEvenDangling() throws Exception {
        Path root = tmp.toRealPath();
        Files.createSymbolicLink(root.resolve("alias"), Path.of("secret/new.key"));
        Files.createDirectories(root.resolve("secret"));
        Files.createSymbolicLink(root.resolve("chain"), Path.of("alias"));
        Policy p = policy(root, "secret", "alias2");
        assertEquals(List.of("secret"), p.check(root.resolve("chain")).stream().map(Rule::pattern).toList(),
                "a chain of links to a file not yet created inside a protected directory");
        Files.createSymbolicLink(root.resolve("alias2"), Path.of("free.txt"));
        assertEquals(List.of("alias2"), p.check(root.resolve("alias2")).stream().map(Rule::pattern).toList(),
                "the link entry itself is protected, its target is not");
    }

    @Test
    void aLinkLoopEndsTheResolution() throws Exception {
        Path root = tmp.toRealPath();
        Files.createSymbolicLink(root.resolve("a"), Path.of("b"));
        Files.createSymbolicLink(root.resolve("b"), Path.of("a"));
        Policy p = policy(root, "a");
        assertFalse(p.check(root.resolve("a")).isEmpty(), "lexical and entry form");
        assertTrue(p.check(root.resolve("b/x")).isEmpty(), "cannot be opened: only the lexical form b/x counts");
    }

    @Test
    void storedNameIsTheNameItselfOnACaseSensitiveFileSystem() throws Exception {
        Path root = tmp.toRealPath();
        Files.writeString(root.resolve(".env"), "x");
        assertEquals(".ENV", CheckedPath.storedName(root, ".ENV"), "no .ENV on a case-sensitive file system");
        assertEquals(".env", CheckedPath.storedName(root, ".env"));
    }
}
