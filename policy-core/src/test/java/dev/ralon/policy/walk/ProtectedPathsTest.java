package dev.ralon.policy.walk;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.policy.Expansion;
import dev.ralon.policy.Expansion.Entry;
import dev.ralon.policy.Expansion.Entry.Kind;
import dev.ralon.policy.Policy;
import dev.ralon.policy.Rule;
import dev.ralon.policy.Warning;
import dev.ralon.policy.load.PolicyLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ProtectedPaths#expand} on real temporary trees. */
class ProtectedPathsTest {
    @TempDir
    Path tmp;

    Path root;

    private Expansion expand(String... patterns) throws Exception {
        root = root == null ? tmp.toRealPath() : root;
        StringBuilder sb = new StringBuilder("version: 1\nprotect:" + (patterns.length == 0 ? " []" : "") + "\n");
        for (String p : patterns) {
            sb.append("  - '").append(p.replace("'", "''")).append("'\n");
        }
        Files.writeString(root.resolve("agent.lock"), sb.toString());
        return ProtectedPaths.expand(PolicyLoader.load(root.resolve("agent.lock")));
    }

    private Path file(String rel) throws IOException {
        root = root == null ? tmp.toRealPath() : root;
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        return Files.writeString(p, rel);
    }

    private Path dir(String rel) throws IOException {
        root = root == null ? tmp.toRealPath() : root;
        return Files.createDirectories(root.resolve(rel));
    }

    private Path link(String rel, String target) throws IOException {
        root = root == null ? tmp.toRealPath() : root;
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        return Files.createSymbolicLink(p, Path.of(target));
    }

    static Map<String, Kind> kinds(Expansion e) {
        Map<String, Kind> m = new LinkedHashMap<>();
        for (Entry en : e.entries()) {
            m.put(en.relPath(), en.kind());
        }
        return m;
    }

    static Entry entry(Expansion e, String rel) {
        return e.entries().stream().filter(en -> en.relPath().equals(rel)).findFirst().orElse(null);
    }

    @Test
    void aPatternThatHoldsADirectoryProtectsTheDirectoryAsAWhole() throws Exception {
        file(".github/workflows/ci.yml");
        file(".github/workflows/sub/x.yml");
        file(".github/CODEOWNERS");
        Expansion e = expand(".github/workflows/**");
        assertEquals(Map.of("agent.lock", Kind.FILE, ".github/workflows", Kind.DIRECTORY), kinds(e));
        assertEquals(1, e.counts().get(e.policy().declaredRules().get(0)));
        // the same for X/* and X/**/*; X/**/*.yml is expanded file by file
        assertEquals(Kind.DIRECTORY, kinds(expand(".github/workflows/*")).get(".github/workflows"));
        assertEquals(Kind.DIRECTORY, kinds(expand(".github/workflows/**/*")).get(".github/workflows"));
        Map<String, Kind> yml = kinds(expand(".github/workflows/**/*.yml"));
        assertEquals(Map.of("agent.lock", Kind.FILE, ".github/workflows/ci.yml", Kind.FILE,
                ".github/workflows/sub/x.yml", Kind.FILE), yml);
        // every directory named b, wherever it is
        file("p/b/k");
        file("q/r/b/k");
        Map<String, Kind> bs = kinds(expand("**/b/**"));
        assertEquals(Kind.DIRECTORY, bs.get("p/b"));
        assertEquals(Kind.DIRECTORY, bs.get("q/r/b"));
    }

    @Test
    void aHeldDirectoryThatDoesNotExistIsAMissingPathLikeALiteral() throws Exception {
        dir(".github");
        Expansion e = expand(".github/workflows/**");
        assertEquals(Kind.MISSING, kinds(e).get(".github/workflows"));
        // and a held path that is a file is protected itself (the policy protects X whatever X is)
        file("notes");
        assertEquals(Kind.FILE, kinds(expand("notes/**")).get("notes"));
    }

