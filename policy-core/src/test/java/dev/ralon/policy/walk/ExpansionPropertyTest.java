package dev.ralon.policy.walk;

import dev.ralon.policy.Expansion;
import dev.ralon.policy.Expansion.Entry;
import dev.ralon.policy.Expansion.Entry.Kind;
import dev.ralon.policy.Policy;
import dev.ralon.policy.glob.Glob;
import dev.ralon.policy.glob.PatternException;
import dev.ralon.policy.load.PolicyLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Seeded property test: random trees (files, directories, links to files and directories inside and outside the
 * root, dangling links) and random valid policies. For every case:
 * <ul>
 *   <li>soundness: every entry expand() lists is protected by the policy (matched itself, or a MISSING literal, or
 *       the in-root target of a protected path through a link);</li>
 *   <li>completeness: every path that exists (found by a walk that does not follow links) and that
 *       {@link Policy#isProtected} calls protected is listed, or lies beneath a listed directory.</li>
 * </ul>
 * The seed is printed; replay one with {@code -Dralon.seed=N} (and {@code -Dralon.cases=1}).
 */
class ExpansionPropertyTest {
    static final String[] NAMES = {"a", "b", "c.pem", "d.txt", ".e", "a b", "[x]", "f*"};
    static final String[] SEGMENTS = {"a", "b", "*", "**", "*.pem", "?", "[ab]", "c.pem", "d.txt", ".e", "*.txt",
            "a*", "\\[x]", "f\\*", "[!a]*", "[[:alpha:]]"};

    @TempDir
    Path tmp;

    @Test
    void everyListedPathIsProtectedAndEveryProtectedPathIsListed() throws Exception {
        long seed = dev.ralon.testsupport.Seeds.seed("ExpansionPropertyTest");
        int cases = Integer.getInteger("ralon.cases", 60);
        Random rnd = new Random(seed);
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("o.pem"), "o");
        for (int c = 0; c < cases; c++) {
            Path root = Files.createDirectories(tmp.resolve("case" + c)).toRealPath();
            List<String> made = new ArrayList<>();
            tree(rnd, root, root, "", 0, made, outside);
            List<String> patterns = patterns(rnd, made);
            String label = "seed=" + seed + " case=" + c + " patterns=" + patterns;
            try {
                check(root, patterns, label);
            } catch (AssertionError | Exception e) {
                System.out.println("FAILED " + label + "\ntree:\n" + describe(root));
                throw e;
            }
            delete(root);
        }
    }

    private void check(Path root, List<String> patterns, String label) throws Exception {
        StringBuilder sb = new StringBuilder("version: 1\nprotect:");
        sb.append(patterns.isEmpty() ? " []\n" : "\n");
        for (String p : patterns) {
            sb.append("  - '").append(p.replace("'", "''")).append("'\n");
        }
        Files.writeString(root.resolve("agent.lock"), sb.toString());
        Policy policy = PolicyLoader.load(root.resolve("agent.lock"));
        Expansion e = ProtectedPaths.expand(policy);
        Map<String, Entry> listed = new TreeMap<>();
        for (Entry en : e.entries()) {
            listed.put(en.relPath(), en);
        }
        // soundness
        for (Entry en : e.entries()) {
            if (en.via() != null) {
                assertTrue(policy.isProtected(en.via()), label + ": " + en.relPath() + " listed via unprotected " + en.via());
                assertTrue(en.path().startsWith(root), label + ": a link target outside the root was listed: " + en);
                continue;
            }
            assertTrue(policy.isProtected(en.relPath()), label + ": listed but not protected: " + en);
            assertTrue(en.rules().stream().allMatch(r -> r.glob().matchesExactly(en.relPath()) || r.glob().holds(en.relPath())),
                    label + ": an entry's rules match it exactly: " + en);
            if (en.kind() == Kind.MISSING) {
                assertTrue(!Files.exists(en.path(), java.nio.file.LinkOption.NOFOLLOW_LINKS), label + ": " + en);
            } else {
                assertEquals(ProtectionVisitor.kindOf(Files.readAttributes(en.path(),
                        java.nio.file.attribute.BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS)),
                        en.kind(), label + ": " + en);
            }
        }
        // completeness
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.toList()) {
                if (p.equals(root)) {
                    continue;
                }
                String rel = policy.relativize(p);
                if (!policy.isProtected(rel)) {
                    continue;
                }
                if (!listedOrBeneathListedDirectory(listed, rel)) {
                    fail(label + ": " + rel + " is protected but expand() lists neither it nor a directory above it: "
                            + listed.keySet());
                }
            }
        }
    }

    static boolean listedOrBeneathListedDirectory(Map<String, Entry> listed, String rel) {
        if (listed.containsKey(rel)) {
            return true;
        }
        for (int i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) {
            Entry e = listed.get(rel.substring(0, i));
            if (e != null && e.kind() == Kind.DIRECTORY) {
                return true;
            }
        }
        return false;
    }

    private static void tree(Random rnd, Path root, Path dir, String rel, int depth, List<String> made, Path outside)
            throws IOException {
        int n = 1 + rnd.nextInt(depth == 0 ? 6 : 4);
        for (int i = 0; i < n; i++) {
            String name = NAMES[rnd.nextInt(NAMES.length)];
            Path p = dir.resolve(name);
            if (Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            String childRel = rel.isEmpty() ? name : rel + "/" + name;
            int kind = rnd.nextInt(10);
            if (kind < 4 || depth >= 3) {
                Files.writeString(p, childRel);
            } else if (kind < 8) {
                Files.createDirectory(p);
                tree(rnd, root, p, childRel, depth + 1, made, outside);
            } else if (kind == 8 && !made.isEmpty()) {
                // a link to something made earlier (file or directory), relative or absolute
                String target = made.get(rnd.nextInt(made.size()));
                Files.createSymbolicLink(p, rnd.nextBoolean() ? root.resolve(target) : dir.relativize(root.resolve(target)));
            } else {
                Files.createSymbolicLink(p, rnd.nextBoolean() ? outside : Path.of("dangling-" + i));
            }
            made.add(childRel);
        }
    }

    private static List<String> patterns(Random rnd, List<String> made) {
        List<String> out = new ArrayList<>();
        int n = rnd.nextInt(5);
        for (int i = 0; i < n; i++) {
            String p;
            if (!made.isEmpty() && rnd.nextInt(3) == 0) {
                p = escape(made.get(rnd.nextInt(made.size()))); // a literal naming something that exists
            } else {
                int segs = 1 + rnd.nextInt(3);
                StringBuilder sb = new StringBuilder();
                for (int s = 0; s < segs; s++) {
                    sb.append(s == 0 ? "" : "/").append(SEGMENTS[rnd.nextInt(SEGMENTS.length)]);
                }
                if (rnd.nextInt(5) == 0) {
                    sb.append('/');
                }
                if (rnd.nextInt(6) == 0) {
                    sb.insert(0, "./");
                }
                p = sb.toString();
            }
            try {
                Glob.compile(p);
                out.add(p);
            } catch (PatternException e) {
                // the generator may build an invalid pattern; only valid policies are of interest here
            }
        }
        return out;
    }

    /** A literal pattern naming {@code rel} alone: glob metacharacters escaped (as the loader's own rule is made). */
    static String escape(String rel) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rel.length(); i++) {
            char c = rel.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }

    private static String describe(Path root) throws IOException {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted().toList()) {
                sb.append("  ").append(root.relativize(p));
                if (Files.isSymbolicLink(p)) {
                    sb.append(" -> ").append(Files.readSymbolicLink(p));
                } else if (Files.isDirectory(p)) {
                    sb.append('/');
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
