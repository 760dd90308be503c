package dev.ralon.enforcer.spi;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The SPI's binary compatibility, checked against the API as it was last agreed: {@code src/test/resources/api/
 * enforcer-spi.api}, one line per public type and per public or protected member, with its stability marker. There is
 * no released version of Ralon yet, so there is no jar to compare with (a japicmp or revapi check configured against a
 * baseline that does not exist would check nothing); this file is that baseline until 0.1.0 is released, and it is
 * reviewed like code. What the test enforces:
 * <ul>
 *   <li>a line of a {@code @Stable} type that disappears or changes (a removed or changed method, constructor, field
 *       or type: what breaks an enforcer compiled against the old SPI) fails the test, with the line;</li>
 *   <li>a new abstract method on a {@code @Stable} interface fails the test (it would break every implementation: add
 *       a default instead);</li>
 *   <li>every other difference (an addition, anything in an {@code @Experimental} type) also fails, until the file is
 *       regenerated with {@code -Dralon.api.update=true}, so that no change to the API goes unnoticed in review;</li>
 *   <li>every public type carries {@link Stable} or {@link Experimental}, and {@code @since} in its Javadoc;</li>
 *   <li>a {@code @Stable} type can grow, as {@link Stable} requires: no {@code @Stable} record, and no public or
 *       protected constructor on a {@code @Stable} class (its factories build it), exceptions apart.</li>
 * </ul>
 */
class ApiCompatibilityTest {
    private static final Path BASELINE = Path.of("src/test/resources/api/enforcer-spi.api");
    private static final Path CLASSES = Path.of("target/classes");
    private static final Path SOURCES = Path.of("src/main/java");

    static List<Class<?>> publicTypes() throws IOException, ClassNotFoundException {
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(CLASSES)) {
            for (Path p : s.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = CLASSES.relativize(p).toString().replace('/', '.').replaceAll("\\.class$", "");
                if (name.endsWith("package-info") || name.equals("module-info")) {
                    continue;
                }
                Class<?> c = Class.forName(name, false, ApiCompatibilityTest.class.getClassLoader());
                if (isApi(c)) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    private static boolean isApi(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (!Modifier.isPublic(k.getModifiers())) {
                return false;
            }
        }
        return !c.isAnonymousClass() && !c.isSynthetic();
    }

    static String marker(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (k.isAnnotationPresent(Experimental.class)) {
                return "experimental";
            }
            if (k.isAnnotationPresent(Stable.class)) {
                return "stable";
            }
        }
        return "UNMARKED";
    }