    @Test
    void theImplicitRuleListsThePolicyFile() throws Exception {
        Expansion e = expand();
        assertEquals(Map.of("agent.lock", Kind.FILE), kinds(e));
        Entry self = e.entries().get(0);
        assertTrue(self.rules().get(0).implicit());
        assertEquals(root.resolve("agent.lock"), self.path());
        assertTrue(e.unmatched().isEmpty());
        assertTrue(e.warningMessages().isEmpty(), e.warningMessages().toString());
    }

    @Test
    void aMatchedDirectoryIsOneEntryAndIsNotEntered() throws Exception {
        file("src/auth/login.ts");
        file("src/auth/deep/key.pem");
        file("src/app.ts");
        file("secrets/a.pem");
        Expansion e = expand("src/auth/", "**/*.pem", "secrets", "secrets/a.pem");
        assertEquals(Map.of("agent.lock", Kind.FILE, "secrets", Kind.DIRECTORY, "src/auth", Kind.DIRECTORY), kinds(e));
        assertEquals(List.of("secrets"), entry(e, "secrets").rules().stream().map(Rule::pattern).toList(),
                "the directory entry names the rule that matched it");
        Map<String, Integer> counts = new LinkedHashMap<>();
        e.counts().forEach((r, n) -> counts.put(r.pattern(), n));
        assertEquals(1, counts.get("src/auth/"));
        assertEquals(1, counts.get("secrets"));
        assertEquals(0, counts.get("**/*.pem"), "the .pem files are inside matched directories, not listed");
        assertEquals(0, counts.get("secrets/a.pem"));
        assertEquals(List.of("**/*.pem", "secrets/a.pem"), e.unmatched().stream().map(Rule::pattern).toList());
        for (Entry en : e.entries()) {
            assertEquals(root.resolve(en.relPath()), en.path());
        }
    }

    @Test
    void symlinkedDirectoriesAreNeverEntered() throws Exception {
        file("real/x.pem");
        link("door", "real");
        Path outside = Files.createTempDirectory("ralon-out");
        try {
            Files.writeString(outside.resolve("o.pem"), "o");
            link("away", outside.toString());
            Expansion e = expand("**/*.pem");
            assertEquals(Map.of("agent.lock", Kind.FILE, "real/x.pem", Kind.FILE), kinds(e),
                    "door/x.pem and away/o.pem are reached only through links");
        } finally {
            Files.delete(outside.resolve("o.pem"));
            Files.delete(outside);
        }
    }

    @Test
    void aMatchedLinkProtectsItsTargetInsideTheRoot() throws Exception {
        file("conf/app.yml");
        dir("data/inner");
        link("app.yml", "conf/app.yml");
        link("datalink", "data");
        Expansion e = expand("app.yml", "datalink");
        assertEquals(Kind.SYMLINK, entry(e, "app.yml").kind());
        Entry target = entry(e, "conf/app.yml");
        assertEquals(Kind.FILE, target.kind());
        assertEquals("app.yml", target.via());
        assertEquals("app.yml", target.rules().get(0).pattern());
        Entry dirTarget = entry(e, "data");
        assertEquals(Kind.DIRECTORY, dirTarget.kind());
        assertEquals("datalink", dirTarget.via());
        assertNull(entry(e, "app.yml").via());
        assertEquals(1, e.counts().get(e.policy().declaredRules().get(0)), "a link target is not counted as a match");
        assertTrue(e.warningMessages().isEmpty(), e.warningMessages().toString());
    }

    @Test
    void aTargetInsideAMatchedDirectoryIsNotListedTwice() throws Exception {
        file("locked/f");
        link("l", "locked/f");
        Expansion e = expand("locked/", "l");
        assertEquals(Map.of("agent.lock", Kind.FILE, "l", Kind.SYMLINK, "locked", Kind.DIRECTORY), kinds(e));
    }

    @Test
    void aDirectoryTargetSwallowsEntriesBeneathIt() throws Exception {
        file("d/k.pem");
        link("dl", "d");
        Expansion e = expand("dl", "d/k.pem");
        assertEquals(Map.of("agent.lock", Kind.FILE, "d", Kind.DIRECTORY, "dl", Kind.SYMLINK), kinds(e));
        assertEquals("dl", entry(e, "d").via());
    }

