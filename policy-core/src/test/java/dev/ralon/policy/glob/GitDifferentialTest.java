package dev.ralon.policy.glob;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test against real git: {@code git check-ignore --no-index} with one {@code /PATTERN} line in
 * {@code .git/info/exclude} answers, for any path, whether the pattern or one of the path's ancestors matches it
 * (verified in {@link #gitReportsEverythingBeneathAnExcludedDirectory}), which is exactly {@link Glob#matches}.
 *
 * <p>Seeded random trees and patterns; the seed is printed on failure and {@code -Dralon.seed=N} replays it
 * ({@code -Dralon.rounds=N} changes the number of trees). Generation leaves out where the spec knowingly differs from
 * git (docs/spec-patterns.md): non-ASCII names and patterns ({@code ?} and classes match a code point here, a byte in
 * git), and the forms normalisation rewrites (git gets {@link Glob#normalized()}, so a trailing {@code /} never reaches
 * git as "directories only"). Trailing spaces are escaped for git, which would trim them.
 */
class GitDifferentialTest {

    private static final int PATTERNS_PER_TREE = 12;

    /** Names that do not exist in any generated tree, to ask git about paths created later beneath a held directory. */
    private static final List<String> HOLD_PROBES = List.of("x", ".hidden", "new file.yml", "\u00e9t\u00e9", "[", "*",
            "-", "a/b/c", "evil.yml");

    @TempDir
    static Path tmp;

    private static Path gitHome;

    @BeforeAll
    static void requireGit() throws Exception {
        gitHome = Files.createDirectories(tmp.resolve("home"));
        boolean ok;
        try {
            ok = run(tmp, null, "git", "--version").code() == 0;
        } catch (IOException e) {
            ok = false;
        }
        dev.ralon.testsupport.Requirements.require(ok, "git on PATH (the differential test's oracle)");
    }

    /**
     * The patterns that hold a directory (docs/spec-patterns.md): git ignores every path beneath it, whatever its
     * name; the patterns that do not hold it leave some name unignored.
     */
    @Test
    void heldDirectoriesHaveEveryPathBeneathThemMatchedByGit() throws Exception {
        Path repo = newRepo("held");
        Files.createDirectories(repo.resolve("a/c/b"));
        for (String pattern : List.of("a/**", "a/*", "a/?*", "a/**/*", "**/b/**", "*/**", "a/c/b/**")) {
            Glob g = Glob.compile(pattern);
            String dir = pattern.startsWith("**/b") || pattern.startsWith("a/c/b") ? "a/c/b" : "a";
            assertTrue(g.holds(dir), pattern + " holds " + dir);
            List<String> probes = HOLD_PROBES.stream().map(n -> dir + "/" + n).toList();
            assertEquals(Set.copyOf(probes), checkIgnore(repo, "/" + pattern, probes), pattern);
        }
        for (String pattern : List.of("a/**/*.yml", "a/*/**", "a/??*", "a/[!x]*", "a/x")) {
            Glob g = Glob.compile(pattern);
            assertEquals(false, g.holds("a"), pattern + " does not hold a");
            List<String> probes = HOLD_PROBES.stream().map(n -> "a/" + n).toList();
            assertTrue(checkIgnore(repo, "/" + pattern, probes).size() < probes.size(), pattern);
        }
    }

    /** The fact the oracle rests on: check-ignore reports everything beneath an excluded directory, existing or not. */
    @Test
    void gitReportsEverythingBeneathAnExcludedDirectory() throws Exception {
        Path repo = newRepo("fact");
        Files.createDirectories(repo.resolve("a/b/c"));
        Files.createFile(repo.resolve("a/b/c/f"));
        Files.createFile(repo.resolve("a/g"));
        Set<String> got = checkIgnore(repo, "/a/b", List.of("a/b/c/f", "a/b", "a/g", "a/b/not-there/x", "a"));
        assertEquals(Set.of("a/b/c/f", "a/b", "a/b/not-there/x"), got);
        Glob g = Glob.compile("a/b");
        for (String p : List.of("a/b/c/f", "a/b", "a/g", "a/b/not-there/x", "a")) {
            assertEquals(got.contains(p), g.matches(p), p);
        }
    }

    @Test
    void matchesAgreesWithGitCheckIgnore() throws Exception {
        long seed = dev.ralon.testsupport.Seeds.seed("GitDifferentialTest");
        int rounds = Integer.getInteger("ralon.rounds", 30);
        Random rnd = new Random(seed);
        List<String> failures = new ArrayList<>();
        int compared = 0;
        int patterns = 0;
        int rejected = 0;
        int quirks = 0;
        int pruned = 0;
        int matchedSome = 0;
        int held = 0;
        for (int round = 0; round < rounds && failures.size() < 20; round++) {
            Tree tree = Tree.generate(rnd);
            Path repo = newRepo("r" + round);
            tree.create(repo);
            List<String> all = new ArrayList<>(tree.files);
            all.addAll(tree.dirs);
            for (int k = 0; k < PATTERNS_PER_TREE; k++) {
                String raw = Patterns.generate(rnd, tree);
                Glob g;
                try {
                    g = Glob.compile(raw);
                } catch (PatternException e) {
                    rejected++;
                    continue;
                }
                if (gitPrefixQuirk(g.normalized())) {
                    quirks++;
                    continue;
                }
                patterns++;
                Set<String> ignored = checkIgnore(repo, "/" + forGit(g.normalized()), all);
                boolean any = false;
                for (String p : all) {
                    boolean want = ignored.contains(p);
                    any |= want;
                    compared++;
                    if (g.matches(p) != want) {
                        failures.add("pattern '" + raw + "' (normalised '" + g.normalized() + "') path '" + p
                                + "': git says " + want + ", Glob.matches says " + !want);
                    }
                }
                if (any) {
                    matchedSome++;
                }
                // holds must be sound: a held directory has every path beneath it ignored by git, whatever its name
                List<String> probes = new ArrayList<>();
                for (String d : tree.dirs) {
                    if (g.holds(d)) {
                        held++;
                        for (String name : HOLD_PROBES) {
                            probes.add(d + "/" + name);
                        }
                    }
                }
                if (!probes.isEmpty()) {
                    Set<String> gitSays = checkIgnore(repo, "/" + forGit(g.normalized()), probes);
                    for (String p : probes) {
                        if (!gitSays.contains(p)) {
                            failures.add("pattern '" + raw + "' holds the directory of '" + p
                                    + "' but git does not ignore that path");
                        }
                    }
                }
                // couldMatchBeneath must be sound: false => nothing strictly beneath matches
                List<String> dirs = new ArrayList<>(tree.dirs);
                dirs.add("");
                for (String d : dirs) {
                    if (!g.couldMatchBeneath(d)) {
                        pruned++;
                        String prefix = d.isEmpty() ? "" : d + "/";
                        for (String p : all) {
                            if (p.startsWith(prefix) && p.length() > prefix.length() && ignored.contains(p)) {
                                failures.add("pattern '" + raw + "': couldMatchBeneath('" + d + "') is false but git"
                                        + " ignores '" + p + "'");
                            }
                        }
                    }
                }
            }
        }
        String summary = String.format("seed %d: %d patterns (%d matched something; %d rejected, %d skipped as git"
                + " prefix quirk), %d path comparisons, %d pruned directories, %d held directories", seed, patterns,
                matchedSome, rejected, quirks, compared, pruned, held);
        System.out.println("[GitDifferentialTest] " + summary);
        if (!failures.isEmpty()) {
            fail("differential test against git failed; replay with -Dralon.seed=" + seed + "\n" + summary + "\n"
                    + String.join("\n", failures));
        }
        assertTrue(matchedSome > patterns / 3, "generator too weak: " + summary);
    }

    /**
     * git's check-ignore (dir.c match_pathname) compares the literal prefix of a pattern (up to the first of
     * {@code * ? [ \}) with plain string comparison and hands only the rest to wildmatch. If that rest starts with a
     * {@code **} followed by {@code /} or the end, wildmatch sees it at the start of a pattern and treats it as a
     * whole-segment {@code **}, although in the full pattern it follows another character: {@code ab**}{@code /x}
     * then matches {@code ab/c/x} in check-ignore, while wildmatch and gitignore(5) say such a {@code **} is a
     * plain {@code *}. The spec follows wildmatch (vector in match.json); such patterns are not sent to git.
     */
    static boolean gitPrefixQuirk(String pattern) {
        int i = 0;
        while (i < pattern.length() && "*?[\\".indexOf(pattern.charAt(i)) < 0) {
            i++;
        }
        if (i == 0 || i + 1 >= pattern.length() || pattern.charAt(i) != '*' || pattern.charAt(i + 1) != '*'
                || pattern.charAt(i - 1) == '/') {
            return false;
        }
        int j = i;
        while (j < pattern.length() && pattern.charAt(j) == '*') {
            j++;
        }
        return j == pattern.length() || pattern.charAt(j) == '/';
    }

    @Test
    void gitPrefixQuirkIsRealAndDetected() throws Exception {
        Path repo = newRepo("quirk");
        // the quirk exists in git (if a future git drops it, this test says so and the exclusion can go)
        assertEquals(Set.of("ab/c/x", "abz/x", "ab/x/y"),
                checkIgnore(repo, "/ab**/x", List.of("ab/c/x", "abz/x", "ab/x/y", "b/c/x")));
        assertEquals(Set.of("abz/x"), checkIgnore(repo, "/a*b**/x", List.of("ab/c/x", "abz/x")));
        // the spec: ** that is not a whole segment is *
        Glob g = Glob.compile("ab**/x");
        assertTrue(g.matches("abz/x"));
        assertEquals(false, g.matches("ab/c/x"));
        assertTrue(g.matches("ab/x/y"));
        assertTrue(gitPrefixQuirk("ab**/x"));
        assertTrue(gitPrefixQuirk(" **"));
        assertEquals(false, gitPrefixQuirk("a*b**/x"));
        assertEquals(false, gitPrefixQuirk("ab/**/x"));
        assertEquals(false, gitPrefixQuirk("**/x"));
        assertEquals(false, gitPrefixQuirk("ab**c"));
    }

    /** The other documented divergences, shown on real git so that the documentation stays true. */
    @Test
    void documentedDivergencesFromGit() throws Exception {
        Path repo = newRepo("divergences");
        Files.createDirectories(repo.resolve("d"));
        Files.createFile(repo.resolve("d/f"));
        Files.createFile(repo.resolve("a"));
        Files.createFile(repo.resolve("caf\u00e9"));
        // non-ASCII: git's ? matches one byte of UTF-8, ours one code point
        assertEquals(Set.of(), checkIgnore(repo, "/caf?", List.of("caf\u00e9")));
        assertEquals(Set.of("caf\u00e9"), checkIgnore(repo, "/caf??", List.of("caf\u00e9")));
        assertTrue(Glob.compile("caf?").matches("caf\u00e9"));
        assertEquals(false, Glob.compile("caf??").matches("caf\u00e9"));
        // trailing '/': directories only in git; removed by normalisation here
        assertEquals(Set.of("d", "d/f"), checkIgnore(repo, "/*/", List.of("a", "d", "d/f")));
        assertTrue(Glob.compile("*/").matches("a"));
        // **\/: git's wildmatch skips the zero-segment match after an escaped slash; here \/ is /
        assertEquals(Set.of("d/f"), checkIgnore(repo, "/**\\/f", List.of("f", "d/f")));
        assertTrue(Glob.compile("**\\/f").matches("f"));
        // an unterminated class never matches in git; rejected here
        assertEquals(Set.of(), checkIgnore(repo, "/a[", List.of("a[", "a")));
    }

    /** git trims unescaped trailing spaces from exclude lines: escape them (in wildmatch "\ " is a space). */
    static String forGit(String pattern) {
        int end = pattern.length();
        while (end > 0 && pattern.charAt(end - 1) == ' ') {
            end--;
        }
        if (end == pattern.length()) {
            return pattern;
        }
        // is the first trailing space already escaped? count the backslashes in front of it
        int bs = 0;
        for (int i = end - 1; i >= 0 && pattern.charAt(i) == '\\'; i--) {
            bs++;
        }
        StringBuilder b = new StringBuilder(pattern.substring(0, end));
        for (int i = end; i < pattern.length(); i++) {
            if (i == end && bs % 2 == 1) {
                b.append(' ');
            } else {
                b.append("\\ ");
            }
        }
        return b.toString();
    }

    // ---------------------------------------------------------------------------------------------------------------

    private static Path newRepo(String name) throws Exception {
        Path repo = Files.createDirectories(tmp.resolve(name));
        ProcessResult r = run(repo, null, "git", "init", "-q", ".");
        assertEquals(0, r.code(), "git init: " + r.err());
        return repo;
    }

    private static Set<String> checkIgnore(Path repo, String excludeLine, List<String> paths) throws Exception {
        Files.write(repo.resolve(".git/info/exclude"), (excludeLine + "\n").getBytes(StandardCharsets.UTF_8));
        StringBuilder in = new StringBuilder();
        for (String p : paths) {
            in.append(p).append('\0');
        }
        ProcessResult r = run(repo, in.toString(), "git", "-c", "core.ignorecase=false", "-c", "core.quotepath=false",
                "check-ignore", "--no-index", "--stdin", "-z");
        if (r.code() != 0 && r.code() != 1) {
            fail("git check-ignore failed (" + r.code() + ") for '" + excludeLine + "': " + r.err());
        }
        Set<String> out = new HashSet<>();
        for (String s : r.out().split("\0")) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }

    /** Runs {@code cmd} in {@code dir} with no user or system git configuration, {@code stdin} through a pipe. */
    private static ProcessResult run(Path dir, String stdin, String... cmd) throws IOException {
        // no user or system configuration (a global core.excludesFile would add patterns)
        return TestProcess.of(cmd).in(dir).env("GIT_CONFIG_NOSYSTEM", "1").env("GIT_CONFIG_GLOBAL", "/dev/null")
                .env("HOME", gitHome.toString()).env("XDG_CONFIG_HOME", gitHome.toString())
                .stdin(stdin == null ? "" : stdin).timeout(120).run();
    }

    // ---------------------------------------------------------------------------------------------------------------

    /**
     * A random tree of files and directories, depth up to 4: ASCII names without brackets, some with spaces, and a
     * few with the pattern characters {@code * ? \} (which patterns then have to escape).
     */
    static final class Tree {
        final Set<String> files = new TreeSet<>();
        final Set<String> dirs = new TreeSet<>();

        static final String[] NAMES = {
            "a", "b", "ab", "ba", "aa", "a.b", "b.a", "A", "B", "aB", "a-b", "a_b", "1", "a1", "b2", ".a", "a.",
            "a b", " a", "a ", "#a", "~a", "!a", "a.1", "ab.ab", "-", "_", "bab", "abab", "A.B",
            "a*b", "*", "?", "a?", "a\\b", "\\"
        };
        static final String ALPHABET = "abAB12.-_";

        static Tree generate(Random rnd) {
            Tree t = new Tree();
            t.fill(rnd, "", 1);
            return t;
        }

        private void fill(Random rnd, String prefix, int depth) {
            int n = 1 + rnd.nextInt(depth == 1 ? 7 : 5);
            Set<String> used = new HashSet<>();
            for (int i = 0; i < n; i++) {
                String name = name(rnd);
                if (!used.add(name)) {
                    continue;
                }
                String path = prefix + name;
                if (depth < 4 && rnd.nextInt(100) < 40) {
                    dirs.add(path);
                    fill(rnd, path + "/", depth + 1);
                } else {
                    files.add(path);
                }
            }
        }

        static String name(Random rnd) {
            if (rnd.nextInt(100) < 65) {
                return NAMES[rnd.nextInt(NAMES.length)];
            }
            StringBuilder b = new StringBuilder();
            int len = 1 + rnd.nextInt(6);
            for (int i = 0; i < len; i++) {
                b.append(ALPHABET.charAt(rnd.nextInt(ALPHABET.length())));
            }
            String s = b.toString();
            return s.equals(".") || s.equals("..") ? "c" : s;
        }

        void create(Path root) throws IOException {
            for (String d : dirs) {
                Files.createDirectories(root.resolve(d));
            }
            for (String f : files) {
                Files.createFile(root.resolve(f));
            }
        }

        String randomPath(Random rnd) {
            List<String> all = new ArrayList<>(files);
            all.addAll(dirs);
            return all.get(rnd.nextInt(all.size()));
        }
    }

    /** Random patterns, mostly derived from a path of the tree so that many of them match something. */
    static final class Patterns {
        static final String[] CLASSES = {
            "[ab]", "[!ab]", "[^a]", "[a-c]", "[A-Z]", "[!a-z]", "[[:alpha:]]", "[[:digit:]]", "[[:punct:]]",
            "[[:space:]]", "[[:upper:]]", "[^[:lower:]]", "[]a]", "[a-]", "[-.]", "[.-_]", "[\\]a]", "[[:alnum:]_]",
            "[!-]", "[ab-]", "[[:blank:]]", "[[:xdigit:]]", "[\\a-\\c]", "[[]", "[[:]"
        };

        static String generate(Random rnd, Tree tree) {
            if (rnd.nextInt(100) < 20) {
                return random(rnd);
            }
            String[] segs = tree.randomPath(rnd).split("/");
            List<String> out = new ArrayList<>();
            for (int i = 0; i < segs.length; i++) {
                if (rnd.nextInt(100) < 8) {
                    out.add("**");
                }
                out.add(segment(rnd, segs[i], i == 0));
            }
            int r = rnd.nextInt(100);
            if (r < 10 && out.size() > 1) {
                out.remove(out.size() - 1);
            } else if (r < 20) {
                out.add("**");
            } else if (r < 25) {
                out.add("*");
            }
            String p = String.join("/", out);
            r = rnd.nextInt(100);
            if (r < 4) {
                p = "./" + p;
            } else if (r < 8) {
                p = p + "/";
            } else if (r < 11) {
                p = p.replaceFirst("/", "//");
            } else if (r < 13) {
                p = p.replaceFirst("/", "/./");
            } else if (r < 15) {
                p = p.replaceFirst("/", "\\\\/");
            }
            return p;
        }

        static String segment(Random rnd, String s, boolean first) {
            int r = rnd.nextInt(100);
            if (r < 35) {
                return lit(rnd, s, first);
            }
            if (r < 43) {
                return "*";
            }
            if (r < 50) {
                return "**";
            }
            int cut = rnd.nextInt(s.length() + 1);
            if (r < 58) {
                return lit(rnd, s.substring(0, cut), first) + (rnd.nextBoolean() ? "*" : "**");
            }
            if (r < 66) {
                return (rnd.nextBoolean() ? "*" : "**") + lit(rnd, s.substring(cut), false);
            }
            int at = rnd.nextInt(s.length());
            String before = lit(rnd, s.substring(0, at), first);
            String after = lit(rnd, s.substring(at + 1), false);
            char c = s.charAt(at);
            if (r < 74) {
                return before + "?" + after;
            }
            if (r < 90) {
                return before + classFor(rnd, c) + after;
            }
            if (r < 95) {
                // a different literal character: mostly a non-match
                return before + lit(rnd, String.valueOf(Tree.ALPHABET.charAt(rnd.nextInt(Tree.ALPHABET.length()))),
                        at == 0 && first) + after;
            }
            return before + "*" + CLASSES[rnd.nextInt(CLASSES.length)] + "*" + after;
        }

        static String lit(Random rnd, String s, boolean first) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                boolean special = "*?[\\".indexOf(c) >= 0 || (first && i == 0 && (c == '~' || c == '!'));
                if (special || rnd.nextInt(100) < 8) {
                    b.append('\\');
                }
                b.append(c);
            }
            return b.toString();
        }

        static String classFor(Random rnd, char c) {
            String e = Character.isLetterOrDigit(c) ? String.valueOf(c) : "\\" + c;
            switch (rnd.nextInt(7)) {
                case 0:
                    return "[" + e + "x]";
                case 1:
                    return "[!" + (c == 'q' ? "r" : "q") + "]";
                case 2:
                    return Character.isLetterOrDigit(c) ? "[" + (char) (c - 1) + "-" + (char) (c + 1) + "]" : "[" + e + "]";
                case 3:
                    return Character.isLetter(c) ? "[[:alpha:]]" : Character.isDigit(c) ? "[[:digit:]]"
                            : c == ' ' ? "[[:space:]]" : "[[:punct:]]";
                case 4:
                    return "[^" + e + "]";
                default:
                    return CLASSES[rnd.nextInt(CLASSES.length)];
            }
        }

        static String random(Random rnd) {
            StringBuilder b = new StringBuilder();
            int segs = 1 + rnd.nextInt(4);
            for (int s = 0; s < segs; s++) {
                if (s > 0) {
                    b.append('/');
                }
                int toks = 1 + rnd.nextInt(4);
                for (int t = 0; t < toks; t++) {
                    int r = rnd.nextInt(100);
                    if (r < 40) {
                        char c = Tree.ALPHABET.charAt(rnd.nextInt(Tree.ALPHABET.length()));
                        b.append(c);
                    } else if (r < 55) {
                        b.append('*');
                    } else if (r < 65) {
                        b.append("**");
                    } else if (r < 75) {
                        b.append('?');
                    } else if (r < 80) {
                        b.append(' ');
                    } else {
                        b.append(CLASSES[rnd.nextInt(CLASSES.length)]);
                    }
                }
            }
            return b.toString();
        }
    }
}
