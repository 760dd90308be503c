package dev.ralon.policy.glob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GlobTest {

    static Glob g(String raw) {
        try {
            return Glob.compile(raw);
        } catch (PatternException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void api() {
        Glob glob = g("./src//main/");
        assertEquals("./src//main/", glob.source());
        assertEquals("./src//main/", glob.toString());
        assertEquals("src/main", glob.normalized());
        assertTrue(glob.isLiteral());
        assertEquals("src/main", glob.literalPath());
        assertEquals(g("./src//main/"), glob);
        assertEquals(g("./src//main/").hashCode(), glob.hashCode());
        assertNotEquals(g("src/main"), glob);
        Glob wild = g("src/*.java");
        assertFalse(wild.isLiteral());
        assertThrows(IllegalStateException.class, wild::literalPath);
        assertThrows(NullPointerException.class, () -> Glob.compile(null));
    }

    @Test
    void malformedPathArguments() {
        Glob glob = g("a");
        for (String bad : new String[] {"", "/a", "a/"}) {
            assertThrows(IllegalArgumentException.class, () -> glob.matches(bad), bad);
            assertThrows(IllegalArgumentException.class, () -> glob.matchesExactly(bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> glob.couldMatchBeneath("/a"));
        assertThrows(IllegalArgumentException.class, () -> glob.couldMatchBeneath("a/"));
        assertTrue(glob.couldMatchBeneath(""));
    }

    @Test
    void couldMatchBeneath() {
        Glob java = g("src/*.java");
        assertTrue(java.couldMatchBeneath(""));
        assertTrue(java.couldMatchBeneath("src"));
        assertFalse(java.couldMatchBeneath("src/main"));
        assertFalse(java.couldMatchBeneath("test"));
        assertTrue(java.couldMatchBeneath("src/A.java"), "a matched directory covers everything beneath it");

        Glob pem = g("*.pem");
        assertFalse(pem.couldMatchBeneath("certs"), "no floating: *.pem is top level only");
        assertTrue(pem.couldMatchBeneath("odd.pem"));

        Glob deep = g("**/*.pem");
        assertTrue(deep.couldMatchBeneath("a/b/c"));

        Glob lit = g("a/b/c");
        assertTrue(lit.couldMatchBeneath("a"));
        assertTrue(lit.couldMatchBeneath("a/b"));
        assertTrue(lit.couldMatchBeneath("a/b/c"));
        assertTrue(lit.couldMatchBeneath("a/b/c/d"));
        assertFalse(lit.couldMatchBeneath("a/x"));
        assertFalse(lit.couldMatchBeneath("b"));

        Glob mid = g("a/**/z");
        assertTrue(mid.couldMatchBeneath("a/q/r"));
        assertFalse(mid.couldMatchBeneath("b"));
        Glob tail = g("build/**");
        assertTrue(tail.couldMatchBeneath("build"));
        assertTrue(tail.couldMatchBeneath("build/x/y"));
        assertFalse(tail.couldMatchBeneath("src"));
    }

    @Test
    void matchesExactlyVersusMatches() {
        Glob glob = g("target");
        assertTrue(glob.matchesExactly("target"));
        assertFalse(glob.matchesExactly("target/classes/A.class"));
        assertTrue(glob.matches("target/classes/A.class"));
        assertFalse(glob.matches("src/target"));
    }

    /** Patterns of 64 segments or more use the general (array) automaton: same answers. */
    @Test
    void veryLongPatterns() {
        StringBuilder p = new StringBuilder("**");
        StringBuilder path = new StringBuilder("x/y");
        for (int i = 0; i < 70; i++) {
            p.append("/a").append(i % 3 == 0 ? "/**" : "");
            path.append("/a");
            if (i % 3 == 0) {
                path.append("/q");
            }
        }
        p.append("/b");
        Glob glob = g(p.toString());
        assertTrue(glob.matchesExactly(path + "/b"));
        assertTrue(glob.matches(path + "/b/c/d"));
        assertFalse(glob.matchesExactly(path + "/b/c"));
        assertFalse(glob.matchesExactly(path + "/c"));
        assertTrue(glob.couldMatchBeneath(path.toString()));
        String fewer = path.toString().replaceFirst("/a", "/c");
        assertFalse(glob.matches(fewer + "/b"));

        StringBuilder lit = new StringBuilder("d0");
        for (int i = 1; i < 80; i++) {
            lit.append("/d").append(i);
        }
        Glob literal = g(lit + "/**");
        assertTrue(literal.matches(lit + "/f"));
        assertFalse(literal.matches(lit.toString()));
        assertTrue(literal.couldMatchBeneath("d0/d1"));
        assertFalse(literal.couldMatchBeneath("d0/x"));
    }

    /**
     * Hang guard only (speed goals live in the benchmarks): these inputs take exponential time in a backtracking
     * matcher; the bound is generous and only catches a blow-up.
     */
    @Test
    void pathologicalPatternsStayPolynomial() {
        String as = "a".repeat(10_000);
        StringBuilder segs = new StringBuilder("a");
        for (int i = 1; i < 200; i++) {
            segs.append("/a");
        }
        String deep = segs.toString();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            for (int rep = 0; rep < 20; rep++) {
                assertFalse(g("*a*a*a*a*a*a*a*a*b").matches(as));
                assertTrue(g("*a*a*a*a*a*a*a*a*a").matches(as));
                assertFalse(g("*?*?*?*?*?*?*?*?*?*?b").matches(as));
                assertFalse(g("*[a]*[a]*[a]*[a]*[a]*[!a]").matches(as));
                assertFalse(g("**/**/**/**/**/x").matches(deep));
                assertTrue(g("**/**/**/**/**/a").matches(deep));
                assertFalse(g("**/a/**/a/**/a/**/a/**/a/**/b").matches(deep));
                assertFalse(g("**/a*/**/*a/**/a/**/?/**/[a]/**/b").matchesExactly(deep));
                assertTrue(g("**/a/**/a/**/a/**/a/**/a/**").matchesExactly(deep));
                assertTrue(g("**/a/**/a/**/a").couldMatchBeneath(deep));
            }
        });
    }

    // ---------------------------------------------------------------------------------------------------------------
    // seeded properties (no git needed, includes non-ASCII and special characters in names)

    private static final String CHARS = "ab.-*?[]\\! \u00e9\ud83d\ude00";

    private static String name(Random r) {
        StringBuilder b = new StringBuilder();
        int len = 1 + r.nextInt(4);
        for (int i = 0; i < len; i++) {
            b.appendCodePoint(CHARS.codePointAt(CHARS.offsetByCodePoints(0, r.nextInt(CHARS.codePointCount(0,
                    CHARS.length())))));
        }
        return b.toString();
    }

    private static String path(Random r) {
        int n = 1 + r.nextInt(5);
        List<String> s = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            s.add(name(r));
        }
        return String.join("/", s);
    }

    private static final String[] PIECES = {
        "a", "b", ".", "-", "\\*", "\\?", "\\[", "]", "\\\\", "\\!", " ", "\u00e9", "\ud83d\ude00",
        "*", "?", "[ab]", "[!a]", "[^.-]", "[\u00e9\ud83d\ude00]", "[[:alpha:]]", "[]-]", "[a-\u00ff]", "**"
    };

    private static String pattern(Random r) {
        int n = 1 + r.nextInt(4);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                b.append('/');
            }
            if (r.nextInt(5) == 0) {
                b.append("**");
                continue;
            }
            int k = 1 + r.nextInt(3);
            for (int j = 0; j < k; j++) {
                b.append(PIECES[r.nextInt(PIECES.length)]);
            }
        }
        return b.toString();
    }

    private static Glob tryCompile(String raw) {
        try {
            return Glob.compile(raw);
        } catch (PatternException e) {
            return null;
        }
    }

    @Test
    void coversIsExactOnSomeAncestorAndPruningIsSound() {
        long seed = dev.ralon.testsupport.Seeds.seed("GlobTest.coversIsExactOnSomeAncestorAndPruningIsSound");
        Random r = new Random(seed);
        int checked = 0;
        for (int i = 0; i < 3000; i++) {
            Glob glob = tryCompile(pattern(r));
            if (glob == null) {
                continue;
            }
            for (int j = 0; j < 20; j++) {
                String p = path(r);
                String[] segs = p.split("/");
                boolean anyAncestor = false;
                StringBuilder prefix = new StringBuilder();
                for (int k = 0; k < segs.length; k++) {
                    if (k > 0) {
                        // pruning: if nothing beneath this directory can match, p cannot
                        if (!glob.couldMatchBeneath(prefix.toString())) {
                            assertFalse(glob.matches(p), "seed " + seed + ": couldMatchBeneath('" + prefix
                                    + "') false but matches('" + p + "') for '" + glob + "'");
                        }
                        prefix.append('/');
                    }
                    prefix.append(segs[k]);
                    anyAncestor |= glob.matchesExactly(prefix.toString());
                }
                assertEquals(anyAncestor, glob.matches(p), "seed " + seed + ": '" + glob + "' on '" + p + "'");
                assertTrue(glob.couldMatchBeneath("") || !glob.matches(p));
                checked++;
            }
        }
        assertTrue(checked > 20_000, "too few valid patterns: " + checked);
    }

    /**
     * Metamorphic: a literal character written as a one-member class or escaped, or the normalised form, gives the
     * same answers (this also pits the literal and prefix/suffix fast paths against the general segment matcher).
     */
    @Test
    void equivalentSpellingsAgree() {
        long seed = dev.ralon.testsupport.Seeds.seed("GlobTest.equivalentSpellingsAgree");
        Random r = new Random(seed);
        String[] words = {"a", "ab", "a.b", "b", "\u00e9a", "\ud83d\ude00", "a\ud83d\ude00b", "aab"};
        for (int i = 0; i < 2000; i++) {
            // a pattern of literals and stars only (fast paths), and the same with one literal as [c] or \c
            StringBuilder fast = new StringBuilder();
            StringBuilder cls = new StringBuilder();
            StringBuilder esc = new StringBuilder();
            int n = 1 + r.nextInt(3);
            for (int s = 0; s < n; s++) {
                if (s > 0) {
                    fast.append('/');
                    cls.append('/');
                    esc.append('/');
                }
                String w = words[r.nextInt(words.length)];
                int star = r.nextInt(4);
                String seg = star == 0 ? "*" + w : star == 1 ? w + "*" : star == 2 ? w : "**";
                fast.append(seg);
                if (seg.equals("**")) {
                    cls.append(seg);
                    esc.append(seg);
                    continue;
                }
                seg.codePoints().forEach(c -> {
                    if (c == '*') {
                        cls.append('*');
                        esc.append('*');
                    } else {
                        cls.append('[').appendCodePoint(c).append(']');
                        esc.append('\\').appendCodePoint(c);
                    }
                });
            }
            // and with only the last character of each segment as [c]: the general matcher with literal runs
            StringBuilder mixed = new StringBuilder();
            for (String seg : fast.toString().split("/")) {
                if (mixed.length() > 0) {
                    mixed.append('/');
                }
                int lastCp = seg.codePointBefore(seg.length());
                if (seg.equals("**") || lastCp == '*') {
                    mixed.append(seg);
                } else {
                    mixed.append(seg, 0, seg.length() - Character.charCount(lastCp)).append('[')
                            .appendCodePoint(lastCp).append(']');
                }
            }
            Glob a = g(fast.toString());
            Glob b = g(cls.toString());
            Glob c = g(esc.toString());
            Glob d = g(a.normalized());
            Glob e = g(mixed.toString());
            for (int j = 0; j < 15; j++) {
                StringBuilder p = new StringBuilder();
                int m = 1 + r.nextInt(4);
                for (int s = 0; s < m; s++) {
                    if (s > 0) {
                        p.append('/');
                    }
                    int parts = 1 + r.nextInt(2);
                    for (int q = 0; q < parts; q++) {
                        p.append(words[r.nextInt(words.length)]);
                    }
                }
                String path = p.toString();
                boolean want = a.matchesExactly(path);
                String msg = "seed " + seed + ": '" + a + "' / '" + b + "' / '" + c + "' on '" + path + "'";
                assertEquals(want, b.matchesExactly(path), msg);
                assertEquals(want, c.matchesExactly(path), msg);
                assertEquals(want, d.matchesExactly(path), msg);
                assertEquals(want, e.matchesExactly(path), msg + " / '" + e + "'");
                assertEquals(a.matches(path), b.matches(path), msg);
                assertEquals(a.couldMatchBeneath(path), b.couldMatchBeneath(path), msg);
            }
        }
    }
}
