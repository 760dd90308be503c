package dev.ralon.enforcer.spi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.regex.Pattern;

/**
 * Discovery of {@link Enforcer}s through {@link ServiceLoader}, with the naming rules of the SPI enforced: a name
 * must match {@code [a-z][a-z0-9-]{1,31}}, be unique, and not be reserved ({@code mount}, {@code landlock},
 * {@code noop}, {@code ralon-*}) unless the implementation is Ralon's own (a class under {@code dev.ralon.}).
 * Offending providers are not returned; each is reported as a problem so the host can say so rather than silently
 * pick another backend.
 */
public final class Enforcers {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{1,31}");
    private static final List<String> RESERVED = List.of("mount", "landlock", "noop");
    private static final String OUR_PACKAGE = "dev.ralon.";

    private final List<Enforcer> enforcers;
    private final List<String> problems;

    private Enforcers(List<Enforcer> enforcers, List<String> problems) {
        this.enforcers = List.copyOf(enforcers);
        this.problems = List.copyOf(problems);
    }

    /** Discovers every enforcer visible to {@code loader}. */
    public static Enforcers discover(ClassLoader loader) {
        List<Enforcer> found = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        var it = ServiceLoader.load(Enforcer.class, loader).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                found.add(it.next());
            } catch (ServiceConfigurationError e) {
                problems.add("an enforcer could not be loaded: " + oneLine(e));
            }
        }
        return of(found, problems);
    }

    /** Applies the naming rules to a given list (discovery without ServiceLoader, for tests and embedding). */
    public static Enforcers of(List<Enforcer> candidates) {
        return of(candidates, List.of());
    }

    private static Enforcers of(List<Enforcer> candidates, List<String> earlierProblems) {
        List<String> problems = new ArrayList<>(earlierProblems);
        Map<String, Enforcer> byName = new LinkedHashMap<>();
        java.util.Set<String> reportedTwins = new java.util.HashSet<>();
        Map<String, Integer> count = new LinkedHashMap<>();
        for (Enforcer e : candidates) {
            count.merge(String.valueOf(e.name()), 1, Integer::sum);
        }
        for (Enforcer e : candidates) {
            String name = e.name();
            String cls = e.getClass().getName();
            if (name == null || !NAME.matcher(name).matches()) {
                problems.add("enforcer " + cls + " has an invalid name '" + name + "' (must match [a-z][a-z0-9-]{1,31}); ignored");
            } else if (isReserved(name) && !cls.startsWith(OUR_PACKAGE)) {
                problems.add("enforcer " + cls + " uses the reserved name '" + name + "'; ignored");
            } else if (count.get(name) > 1) {
                if (reportedTwins.add(name)) {
                    List<String> classes = candidates.stream().filter(c -> name.equals(c.name()))
                            .map(c -> c.getClass().getName()).toList();
                    problems.add(count.get(name) + " enforcers are named '" + name + "' (" + String.join(", ", classes)
                            + "); none of them is used");
                }
            } else {
                byName.put(name, e);
            }
        }
        List<Enforcer> sorted = new ArrayList<>(byName.values());
        sorted.sort(Comparator.comparingInt(Enforcer::rank).reversed().thenComparing(Enforcer::name));
        return new Enforcers(sorted, problems);
    }

    /** True for names only Ralon's own enforcers may use. */
    public static boolean isReserved(String name) {
        return RESERVED.contains(name) || name.startsWith("ralon-");
    }

    /** The valid enforcers, strongest (highest rank) first. */
    public List<Enforcer> all() {
        return enforcers;
    }

    /** Providers that were refused, one line each. */
    public List<String> problems() {
        return problems;
    }

    public Optional<Enforcer> byName(String name) {
        return enforcers.stream().filter(e -> e.name().equals(name)).findFirst();
    }

    private static String oneLine(Throwable t) {
        String m = String.valueOf(t.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
