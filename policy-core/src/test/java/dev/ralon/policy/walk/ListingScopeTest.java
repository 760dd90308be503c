package dev.ralon.policy.walk;

import dev.ralon.policy.Expansion;
import dev.ralon.policy.git.GitIgnoredDirectories;
import dev.ralon.policy.git.GitRepo;
import dev.ralon.policy.load.PolicyLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The listing a tool shows (PolicySet.listing) leaves out what git ignores unless a pattern spells the directory out;
 * what is enforced (PolicySet.expand) never depends on git. On a real work tree with the real git.
 */
class ListingScopeTest {
    @TempDir
    Path dir;

    private PolicySet policy(String... patterns) throws Exception {
        GitRepo repo = GitRepo.init(dir);
        repo.write(".gitignore", "target/\n/sub/build/\n")
                .write("src/a.pem", "k").write("target/classes/a.pem", "k").write("target/b.pem", "k")
                .write("sub/build/c.pem", "k").write("sub/d.pem", "k").write("target/classes/only.key", "k");
        StringBuilder b = new StringBuilder("version: 1\nprotect:\n");
        for (String p : patterns) {
            b.append("  - \"").append(p).append("\"\n");
        }
        Files.writeString(dir.resolve("agent.lock"), b);
        return PolicySet.explicit(PolicyLoader.load(dir.resolve("agent.lock")));
    }

    private static Set<String> paths(Expansion e) {
        Set<String> s = new TreeSet<>();
        for (Expansion.Entry entry : e.entries()) {
            s.add(entry.relPath());
        }
        return s;
    }

    @Test
    void aWildcardPatternIsNotListedInIgnoredDirectoriesButIsEnforcedThere() throws Exception {
        PolicySet set = policy("**/*.pem");
        assertEquals(Set.of("agent.lock", "src/a.pem", "sub/d.pem"), paths(set.listing(GitIgnoredDirectories::of)));
        Set<String> enforced = paths(set.expand(false));
        assertEquals(Set.of("agent.lock", "src/a.pem", "sub/d.pem", "target/b.pem", "target/classes/a.pem",
                "sub/build/c.pem"), enforced);
        assertEquals(enforced, paths(set.expand(GitIgnoredDirectories::of)), "the advice hook changes no entry");
    }

    @Test
    void aPatternThatSpellsTheIgnoredDirectoryOutIsListedThere() throws Exception {
        PolicySet set = policy("target/**/*.pem", "sub/build/*.pem", "*/classes/*.pem");
        // "*/classes/*.pem" does not name target: its first segment is a wildcard
        assertEquals(Set.of("agent.lock", "target/b.pem", "target/classes/a.pem", "sub/build/c.pem"),
                paths(set.listing(GitIgnoredDirectories::of)));
        assertEquals(List.of(), set.listing(GitIgnoredDirectories::of).unmatched().stream()
                .filter(r -> !r.glob().source().startsWith("*/")).toList());
    }

    @Test
    void aPatternMatchingOnlyInIgnoredDirectoriesSaysWhereItDidNotLook() throws Exception {
        PolicySet set = policy("**/*.key");
        Expansion listed = set.listing(GitIgnoredDirectories::of);
        assertEquals(1, listed.unmatched().size());
        String w = listed.warningMessages().toString();
        assertTrue(w.contains("matches nothing that exists outside what git ignores"), w);
        assertEquals(Set.of("agent.lock", "target/classes/only.key"), paths(set.expand(false)));
    }

    @Test
    void outsideAWorkTreeNothingIsLeftOut() throws Exception {
        PolicySet set = policy("**/*.pem");
        Files.walk(dir.resolve(".git")).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        assertEquals(paths(set.expand(false)), paths(set.listing(GitIgnoredDirectories::of)));
        assertTrue(!set.listing(GitIgnoredDirectories::of).warningMessages().toString().contains("git ignores"));
    }
}
