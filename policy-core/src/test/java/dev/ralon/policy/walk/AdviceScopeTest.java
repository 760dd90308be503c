package dev.ralon.policy.walk;

import dev.ralon.policy.Expansion;
import dev.ralon.policy.git.GitIgnoredDirectories;
import dev.ralon.policy.git.GitRepo;
import dev.ralon.policy.load.PolicyLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The "would match deeper" advice skips the directories an {@link IgnoredDirectories} names (what git ignores, for
 * the tools that explain a policy), and nothing else changes: entries, counts and the other warnings are the same.
 */
class AdviceScopeTest {
    @TempDir
    Path tmp;

    private Path root() throws Exception {
        return tmp.toRealPath();
    }

    private void file(String rel) throws Exception {
        Path p = root().resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, rel);
    }

    private PolicySet policy(String... patterns) throws Exception {
        StringBuilder sb = new StringBuilder("version: 1\nprotect:\n");
        for (String p : patterns) {
            sb.append("  - '").append(p).append("'\n");
        }
        Files.writeString(root().resolve("agent.lock"), sb.toString());
        return PolicySet.explicit(PolicyLoader.load(root().resolve("agent.lock")));
    }

    @Test
    void theAdviceDoesNotCountBeneathAnIgnoredDirectoryButProtectionStillGoesThere() throws Exception {
        file("src/a/server.pem");
        file("node_modules/pkg/test.pem");
        file("node_modules/pkg/more/other.pem");
        file("target/classes/x.pem");
        PolicySet set = policy("*.pem", "**/other.pem");
        Expansion everywhere = set.expand(true);
        Expansion scoped = set.expand(r -> rel -> rel.equals("node_modules") || rel.equals("target"));
        assertTrue(everywhere.warnings().get(0).text().contains("would match 4 paths deeper"), everywhere.warnings().toString());
        assertTrue(scoped.warnings().get(0).text().contains("would match 1 path deeper"), scoped.warnings().toString());
        // protection never consults the hook: node_modules/pkg/more/other.pem is protected either way
        assertEquals(ProtectedPathsTest.kinds(everywhere), ProtectedPathsTest.kinds(scoped));
        assertTrue(ProtectedPathsTest.kinds(scoped).containsKey("node_modules/pkg/more/other.pem"));
        assertEquals(everywhere.counts(), scoped.counts());
        assertEquals(everywhere.incomplete(), scoped.incomplete());
    }

    @Test
    void anIgnoredDirectoryThatThePatternNamesIsStillCounted() throws Exception {
        file("a/build/out.txt");
        file("b/build/deeper/build/x");
        PolicySet set = policy("build");
        Expansion scoped = set.expand(r -> rel -> rel.endsWith("build"));
        // a/build and b/build are named by the floating form **/build (and it stops beneath a match anyway)
        assertTrue(scoped.warnings().get(0).text().contains("would match 2 paths deeper"), scoped.warnings().toString());
    }

    @Test
    void gitsIgnoredDirectoriesAreTheOnesGitListsAndOnlyWholeDirectories() throws Exception {
        GitRepo repo = GitRepo.init(root());
        repo.write(".gitignore", "node_modules/\n*.log\nbuild/\n");
        repo.write("src/keep.pem", "k").write("node_modules/p/test.pem", "t").write("src/build/x.pem", "x")
                .write("src/debug.log", "l");
        repo.commitAll("tree");
        IgnoredDirectories ignored = GitIgnoredDirectories.of(root());
        assertTrue(ignored.ignored("node_modules"), ignored.toString());
        assertTrue(ignored.ignored("src/build"), ignored.toString());
        assertFalse(ignored.ignored("src"), ignored.toString());
        assertFalse(ignored.ignored("src/debug.log"), "a file is no ignored directory: " + ignored);
        Expansion scoped = policy("*.pem").expand(GitIgnoredDirectories::of);
        assertTrue(scoped.warnings().get(0).text().contains("would match 1 path deeper"), scoped.warnings().toString());
    }

    @Test
    void outsideAWorkTreeNothingIsIgnored() throws Exception {
        file("node_modules/x.pem");
        assertFalse(GitIgnoredDirectories.of(root()).ignored("node_modules"));
    }
}