    @Test
    void aLinkOutsideTheRootWarnsThatItsTargetIsNotProtected() throws Exception {
        Path outside = Files.createTempDirectory("ralon-out");
        try {
            Path target = Files.writeString(outside.resolve("creds"), "c");
            link("creds", target.toString());
            link("dangling", "does-not-exist");
            Expansion e = expand("creds", "dangling");
            assertEquals(Map.of("agent.lock", Kind.FILE, "creds", Kind.SYMLINK, "dangling", Kind.SYMLINK), kinds(e));
            assertEquals(2, e.warningMessages().size(), e.warningMessages().toString());
            String w = String.join("\n", e.warningMessages());
            assertTrue(w.contains("creds") && w.contains("outside") && w.contains(target.toRealPath().toString()), w);
            assertTrue(w.contains("dangling") && w.contains("nothing that exists"), w);
        } finally {
            Files.walk(outside).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void aPatternMatchingOnlyInsideAProtectedDirectorySaysSoInsteadOfNothing() throws Exception {
        file("secrets/server.pem");
        file("vault/key");
        Expansion e = expand("secrets/", "**/*.pem", "*.key");
        // check --explain names both rules for secrets/server.pem: the warning must not say it matches nothing at all
        assertEquals(List.of("agent.lock:4:5: pattern \"**/*.pem\" matches nothing that exists outside the protected"
                + " directories (secrets/: protected as a whole, their contents are not searched)",
                "agent.lock:5:5: pattern \"*.key\" matches nothing that exists"), e.warningMessages());
    }

    @Test
    void literalPatternsNamingNothingAreMissingEntries() throws Exception {
        file("present");
        Expansion e = expand("present", "secrets/new.key", "*.nothing", "deep/er/file");
        assertEquals(Kind.FILE, entry(e, "present").kind());
        assertEquals(Kind.MISSING, entry(e, "secrets/new.key").kind());
        assertEquals(root.resolve("secrets/new.key"), entry(e, "secrets/new.key").path());
        assertEquals(Kind.MISSING, entry(e, "deep/er/file").kind());
        assertNull(entry(e, "*.nothing"), "a wildcard naming nothing is no entry");
        assertEquals(List.of("secrets/new.key", "*.nothing", "deep/er/file"),
                e.unmatched().stream().map(Rule::pattern).toList(), "MISSING entries do not count as matches");
        assertEquals(List.of("agent.lock:4:5: pattern \"secrets/new.key\" names nothing that exists yet",
                "agent.lock:5:5: pattern \"*.nothing\" matches nothing that exists",
                "agent.lock:6:5: pattern \"deep/er/file\" names nothing that exists yet"), e.warningMessages());
        assertEquals(List.of(Warning.Kind.NAMES_NOTHING_YET, Warning.Kind.MATCHES_NOTHING, Warning.Kind.NAMES_NOTHING_YET),
                e.warnings().stream().map(Warning::kind).toList());
        Warning first = e.warnings().get(0);
        assertEquals(List.of(4, 5, "pattern \"secrets/new.key\" names nothing that exists yet"),
                List.of(first.line(), first.column(), first.text()), "placed where the pattern is written");
    }

    @Test
    void aMissingLiteralInsideAMatchedDirectoryIsCovered() throws Exception {
        dir("vault");
        Expansion e = expand("vault", "vault/later.txt");
        assertEquals(Map.of("agent.lock", Kind.FILE, "vault", Kind.DIRECTORY), kinds(e));
    }

    @Test
    void aSlashLessPatternThatWouldOnlyMatchDeeperIsExplained() throws Exception {
        file("certs/server.pem");
        file("a/b/client.pem");
        Expansion e = expand("*.pem");
        assertEquals(Map.of("agent.lock", Kind.FILE), kinds(e));
        assertEquals(1, e.warningMessages().size(), e.warningMessages().toString());
        String w = e.warningMessages().get(0);
        assertTrue(w.contains("\"*.pem\"") && w.startsWith("agent.lock:3:5: ") && w.contains("2 paths deeper")
                && w.contains("**/*.pem"), w);
    }

    @Test
    void theDeeperCountIsTheFloatingPatternsOwnWalk() throws Exception {
        // counted during the policy's one walk: inside a directory the policy protects (which the policy's rules do
        // not enter), not beneath a directory the floating pattern itself matches, once per real path through links
        file("vault/a/node_modules/x");
        file("b/node_modules/c/node_modules/y");
        file("b/keep.txt");
        link("door", "b");
        Expansion e = expand("vault/", "node_mod*", "b/keep.txt");
        assertEquals(Map.of("agent.lock", Kind.FILE, "vault", Kind.DIRECTORY, "b/keep.txt", Kind.FILE), kinds(e));
        assertEquals(1, e.warningMessages().size(), e.warningMessages().toString());
        assertTrue(e.warningMessages().get(0).contains("would match 2 paths deeper"), e.warningMessages().get(0));
    }

    @Test
    void withoutTheDeeperAdviceTheEntriesAreTheSameAndTheWalkStaysWhereRulesMatch() throws Exception {
        file("certs/server.pem");
        file("a/b/client.pem");
        file("vault/key");
        Path unreadable = dir("a/b/locked");
        Expansion advised = expand("*.pem", "vault/");
        // a directory only the advice would enter: if the walk went there it would say it cannot list it
        unreadable.toFile().setReadable(false);
        unreadable.toFile().setExecutable(false);
        try {
            Expansion plain = ProtectedPaths.expand(PolicyLoader.load(root.resolve("agent.lock")), false);
            assertEquals(kinds(advised), kinds(plain));
            assertEquals(List.of("agent.lock:3:5: pattern \"*.pem\" matches nothing that exists"), plain.warningMessages(),
                    "no walk beyond vault/ (so no word about a/b/locked), no count of what lies deeper");
        } finally {
            unreadable.toFile().setExecutable(true);
            unreadable.toFile().setReadable(true);
        }
        assertTrue(advised.warningMessages().get(0).contains("2 paths deeper"), advised.warningMessages().toString());
    }

    @Test
    void aSlashLessPatternThatMatchesAtTheTopIsNotExplained() throws Exception {
        file("top.pem");
        file("a/deep.pem");
        Expansion e = expand("*.pem");
        assertEquals(Map.of("agent.lock", Kind.FILE, "top.pem", Kind.FILE), kinds(e));
        assertTrue(e.warningMessages().isEmpty(), e.warningMessages().toString());
    }

    @Test
    void protectingGitIsExplained() throws Exception {
        file(".git/HEAD");
        file(".git/hooks/pre-commit");
        file(".git/refs/heads/main");
        Expansion e = expand(".git/refs/heads");
        assertEquals(Kind.DIRECTORY, entry(e, ".git/refs/heads").kind());
        assertEquals(1, e.warningMessages().size(), e.warningMessages().toString());
        assertTrue(e.warningMessages().get(0).contains(".git/refs/heads") && e.warningMessages().get(0).contains("commit"), e.warningMessages().get(0));
        // .git/hooks is not written by commit, checkout or status: no backend-independent warning (under landlock,
        // the CLI says that .git becomes create-restricted)
        Expansion hooks = expand(".git/hooks");
        assertEquals(Kind.DIRECTORY, entry(hooks, ".git/hooks").kind());
        assertTrue(hooks.warningMessages().isEmpty(), hooks.warningMessages().toString());
        dir("src");
        Expansion none = expand("src");
        assertTrue(none.warningMessages().isEmpty(), none.warningMessages().toString());
    }

    @Test
    void entriesAreSortedAndKindsAreWhatIsThere() throws Exception {
        file("b");
        dir("a");
        link("c", "b");
        Path fifo = root.resolve("d");
        assertEquals(0, TestProcess.of("mkfifo", fifo.toString()).run().code());
        Expansion e = expand("*");
        assertEquals(List.of("a", "agent.lock", "b", "c", "d"), e.entries().stream().map(Entry::relPath).toList());
        assertEquals(List.of(Kind.DIRECTORY, Kind.FILE, Kind.FILE, Kind.SYMLINK, Kind.OTHER),
                e.entries().stream().map(Entry::kind).toList());
        assertFalse(e.entries().stream().anyMatch(en -> en.via() != null), "c's target b is already listed");
    }

    /**
     * A literal pattern that names an existing path through a symbolic link to a directory: the walk does not enter
     * the link, but {@link Policy#check} calls the path protected, so `run` must protect what it reaches (else
     * writing through the link would succeed while `check` says it is protected).
     */
    @Test
    void aLiteralThroughALinkedDirectoryProtectsWhatItReaches() throws Exception {
        file("real/x.key");
        link("door", "real");
        Path outside = Files.createTempDirectory("ralon-out");
        try {
            Files.writeString(outside.resolve("y.key"), "y");
            link("away", outside.toString());
            Expansion e = expand("door/x.key", "away/y.key");
            assertFalse(e.policy().check(root.resolve("door/x.key")).isEmpty(), "check says protected");
            Entry reached = entry(e, "real/x.key");
            assertTrue(reached != null && reached.kind() == Kind.FILE, kinds(e).toString());
            assertEquals("door/x.key", reached.via());
            assertNull(entry(e, "door/x.key"), "no MISSING entry for a path that exists");
            assertEquals(1, e.counts().get(e.policy().declaredRules().get(0)), "door/x.key matched what it reaches");
            assertEquals(1, e.warningMessages().size(), e.warningMessages().toString());
            String w = e.warningMessages().get(0);
            // one warning for the link on the way (the walk reaches beneath it for any pattern, literal or not)
            assertTrue(w.contains("beneath away, a symbolic link to " + outside.toRealPath() + " outside the project"), w);
        } finally {
            Files.delete(outside.resolve("y.key"));
            Files.delete(outside);
        }
    }

    @Test
    void wildcardPatternsReachingThroughALinkedDirectoryProtectTheRealPaths() throws Exception {
        file("real/x.key");
        file("real/notes.txt");
        link("door", "real");
        Expansion e = expand("door/*.key");
        Entry x = e.entries().stream().filter(en -> en.relPath().equals("real/x.key")).findFirst().orElseThrow();
        assertEquals("door/x.key", x.via(), "the lexical path the policy names");
        assertEquals(root.resolve("real/x.key"), x.path());
        assertFalse(kinds(e).containsKey("real/notes.txt"));
        // Policy.check agrees for the lexical path: check and run see the same file as protected
        assertFalse(e.policy().check(root.resolve("door/x.key")).isEmpty());
    }

    @Test
    void linksLeadingOutsideAreReportedAndCyclesEndTheWalk() throws Exception {
        Path outside = Files.createDirectories(tmp.resolve("../" + tmp.getFileName() + "-outside")).toRealPath();
        Files.writeString(outside.resolve("z.conf"), "z");
        dir("proj");
        root = tmp.toRealPath().resolve("proj");
        link("etc", outside.toString());
        link("loop", ".");
        file("real/y.key");
        link("door", "real");
        Expansion e = expand("etc/*.conf", "loop/door/*.key");
        assertTrue(e.warningMessages().stream().anyMatch(w -> w.contains("a symbolic link to " + outside
                + " outside the project: paths reached through it are not protected")), e.warningMessages().toString());
        assertTrue(kinds(e).containsKey("real/y.key"), "reached through two links: " + kinds(e));
        Files.delete(outside.resolve("z.conf"));
        Files.delete(outside);
    }

    static Map<String, String> linksOnTheWay(Expansion e) {
        Map<String, String> m = new LinkedHashMap<>();
        for (Entry en : e.linksOnTheWay()) {
            assertEquals(Kind.SYMLINK, en.kind());
            m.put(en.relPath(), en.via());
        }
        return m;
    }

    /** Links on the way (docs/security.md): the link a protected path is reached through is listed, so that a run can keep it from being retargeted. */
    @Test
    void theLinksOnTheWayToAProtectedPathAreListed() throws Exception {
        file("real/x.key");
        file("real2/app.key");
        file("real3/nested/deep.key");
        link("lib/door", "../real");
        link("etc/conf", "../common/current");
        link("common/current", "../real2");
        link("abs", root.resolve("real3").toString());
        link("real3/hop", "nested");
        Expansion e = expand("lib/door/*.key", "etc/conf/app.key", "abs/hop/deep.key", "unrelated/**");
        assertEquals(Map.of("lib/door", "lib/door/x.key", "etc/conf", "etc/conf/app.key",
                "common/current", "etc/conf/app.key", "abs", "abs/hop/deep.key", "real3/hop", "abs/hop/deep.key"),
                linksOnTheWay(e));
        assertEquals("lib/door/x.key", entry(e, "real/x.key").via());
        assertEquals("etc/conf/app.key", entry(e, "real2/app.key").via());
        assertEquals("abs/hop/deep.key", entry(e, "real3/nested/deep.key").via());
        assertEquals(1, e.counts().get(e.policy().declaredRules().get(0)), "a link on the way is not a match");
    }

    @Test
    void noLinkNoLinksOnTheWay() throws Exception {
        file("real/x.key");
        link("elsewhere", "real");
        assertTrue(expand("real/*.key").linksOnTheWay().isEmpty(), "a link no protected path is reached through");
    }

    @Test
    void aLinkInsideAProtectedDirectoryOrItselfProtectedIsNotListedAgain() throws Exception {
        file("real/x.key");
        link("locked/door", "../real");
        link("door2", "real");
        Expansion e = expand("locked/", "door2", "locked/door/x.key");
        assertTrue(e.linksOnTheWay().isEmpty(), e.linksOnTheWay().toString());
    }

    /** A literal that does not exist behind a link is recorded where creating it would create it. */
    @Test
    void aMissingLiteralBehindALinkIsRecordedAtItsRealPlace() throws Exception {
        dir("real");
        link("lib/door", "../real");
        Expansion e = expand("lib/door/new.key");
        Entry missing = entry(e, "real/new.key");
        assertEquals(Kind.MISSING, missing.kind());
        assertEquals("lib/door/new.key", missing.via());
        assertEquals(Map.of("lib/door", "lib/door/new.key"), linksOnTheWay(e));
    }

    @Test
    void aLinkOnTheWayOutsideTheRootIsReported() throws Exception {
        Path outside = Files.createTempDirectory("ralon-out-").toRealPath();
        try {
            root = Files.createDirectories(tmp.resolve("proj")).toRealPath();
            file("real/x.key");
            Files.createSymbolicLink(outside.resolve("back"), root.resolve("real"));
            link("door", outside.resolve("back").toString());
            Expansion e = expand("door/x.key");
            assertEquals(Map.of("door", "door/x.key"), linksOnTheWay(e));
            assertTrue(e.warningMessages().stream().anyMatch(w -> w.contains(outside.resolve("back").toString())
                    && w.contains("not protected")), e.warningMessages().toString());
        } finally {
            Files.deleteIfExists(outside.resolve("back"));
            Files.deleteIfExists(outside);
        }
    }

    @Test
    void linkResolutionFollowsTheKernelsRules() throws Exception {
        root = tmp.toRealPath();
        file("a/b/f");
        link("x", "a/./b/../b");
        link("loop1", "loop2");
        link("loop2", "loop1");
        LinkResolution r = LinkResolution.resolve(root, "x/f");
        assertEquals(List.of(root.resolve("x")), r.links());
        assertEquals(root.resolve("a/b/f"), r.reached());
        LinkResolution missing = LinkResolution.resolve(root, "x/none/deeper");
        assertEquals(root.resolve("a/b/none/deeper"), missing.reached());
        LinkResolution loop = LinkResolution.resolve(root, "loop1/f");
        assertNull(loop.reached(), "ELOOP after 40 links");
        assertEquals(LinkResolution.MAX_LINKS + 1, loop.links().size());
    }
}
