package dev.ralon.policy.walk;

import dev.ralon.policy.Expansion;
import dev.ralon.policy.Policy;
import dev.ralon.policy.Warning;
import dev.ralon.policy.load.PolicyLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The walk through symbolic links is bounded (TreeWalker): links that lead to the same directories by exponentially
 * many paths end the walk through links with a warning that makes the set incomplete, never a walk that lasts for
 * ever, and never a set silently missing a path.
 */
class LinkPathsBoundTest {

    /** d1 … dN, each holding two links to the next: 2^(N-1) lexical paths to dN. */
    private static void lattice(Path root, int n) throws Exception {
        for (int i = 1; i <= n; i++) {
            Files.createDirectory(root.resolve("d" + i));
        }
        for (int i = 1; i < n; i++) {
            Files.createSymbolicLink(root.resolve("d" + i + "/x"), Path.of("../d" + (i + 1)));
            Files.createSymbolicLink(root.resolve("d" + i + "/y"), Path.of("../d" + (i + 1)));
        }
        Files.writeString(root.resolve("d" + n + "/k.pem"), "key\n");
    }

    private static Policy policy(Path root, String... patterns) throws Exception {
        StringBuilder text = new StringBuilder("version: 1\nprotect:\n");
        for (String p : patterns) {
            text.append("  - \"").append(p).append("\"\n");
        }
        Files.writeString(root.resolve("agent.lock"), text);
        return PolicyLoader.load(root.resolve("agent.lock"));
    }

    private static List<Warning.Kind> kinds(List<Warning> ws) {
        return ws.stream().map(Warning::kind).toList();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aLatticeOfLinksEndsWithAnIncompleteSetNotAWalkForEver(@TempDir Path tmp) throws Exception {
        Path root = tmp.toRealPath();
        lattice(root, 24); // 2^23 paths to d24: days of walking without the bound
        Expansion e = ProtectedPaths.expand(policy(root, "**/*.pem"), false);
        assertEquals(List.of(Warning.Kind.TOO_MANY_LINK_PATHS), kinds(e.incomplete()), e.warnings().toString());
        assertTrue(e.incomplete().get(0).text().contains("more than " + TreeWalker.MAX_ENTRIES_THROUGH_LINKS),
                e.incomplete().toString());
        assertTrue(e.entries().stream().anyMatch(x -> x.relPath().equals("d24/k.pem")), e.entries().toString());
    }

    @Test
    void aFewPathsThroughLinksAreWalkedWhole(@TempDir Path tmp) throws Exception {
        Path root = tmp.toRealPath();
        lattice(root, 8); // 128 paths
        Expansion e = ProtectedPaths.expand(policy(root, "**/*.pem"), false);
        assertTrue(e.incomplete().isEmpty(), e.incomplete().toString());
    }

    /** Past the bound, a path reachable only through a link is not silently missing: the set says it is incomplete. */
    @Test
    void aPathReachedOnlyThroughALinkIsEitherFoundOrTheSetIsIncomplete(@TempDir Path tmp) throws Exception {
        Path root = tmp.toRealPath();
        Files.createDirectories(root.resolve("app"));
        Files.createDirectories(root.resolve("vault"));
        Files.writeString(root.resolve("vault/a.key"), "k\n");
        Files.createSymbolicLink(root.resolve("app/secrets"), Path.of("../vault"));
        Policy policy = policy(root, "app/secrets/*.key");

        ProtectionVisitor whole = new ProtectionVisitor(policy);
        new TreeWalker(root, DirectoryReader.JAVA).with(whole).walk();
        Expansion found = whole.result();
        assertTrue(found.entries().stream().anyMatch(x -> x.relPath().equals("vault/a.key")), found.entries().toString());
        assertTrue(found.incomplete().isEmpty(), found.incomplete().toString());

        ProtectionVisitor bounded = new ProtectionVisitor(policy);
        new TreeWalker(root, DirectoryReader.JAVA, 0).with(bounded).walk();
        Expansion cut = bounded.result();
        assertFalse(cut.entries().stream().anyMatch(x -> x.relPath().equals("vault/a.key")), cut.entries().toString());
        assertEquals(List.of(Warning.Kind.TOO_MANY_LINK_PATHS), kinds(cut.incomplete()));
        assertTrue(cut.incomplete().get(0).text().contains("first left out: app/secrets"),
                cut.incomplete().toString());
    }
}
