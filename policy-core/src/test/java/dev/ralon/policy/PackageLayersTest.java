package dev.ralon.policy;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * policy-core's packages depend on each other one way: read from the compiled classes' constant pools (where every
 * type a class uses is named; a Javadoc link is not), no package reaches back to one that reaches it. The layers, each
 * using only those before it: {@code glob} (the pattern language), {@code dev.ralon.policy} (the model a caller
 * holds), {@code load} (bytes to a policy), {@code walk} (the file tree: the policies in force and their expansion),
 * {@code git} (git, asked without running what a repository configures). A new package joins {@link #LAYERS} where
 * its arrows put it.
 */
class PackageLayersTest {
    private static final Path CLASSES = Path.of("target/classes");
    private static final Pattern REFERENCE = Pattern.compile("dev/ralon/policy(?:/[A-Za-z0-9_$]+)+");
    private static final List<String> LAYERS = List.of("dev.ralon.policy.glob", "dev.ralon.policy",
            "dev.ralon.policy.load", "dev.ralon.policy.walk", "dev.ralon.policy.git");

    /** Package to the other policy-core packages its classes name. */
    static Map<String, Set<String>> arrows(Path classes) throws IOException {
        Map<String, Set<String>> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(classes)) {
            for (Path p : s.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String from = packageOf(classes.relativize(p).toString().replace('\\', '/'));
                Set<String> to = out.computeIfAbsent(from, k -> new TreeSet<>());
                // the constant pool's UTF-8 entries are readable as ISO-8859-1 without loss for ASCII names
                Matcher m = REFERENCE.matcher(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
                while (m.find()) {
                    String target = packageOf(m.group());
                    if (!target.equals(from)) {
                        to.add(target);
                    }
                }
            }
        }
        return out;
    }

    private static String packageOf(String classFile) {
        return classFile.substring(0, classFile.lastIndexOf('/')).replace('/', '.');
    }

    /** A cycle between packages, as a path that returns to its start; empty when there is none. */
    static List<String> cycle(Map<String, Set<String>> arrows) {
        Set<String> done = new TreeSet<>();
        for (String start : arrows.keySet()) {
            List<String> found = cycleFrom(start, arrows, new ArrayList<>(), done);
            if (!found.isEmpty()) {
                return found;
            }
        }
        return List.of();
    }

    private static List<String> cycleFrom(String p, Map<String, Set<String>> arrows, List<String> path,
                                          Set<String> done) {
        int at = path.indexOf(p);
        if (at >= 0) {
            List<String> c = new ArrayList<>(path.subList(at, path.size()));
            c.add(p);
            return c;
        }
        if (done.contains(p)) {
            return List.of();
        }
        path.add(p);
        for (String q : arrows.getOrDefault(p, Set.of())) {
            List<String> c = cycleFrom(q, arrows, path, done);
            if (!c.isEmpty()) {
                return c;
            }
        }
        path.remove(path.size() - 1);
        done.add(p);
        return List.of();
    }

    @Test
    void noCycleBetweenPackages() throws IOException {
        Map<String, Set<String>> arrows = arrows(CLASSES);
        assertEquals(List.of(), cycle(arrows), "a cycle between policy-core's packages; every arrow: " + arrows);
    }

    @Test
    void eachPackageUsesOnlyTheLayersBeforeIt() throws IOException {
        Map<String, Set<String>> arrows = arrows(CLASSES);
        assertEquals(new TreeSet<>(LAYERS), arrows.keySet(), "a package missing from LAYERS, or one gone");
        List<String> wrong = new ArrayList<>();
        arrows.forEach((from, targets) -> {
            for (String to : targets) {
                if (LAYERS.indexOf(to) > LAYERS.indexOf(from)) {
                    wrong.add(from + " -> " + to);
                }
            }
        });
        assertEquals(List.of(), wrong, "a package uses a later layer (" + LAYERS + ")");
    }

    @Test
    void theCheckFindsACycle() {
        Map<String, Set<String>> arrows = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a"));
        List<String> c = cycle(new TreeMap<>(arrows));
        assertEquals(4, c.size(), c.toString());
        assertEquals(c.get(0), c.get(3), c.toString());
        assertEquals(List.of(), cycle(new TreeMap<>(Map.of("a", Set.of("b"), "b", Set.of("c"), "d", Set.of("a")))));
    }
}