    static List<String> render() throws IOException, ClassNotFoundException {
        TreeSet<String> lines = new TreeSet<>();
        for (Class<?> c : publicTypes()) {
            String m = marker(c);
            String kind = c.isAnnotation() ? "@interface" : c.isInterface() ? "interface" : c.isEnum() ? "enum"
                    : c.isRecord() ? "record" : (Modifier.isFinal(c.getModifiers()) ? "final " : "")
                    + (Modifier.isAbstract(c.getModifiers()) ? "abstract " : "") + "class";
            String ext = c.getSuperclass() == null || c.getSuperclass() == Object.class || c.isEnum() || c.isRecord()
                    ? "" : " extends " + c.getSuperclass().getName();
            String impl = Arrays.stream(c.getInterfaces()).map(Class::getName).sorted().collect(Collectors.joining(", "));
            lines.add(c.getName() + " [" + m + "] " + kind + ext + (impl.isEmpty() ? "" : " implements " + impl));
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (visible(k.getModifiers()) && !k.isSynthetic()) {
                    lines.add(c.getName() + " [" + m + "]   " + modifiers(k) + "<init>(" + params(k) + ")");
                }
            }
            for (Method k : c.getDeclaredMethods()) {
                if (visible(k.getModifiers()) && !k.isSynthetic() && !k.isBridge()) {
                    String how = c.isInterface() ? (k.isDefault() ? "default " : Modifier.isStatic(k.getModifiers())
                            ? "static " : "abstract ") : modifiers(k);
                    lines.add(c.getName() + " [" + m + "]   " + how + k.getGenericReturnType().getTypeName() + " "
                            + k.getName() + "(" + params(k) + ")");
                }
            }
            for (Field f : c.getDeclaredFields()) {
                if (visible(f.getModifiers()) && !f.isSynthetic()) {
                    lines.add(c.getName() + " [" + m + "]   field " + (Modifier.isStatic(f.getModifiers()) ? "static " : "")
                            + (Modifier.isFinal(f.getModifiers()) ? "final " : "") + f.getGenericType().getTypeName()
                            + " " + f.getName());
                }
            }
        }
        return new ArrayList<>(lines);
    }

    private static boolean visible(int mod) {
        return Modifier.isPublic(mod) || Modifier.isProtected(mod);
    }

    private static String modifiers(Executable e) {
        int mod = e.getModifiers();
        return (Modifier.isProtected(mod) ? "protected " : "") + (Modifier.isStatic(mod) ? "static " : "")
                + (Modifier.isAbstract(mod) ? "abstract " : "") + (Modifier.isFinal(mod) ? "final " : "");
    }

    private static String params(Executable e) {
        return Arrays.stream(e.getGenericParameterTypes()).map(java.lang.reflect.Type::getTypeName)
                .collect(Collectors.joining(", "));
    }

    /** The changelog a plugin's author reads (docs/spi-changelog.md), which names the listing it describes. */
    private static final Path CHANGELOG = Path.of("../docs/spi-changelog.md");

    /**
     * No API change lands without a changelog entry: the changelog's {@code api-listing:} line names the first 16 hex
     * digits of the listing's SHA-256, so a regenerated listing fails here until the entry is written.
     */
    @Test
    void theChangelogNamesThisListing() throws Exception {
        String sha = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(Files.readAllBytes(BASELINE))).substring(0, 16);
        String changelog = Files.readString(CHANGELOG);
        org.junit.jupiter.api.Assertions.assertTrue(changelog.contains("\napi-listing: " + sha + "\n"),
                "the SPI's API listing changed: add an entry to docs/spi-changelog.md (breaks the build, changes"
                + " behaviour or additive, with a before/after) and set its line to `api-listing: " + sha + "`");
    }

    @Test
    void theApiIsTheAgreedOne() throws Exception {
        List<String> now = render();
        if (Boolean.getBoolean("ralon.api.update")) {
            Files.createDirectories(BASELINE.getParent());
            Files.writeString(BASELINE, String.join("\n", now) + "\n", StandardCharsets.UTF_8);
        }
        List<String> agreed = Files.readAllLines(BASELINE, StandardCharsets.UTF_8);
        List<String> removed = agreed.stream().filter(l -> !now.contains(l)).toList();
        List<String> added = now.stream().filter(l -> !agreed.contains(l)).toList();
        List<String> breaking = new ArrayList<>(removed.stream().filter(l -> l.contains("[stable]")).toList());
        added.stream().filter(l -> l.contains("[stable]") && l.contains(" abstract ") && isInterfaceLine(l, now))
                .forEach(l -> breaking.add("new abstract method (breaks every implementation; give it a default): " + l));
        if (!breaking.isEmpty()) {
            fail("binary-incompatible change to the stable SPI (an enforcer compiled against the agreed API would"
                    + " break):\n  " + String.join("\n  ", breaking));
        }
        if (!removed.isEmpty() || !added.isEmpty()) {
            fail("the SPI changed; if that is intended, regenerate " + BASELINE + " with -Dralon.api.update=true and"
                    + " review the diff:\n  removed: " + removed + "\n  added: " + added);
        }
    }

    private static boolean isInterfaceLine(String line, List<String> all) {
        String type = line.substring(0, line.indexOf(' '));
        return all.stream().anyMatch(l -> l.startsWith(type + " [") && l.contains("] interface"));
    }

    @Test
    void stableTypesCanGrow() throws Exception {
        List<String> problems = new ArrayList<>();
        for (Class<?> c : publicTypes()) {
            if (!c.isAnnotationPresent(Stable.class) || Throwable.class.isAssignableFrom(c)) {
                continue;
            }
            if (c.isRecord()) {
                problems.add(c.getName() + " is a record: a component cannot be added without breaking its constructor"
                        + " and its deconstruction");
            }
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (Modifier.isPublic(k.getModifiers()) || Modifier.isProtected(k.getModifiers())) {
                    problems.add(c.getName() + " has a public constructor " + k + ": build it through a factory");
                }
            }
        }
        assertEquals(List.of(), problems, "@Stable types that cannot grow");
    }

    @Test
    void everyPublicTypeIsMarkedAndSaysSince() throws Exception {
        List<String> problems = new ArrayList<>();
        for (Class<?> c : publicTypes()) {
            if (marker(c).equals("UNMARKED")) {
                problems.add(c.getName() + " has neither @Stable nor @Experimental");
            }
            Class<?> top = c;
            while (top.getDeclaringClass() != null) {
                top = top.getDeclaringClass();
            }
            Path src = SOURCES.resolve(top.getName().replace('.', '/') + ".java");
            String text = Files.readString(src);
            String simple = c.getSimpleName();
            int decl = indexOfDeclaration(text, simple);
            int doc = decl < 0 ? -1 : text.lastIndexOf("/**", decl);
            if (decl < 0 || doc < 0 || !text.substring(doc, decl).contains("@since")) {
                problems.add(c.getName() + " has no @since in its Javadoc");
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        assertEquals("stable", marker(Enforcer.class));
    }

    private static int indexOfDeclaration(String text, String simple) {
        for (String kw : List.of("interface ", "class ", "record ", "enum ", "@interface ")) {
            int i = text.indexOf(kw + simple + " ");
            if (i < 0) {
                i = text.indexOf(kw + simple + "(");
            }
            if (i < 0) {
                i = text.indexOf(kw + simple + "<");
            }
            if (i >= 0) {
                return i;
            }
        }
        return -1;
    }
}
