package dev.ralon.policy.walk;

import dev.ralon.policy.ErrorKind;
import dev.ralon.policy.Expansion;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.Rule;
import dev.ralon.policy.RuleText;
import dev.ralon.policy.load.PolicyLoader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Policies only add (docs/spec.md §2): every agent.lock from a directory up is in force, and a nearer one, such as a
 * file an agent plants in a subdirectory, can add protection but never remove any. Real trees in a temp directory.
 */
class PolicySetTest {
    @TempDir
    Path tmp;
    Path top;
    Path sub;

    @BeforeEach
    void tree() throws Exception {
        top = tmp.toRealPath();
        sub = Files.createDirectories(top.resolve("sub/deeper"));
        sub = top.resolve("sub");
        Files.writeString(top.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n  - sub/key.pem\n  - conf/\n");
        Files.writeString(top.resolve("secret.txt"), "s");
        Files.writeString(sub.resolve("key.pem"), "k");
        Files.createDirectories(top.resolve("conf"));
        Files.writeString(top.resolve("conf/a.yml"), "a");
        Files.writeString(sub.resolve("mine.txt"), "m");
    }

    static boolean isProtected(PolicySet set, Path p) {
        return !set.check(p).isEmpty();
    }

    @Test
    void aPlantedEmptyNestedPolicyRemovesNothing() throws Exception {
        PolicySet before = PolicySet.inForceAt(sub);
        assertTrue(isProtected(before, sub.resolve("key.pem")));
        Files.writeString(sub.resolve("agent.lock"), "version: 1\n"); // what the agent plants
        PolicySet after = PolicySet.inForceAt(sub);
        assertEquals(List.of(top.resolve("agent.lock"), sub.resolve("agent.lock")), after.files());
        for (Path p : List.of(sub.resolve("key.pem"), top.resolve("secret.txt"), top.resolve("conf/a.yml"))) {
            assertTrue(isProtected(after, p), p + " must stay protected");
        }
        assertTrue(isProtected(after, sub.resolve("agent.lock")), "the planted file protects itself (it only adds)");
        assertFalse(isProtected(after, sub.resolve("mine.txt")));
        assertEquals(snapshot(before.expand(false)).keySet().stream().filter(k -> !k.equals("sub/agent.lock")).toList(),
                snapshot(after.expand(false)).keySet().stream().filter(k -> !k.equals("sub/agent.lock")).toList(),
                "run's protected set only grows");
    }

    @Test
    void aNestedPolicyAddsAndSaysWhichFileProtects() throws Exception {
        Files.writeString(sub.resolve("agent.lock"), "version: 1\nprotect:\n  - mine.txt\n  - key.pem\n");
        PolicySet set = PolicySet.inForceAt(sub.resolve("deeper"));
        List<Rule> rules = set.check(sub.resolve("key.pem"));
        assertEquals(2, rules.size(), "both files protect it: " + rules);
        assertEquals(top.resolve("agent.lock"), rules.get(0).file(), "farthest first");
        assertEquals(sub.resolve("agent.lock"), rules.get(1).file());
        assertEquals(List.of(sub.resolve("agent.lock")), set.check(sub.resolve("mine.txt")).stream().map(Rule::file).toList());
        Expansion e = set.expand(true);
        assertEquals(top, e.root(), "relative to the farthest root");
        Map<String, Expansion.Entry> m = snapshot(e);
        assertEquals(List.of("agent.lock", "conf", "secret.txt", "sub/agent.lock", "sub/key.pem", "sub/mine.txt"),
                List.copyOf(m.keySet()));
        assertEquals(2, m.get("sub/key.pem").rules().size(), "one entry, both rules");
        assertEquals(2, e.policies().size());
    }

    @Test
    void aMalformedFileInForceFailsTheWholeSetNamingIt() throws Exception {
        Files.writeString(sub.resolve("agent.lock"), "version: 1\nprotect: [\n");
        PolicyException x = assertThrows(PolicyException.class, () -> PolicySet.inForceAt(sub));
        assertEquals(sub.resolve("agent.lock"), x.file());
        assertTrue(x.getMessage().contains("agent.lock"), x.getMessage());
        // a directory named agent.lock (or a link) is in force and refused, not skipped
        Files.delete(sub.resolve("agent.lock"));
        Files.createDirectory(sub.resolve("agent.lock"));
        assertEquals(ErrorKind.NOT_A_FILE, assertThrows(PolicyException.class, () -> PolicySet.inForceAt(sub)).kind());
        Files.delete(sub.resolve("agent.lock"));
        Files.createSymbolicLink(sub.resolve("agent.lock"), top.resolve("agent.lock"));
        assertEquals(ErrorKind.NOT_A_FILE, assertThrows(PolicyException.class, () -> PolicySet.inForceAt(sub)).kind());
        // a broken farther file: the same, whatever the nearer one says
        Files.delete(sub.resolve("agent.lock"));
        Files.writeString(sub.resolve("agent.lock"), "version: 1\n");
        Files.writeString(top.resolve("agent.lock"), "version: 2\n");
        assertEquals(top.resolve("agent.lock"), assertThrows(PolicyException.class, () -> PolicySet.inForceAt(sub)).file());
    }

    @Test
    void aFileBelowTheDirectoryIsNotInForceThereButIsForPathsBeneathIt() throws Exception {
        Files.writeString(sub.resolve("agent.lock"), "version: 1\nprotect:\n  - mine.txt\n");
        assertEquals(List.of(top.resolve("agent.lock")), PolicySet.inForceAt(top).files());
        assertFalse(isProtected(PolicySet.inForceAt(top), sub.resolve("mine.txt")));
        PolicySet forTarget = PolicySet.inForceFor(sub.resolve("mine.txt"));
        assertEquals(List.of(top.resolve("agent.lock"), sub.resolve("agent.lock")), forTarget.files());
        assertTrue(isProtected(forTarget, sub.resolve("mine.txt")));
        assertTrue(isProtected(PolicySet.inForceFor(top.resolve("secret.txt")), top.resolve("secret.txt")));
        assertTrue(PolicySet.inForceFor(top.getParent().resolve("elsewhere/x")).isEmpty(), "outside every policy");
    }

    /** A target reached through a link: the policies above where the write lands judge it. */
    @Test
    void aTargetThroughALinkIsJudgedWhereItLands() throws Exception {
        Path outside = Files.createDirectories(tmp.resolve("../" + tmp.getFileName() + "-out").normalize());
        try {
            Files.createSymbolicLink(outside.resolve("door"), sub);
            PolicySet set = PolicySet.inForceFor(outside.resolve("door/key.pem"));
            assertEquals(List.of(top.resolve("agent.lock")), set.files());
            assertTrue(isProtected(set, outside.resolve("door/key.pem")));
        } finally {
            Files.deleteIfExists(outside.resolve("door"));
            Files.deleteIfExists(outside);
        }
    }

    @Test
    void anExplicitPolicyIsTheWholeSet() throws Exception {
        Files.writeString(sub.resolve("agent.lock"), "version: 1\nprotect:\n  - mine.txt\n");
        PolicySet set = PolicySet.explicit(PolicyLoader.load(sub.resolve("agent.lock")));
        assertTrue(set.isExplicit());
        assertEquals(List.of(sub.resolve("agent.lock")), set.files());
        assertFalse(isProtected(set, top.resolve("secret.txt")));
    }

    @Test
    void anEntryBeneathAnotherPolicysProtectedDirectoryIsCovered() throws Exception {
        Files.writeString(top.resolve("conf/agent.lock"), "version: 1\nprotect:\n  - a.yml\n");
        PolicySet set = PolicySet.inForceAt(top.resolve("conf"));
        Map<String, Expansion.Entry> m = snapshot(set.expand(false));
        assertTrue(m.containsKey("conf"));
        assertFalse(m.containsKey("conf/a.yml"), "covered by conf/: " + m.keySet());
        assertFalse(m.containsKey("conf/agent.lock"), "covered by conf/: " + m.keySet());
    }

    @Test
    void rulesSayWhereTheyAreWritten() throws Exception {
        Files.writeString(sub.resolve("agent.lock"), "version: 1\nprotect:\n  - mine.txt\n");
        Rule r = PolicySet.inForceAt(sub).check(sub.resolve("mine.txt")).get(0);
        assertEquals(sub.resolve("agent.lock").toString() + ":3", r.location());
        assertEquals("\"mine.txt\" (" + sub.resolve("agent.lock") + ":3)", RuleText.of(r, RuleText.Naming.SHOWN));
        assertEquals("\"mine.txt\" (agent.lock:3)", RuleText.of(r, RuleText.Naming.FILE_NAME));
        assertEquals("\"mine.txt\" (" + sub.resolve("agent.lock") + ":3:5)", RuleText.of(r, RuleText.Naming.ABSOLUTE));
    }

    static Map<String, Expansion.Entry> snapshot(Expansion e) {
        Map<String, Expansion.Entry> m = new TreeMap<>();
        for (Expansion.Entry entry : e.entries()) {
            m.put(entry.relPath(), entry);
        }
        return m;
    }

    /** A link on the way of any policy in force stays in the set's expansion (links on the way, docs/security.md). */
    @Test
    void linksOnTheWayOfEveryPolicyInForce() throws Exception {
        Files.createDirectories(top.resolve("real"));
        Files.writeString(top.resolve("real/x.key"), "x");
        Files.createDirectories(top.resolve("lib"));
        Files.createSymbolicLink(top.resolve("lib/door"), Path.of("../real"));
        Files.writeString(top.resolve("agent.lock"), "version: 1\nprotect:\n  - lib/door/*.key\n");
        Files.createDirectories(sub.resolve("r2"));
        Files.writeString(sub.resolve("r2/y.key"), "y");
        Files.createSymbolicLink(sub.resolve("door2"), Path.of("r2"));
        Files.writeString(sub.resolve("agent.lock"), "version: 1\nprotect:\n  - door2/y.key\n");
        Expansion e = PolicySet.inForceAt(sub).expand(false);
        Map<String, String> links = new TreeMap<>();
        for (Expansion.Entry l : e.linksOnTheWay()) {
            links.put(l.relPath(), l.via());
        }
        assertEquals(Map.of("lib/door", "lib/door/x.key", "sub/door2", "sub/door2/y.key"), links);
    }
}
