package dev.ralon.policy.walk;

import dev.ralon.policy.ErrorKind;
import dev.ralon.policy.PolicyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link PolicyDiscovery#inTree}: every agent.lock of the tree a tool works on, below its working directory too. */
class PolicyTreeDiscoveryTest {
    @TempDir
    Path tmp;

    private Path monorepo() throws IOException {
        Path top = tmp.toRealPath();
        Files.writeString(top.resolve("agent.lock"), "version: 1\nprotect:\n  - \"top.key\"\n");
        Files.createDirectories(top.resolve("app/deep"));
        Files.createDirectories(top.resolve("lib"));
        Files.writeString(top.resolve("app/agent.lock"), "version: 1\nprotect:\n  - \"app.key\"\n");
        Files.writeString(top.resolve("app/deep/agent.lock"), "version: 1\nprotect:\n  - \"deep.key\"\n");
        Files.writeString(top.resolve("lib/agent.lock"), "version: 1\nprotect:\n  - \"lib.key\"\n");
        return top;
    }

    @Test
    void everyFileOfTheTreeIsInForceFromItsTopAndFromBelow() throws Exception {
        Path top = monorepo();
        List<Path> all = List.of(top.resolve("agent.lock"), top.resolve("app/agent.lock"), top.resolve("lib/agent.lock"),
                top.resolve("app/deep/agent.lock"));
        PolicyDiscovery.Tree t = PolicyDiscovery.inTree(top);
        assertEquals(top, t.top());
        assertEquals(all, t.files(), "the file in force at the top, then those below, shallowest first");
        PolicyDiscovery.Tree fromApp = PolicyDiscovery.inTree(top.resolve("app"));
        assertEquals(top, fromApp.top(), "the tree is the outermost policy's: started in app/, lib/ is in force too");
        assertEquals(all, fromApp.files(), "the same list from any directory of the tree");
        assertEquals(4, PolicySet.inTree(top.resolve("app/deep")).policies().size());
    }

    @Test
    void withNothingAboveTheTreeIsTheDirectoryItself() throws Exception {
        Path top = tmp.toRealPath();
        for (Path p = top.getParent(); p != null; p = p.getParent()) {
            assertFalse(Files.exists(p.resolve("agent.lock")), "an agent.lock exists in " + p);
        }
        Path app = Files.createDirectories(top.resolve("app/deep"));
        Files.writeString(top.resolve("app/agent.lock"), "version: 1\n");
        Files.writeString(top.resolve("other"), "x");
        PolicyDiscovery.Tree t = PolicyDiscovery.inTree(top);
        assertEquals(top, t.top());
        assertEquals(List.of(top.resolve("app/agent.lock")), t.files());
        assertEquals(List.of(top.resolve("app/agent.lock")), PolicyDiscovery.inTree(app).files(),
                "from app/deep the tree is app's");
    }

    /** Links are never followed: a directory inside is found by its real path, once; one outside is not the tree. */
    @Test
    void linksAreNotFollowedAndALinkNamedAgentLockIsFoundThenRefused() throws Exception {
        Path top = monorepo();
        Path outside = Files.createDirectories(tmp.resolveSibling(tmp.getFileName() + "-outside"));
        try {
            Files.writeString(outside.resolve("agent.lock"), "version: 1\n");
            Files.createSymbolicLink(top.resolve("out"), outside);
            Files.createSymbolicLink(top.resolve("again"), top.resolve("app"));
            Files.createSymbolicLink(top.resolve("loop"), top);
            PolicyDiscovery.Tree t = PolicyDiscovery.inTree(top);
            assertEquals(4, t.files().size(), t.files().toString());
            assertFalse(t.files().contains(outside.resolve("agent.lock")));

            Files.writeString(top.resolve("lib/real.lock"), "version: 1\n");
            Files.createDirectories(top.resolve("lib/sub"));
            Files.createSymbolicLink(top.resolve("lib/sub/agent.lock"), Path.of("../real.lock"));
            assertTrue(PolicyDiscovery.inTree(top).files().contains(top.resolve("lib/sub/agent.lock")),
                    "a link named agent.lock is found");
            PolicyException e = assertThrows(PolicyException.class, () -> PolicySet.inTree(top.resolve("app")));
            assertEquals(ErrorKind.NOT_A_FILE, e.kind());
            assertEquals(top.resolve("lib/sub/agent.lock"), e.file());
        } finally {
            Files.deleteIfExists(outside.resolve("agent.lock"));
            Files.deleteIfExists(outside);
        }
    }

