package dev.ralon.testsupport;

import dev.ralon.enforcer.spi.Experimental;
import dev.ralon.enforcer.spi.Internal;
import dev.ralon.enforcer.spi.Stable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The status of a published module's public types: every public top-level type says exactly one of
 * {@link Stable}, {@link Experimental} and {@link Internal}, on itself or on its package (a nested type has its
 * enclosing type's). One status from the type and another from its package is two, and wrong: which one holds would
 * be a guess. A module's test is one line: {@code ApiStatus.assertEveryPublicTypeHasOne();}.
 */
public final class ApiStatus {
    /** A type's status. */
    public enum Status {
        STABLE, EXPERIMENTAL, INTERNAL
    }

    /** The compiled main classes of the module under test (surefire runs in the module's directory). */
    public static final Path CLASSES = Path.of("target/classes");

    private ApiStatus() {
    }

    /**
     * Every public top-level type compiled into {@code classes}, by binary name, with the statuses its own annotations
     * and its package's give it (empty: none). The types are loaded, not initialised, through this class's loader.
     */
    public static Map<String, Set<Status>> of(Path classes) {
        Map<String, Set<Status>> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(classes)) {
            for (Path p : s.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = classes.relativize(p).toString().replace('\\', '/').replace('/', '.')
                        .replaceAll("\\.class$", "");
                if (name.contains("$") || name.endsWith("package-info") || name.equals("module-info")) {
                    continue;
                }
                Class<?> c = Class.forName(name, false, ApiStatus.class.getClassLoader());
                if (Modifier.isPublic(c.getModifiers())) {
                    Set<Status> status = EnumSet.noneOf(Status.class);
                    add(status, c.isAnnotationPresent(Stable.class) || c.getPackage().isAnnotationPresent(Stable.class),
                            Status.STABLE);
                    add(status, c.isAnnotationPresent(Experimental.class)
                            || c.getPackage().isAnnotationPresent(Experimental.class), Status.EXPERIMENTAL);
                    add(status, c.isAnnotationPresent(Internal.class)
                            || c.getPackage().isAnnotationPresent(Internal.class), Status.INTERNAL);
                    out.put(name, status);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("a compiled class is not on the test class path: " + e.getMessage(), e);
        }
        return out;
    }

    private static void add(Set<Status> status, boolean present, Status s) {
        if (present) {
            status.add(s);
        }
    }

    /** The public top-level types of {@code classes} with no status or more than one, each with what it has. */
    public static List<String> unclear(Path classes) {
        List<String> out = new ArrayList<>();
        of(classes).forEach((name, status) -> {
            if (status.size() != 1) {
                out.add(name + (status.isEmpty() ? ": no status" : ": " + status));
            }
        });
        return out;
    }

    /** Fails unless every public top-level type of the module under test ({@link #CLASSES}) has exactly one status. */
    public static void assertEveryPublicTypeHasOne() {
        assertEquals(List.of(), unclear(CLASSES), "public types with no status (@Stable, @Experimental, @Internal on"
                + " the type or its package-info) or more than one");
    }
}