    /** A directory that cannot be listed may hold a policy: the command stops, naming it. */
    @Test
    void aDirectoryThatCannotBeListedStopsDiscovery() throws Exception {
        Path top = monorepo();
        Path locked = Files.createDirectories(top.resolve("lib/locked"));
        DirectoryReader denying = dir -> {
            if (dir.equals(locked)) {
                throw new AccessDeniedException(dir.toString());
            }
            return DirectoryReader.JAVA.list(dir);
        };
        PolicyException e = assertThrows(PolicyException.class, () -> PolicyDiscovery.inTree(top, denying));
        assertEquals(ErrorKind.UNREADABLE, e.kind());
        assertEquals(locked.resolve("agent.lock"), e.file());
        assertTrue(e.getMessage().contains("permission denied"), e.getMessage());
        assertEquals(4, PolicyDiscovery.inTree(top, DirectoryReader.JAVA).files().size(), "control: the same tree, listable");
    }

    /** The real permission, when this test is not root (root reads any directory). */
    @Test
    void anUnreadableDirectoryForReal() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse("root".equals(System.getProperty("user.name")),
                "root lists a mode-000 directory; the reader above stands in for EACCES (the cli e2e runs as 65534)");
        Path top = monorepo();
        Path locked = Files.createDirectories(top.resolve("lib/locked"));
        locked.toFile().setReadable(false, false);
        try {
            PolicyException e = assertThrows(PolicyException.class, () -> PolicyDiscovery.inTree(top));
            assertEquals(locked.resolve("agent.lock"), e.file());
        } finally {
            locked.toFile().setReadable(true, false);
        }
    }

    @Test
    void aBrokenNestedPolicyStopsTheSetWithItsPosition() throws Exception {
        Path top = monorepo();
        Files.writeString(top.resolve("app/deep/agent.lock"), "version: 1\nprotect:\n  - /etc\n");
        PolicyException e = assertThrows(PolicyException.class, () -> PolicySet.inTree(top));
        assertEquals(top.resolve("app/deep/agent.lock"), e.file());
        assertEquals(3, e.line());
        assertEquals(5, e.column());
        assertEquals(2, PolicySet.inForceAt(top.resolve("app")).policies().size(),
                "inForceAt (the hook's view from app/) does not see it: only what is above");
    }

    /** A nested policy only adds: it cannot unprotect what an outer one protects beneath it. */
    @Test
    void aNestedPolicyOnlyAdds() throws Exception {
        Path top = tmp.toRealPath();
        Files.writeString(top.resolve("agent.lock"), "version: 1\nprotect:\n  - \"app/**\"\n");
        Files.createDirectories(top.resolve("app"));
        Files.writeString(top.resolve("app/agent.lock"), "version: 1\nprotect: []\n");
        PolicySet set = PolicySet.inTree(top);
        assertEquals(2, set.policies().size());
        assertFalse(set.check(top.resolve("app/x")).isEmpty());
        assertFalse(set.check(top.resolve("app/agent.lock")).isEmpty());
    }

    /**
     * The nearest policy (the run's RALON_POLICY, the baseline's and the required paths' root) stays the one in force
     * at the directory, never the deepest file below it.
     */
    @Test
    void theNearestPolicyIsTheDirectorysNotTheDeepestBelow() throws Exception {
        Path top = monorepo();
        assertEquals(top.resolve("agent.lock"), PolicySet.inTree(top).nearest().file());
        assertEquals(top.resolve("app/agent.lock"), PolicySet.inTree(top.resolve("app")).nearest().file());
        assertEquals(top.resolve("app/agent.lock"), PolicySet.inTree(top.resolve("app")).expand(false).policy().file(),
                "the expansion's policy is the set's nearest");
        assertEquals(top.resolve("lib/agent.lock"),
                PolicySet.discovered(PolicyDiscovery.inTree(top).files(), top.resolve("lib")).nearest().file());
        Path bare = Files.createDirectories(tmp.resolveSibling(tmp.getFileName() + "-bare")).toRealPath();
        try {
            Files.createDirectories(bare.resolve("x/y"));
            Files.writeString(bare.resolve("x/agent.lock"), "version: 1\n");
            Files.writeString(bare.resolve("x/y/agent.lock"), "version: 1\n");
            assertEquals(bare.resolve("x/agent.lock"), PolicySet.inTree(bare).nearest().file(),
                    "none in force at the directory itself: the shallowest of the tree");
        } finally {
            Files.delete(bare.resolve("x/y/agent.lock"));
            Files.delete(bare.resolve("x/agent.lock"));
            Files.delete(bare.resolve("x/y"));
            Files.delete(bare.resolve("x"));
            Files.delete(bare);
        }
    }
}
