package dev.ralon.host.discovery;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Discovery of {@link Enforcer}s on a class path, with the naming rules of the SPI enforced and every plugin isolated.
 *
 * <p>Naming: a name must match {@code [a-z][a-z0-9-]{1,31}}, be unique, and not be reserved ({@code mount},
 * {@code landlock}, {@code noop}, {@code ralon-*}) unless the implementation is Ralon's own (a class under
 * {@code dev.ralon.} that does not come from a plugin jar). Offending providers are not returned; each is reported as a problem so the host can say so
 * rather than silently pick another backend.
 *
 * <p>Fault isolation: the providers are read from every {@code META-INF/services/dev.ralon.enforcer.spi.Enforcer}
 * the loader sees, as {@link java.util.ServiceLoader} does on a class path (one class name per line, {@code #}
 * comments, public no-argument constructor), but each provider is loaded, instantiated and asked its identity on its
 * own, so that one that fails in any way ({@link UnsupportedClassVersionError} from a jar built for a newer Java,
 * {@link NoClassDefFoundError}, an exception from its constructor, {@code name()} or {@code rank()}) is reported in
 * one line naming its jar and excluded, and every other backend keeps working. ServiceLoader itself cannot do this:
 * its iterator gives no way to tell which jar a failing provider came from, and a {@link LinkageError} escapes it
 * unwrapped. Every returned enforcer is wrapped so that a later failure of {@code probe()}, {@code plan()} or
 * {@code prepare()} is an {@link EnforcerFailure} with the same one-line shape.
 *
 * @since 0.1.0
 */
@Internal("the host's discovery; enforcers do not call it")
public final class Enforcers {
    /** Where providers are listed, as for ServiceLoader. */
    public static final String SERVICE_FILE = "META-INF/services/" + Enforcer.class.getName();

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{1,31}");
    private static final List<String> RESERVED = dev.ralon.host.BuiltInBackends.NAMES;
    private static final String OUR_PACKAGE = "dev.ralon.";

    private final List<Enforcer> enforcers;
    private final List<String> problems;

    private Enforcers(List<Enforcer> enforcers, List<String> problems) {
        this.enforcers = List.copyOf(enforcers);
        this.problems = List.copyOf(problems);
    }

    /** Discovers every enforcer visible to {@code loader}. Never throws for a broken provider: see the class doc. */
    public static Enforcers discover(ClassLoader loader) {
        return discover(loader, List.of());
    }

    /**
     * Discovers every enforcer visible to {@code loader}, and those of each plugin jar in {@code plugins}, each jar in
     * a class loader of its own (parent {@code loader}), so that one jar's classes never resolve another's and every
     * failure is attributed to its jar. A jar that cannot be opened is a problem, not an exception.
     *
     * @since 0.1.0
     */
    public static Enforcers discover(ClassLoader loader, List<Path> plugins) {
        List<Isolated> found = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        collect(loader, null, found, problems);
        for (Path jar : plugins) {
            URL url;
            try {
                url = jar.toUri().toURL();
            } catch (java.net.MalformedURLException e) {
                problems.add("plugin " + jar + ": " + oneLine(e) + "; excluded");
                continue;
            }
            collect(new URLClassLoader(new URL[] {url}, loader), jar, found, problems);
        }
        return named(found, problems);
    }

    /** Adds the providers listed by {@code loader}'s service files (only its own jar's when {@code jar} is set). */
    private static void collect(ClassLoader loader, Path jar, List<Isolated> found, List<String> problems) {
        Map<String, String> providers = new LinkedHashMap<>(); // class name -> origin of the first listing
        try {
            Enumeration<URL> files = jar != null ? ((URLClassLoader) loader).findResources(SERVICE_FILE)
                    : loader.getResources(SERVICE_FILE);
            while (files.hasMoreElements()) {
                URL url = files.nextElement();
                String origin = origin(url);
                try (BufferedReader r = new BufferedReader(new InputStreamReader(url.openStream(), StandardCharsets.UTF_8))) {
                    for (String line = r.readLine(); line != null; line = r.readLine()) {
                        int hash = line.indexOf('#');
                        String cn = (hash < 0 ? line : line.substring(0, hash)).strip();
                        if (!cn.isEmpty()) {
                            providers.putIfAbsent(cn, origin);
                        }
                    }
                } catch (IOException e) {
                    problems.add("plugin " + origin + ": cannot read " + SERVICE_FILE + ": " + oneLine(e) + "; excluded");
                }
            }
        } catch (IOException e) {
            problems.add((jar == null ? "cannot list " + SERVICE_FILE + " on the class path: "
                    : "plugin " + jar + ": cannot be read: ") + oneLine(e) + (jar == null ? "" : "; excluded"));
        }
        if (jar != null && providers.isEmpty() && problems.stream().noneMatch(p -> p.startsWith("plugin " + jar + ":"))) {
            problems.add("plugin " + jar + ": lists no enforcer in " + SERVICE_FILE + "; ignored");
        }
        if (jar != null && !providers.isEmpty()) {
            // a jar built against another SPI loads, is listed, and fails only when a call first resolves (prepare):
            // every reference it makes to the SPI is resolved here instead (SpiLinks), before anything is created
            try {
                List<String> missing = SpiLinks.unresolved(jar, loader);
                if (!missing.isEmpty()) {
                    problems.add("plugin " + jar + ": built against an SPI this ralon does not have: it uses "
                            + String.join(", ", missing.subList(0, Math.min(SpiLinks.NAMED, missing.size())))
                            + (missing.size() > SpiLinks.NAMED ? " and " + (missing.size() - SpiLinks.NAMED) + " more" : "")
                            + ", which this ralon's enforcer-spi lacks; rebuild it against this version"
                            + " (docs/spi-changelog.md); excluded");
                    return;
                }
            } catch (IOException | RuntimeException e) {
                problems.add("plugin " + jar + ": cannot be read: " + oneLine(e) + "; excluded");
                return;
            }
        }
        for (Map.Entry<String, String> p : providers.entrySet()) {
            String cn = p.getKey();
            String listedIn = p.getValue();
            Enforcer instance;
            try {
                Class<?> c = Class.forName(cn, false, loader);
                if (!Enforcer.class.isAssignableFrom(c)) {
                    problems.add("plugin " + listedIn + ": " + cn + " does not implement " + Enforcer.class.getName()
                            + "; excluded");
                    continue;
                }
                instance = (Enforcer) c.getConstructor().newInstance();
            } catch (InvocationTargetException e) {
                problems.add("plugin " + listedIn + ": " + cn + " could not be created: " + oneLine(e.getCause())
                        + "; excluded");
                continue;
            } catch (Throwable e) { // any failure of a plugin's class: reported, never propagated
                problems.add("plugin " + listedIn + ": " + cn + " could not be loaded: " + oneLine(e) + "; excluded");
                continue;
            }
            try {
                found.add(new Isolated(instance, originOf(instance.getClass(), listedIn), jar != null));
            } catch (EnforcerFailure e) {
                problems.add("plugin " + e.getMessage() + "; excluded");
            }
        }
    }

    /** Applies the naming rules and the isolation to a given list (discovery without a class path, for tests). */
    public static Enforcers of(List<Enforcer> candidates) {
        List<Isolated> isolated = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Enforcer e : candidates) {
            try {
                isolated.add(e instanceof Isolated i ? i : new Isolated(e, originOf(e.getClass(), "unknown"), false));
            } catch (EnforcerFailure f) {
                problems.add("plugin " + f.getMessage() + "; excluded");
            }
        }
        return named(isolated, problems);
    }

    private static Enforcers named(List<Isolated> candidates, List<String> earlierProblems) {
        List<String> problems = new ArrayList<>(earlierProblems);
        Map<String, Enforcer> byName = new LinkedHashMap<>();
        java.util.Set<String> reportedTwins = new java.util.HashSet<>();
        Map<String, Integer> count = new LinkedHashMap<>(); // among those that pass the name rules: an impostor of a
        for (Isolated e : candidates) {                      // reserved name must not disable the real backend
            if (NAME.matcher(e.name()).matches() && !(isReserved(e.name()) && (e.plugin()
                    || !e.className().startsWith(OUR_PACKAGE)))) {
                count.merge(e.name(), 1, Integer::sum);
            }
        }
        for (Isolated e : candidates) {
            String name = e.name();
            String cls = e.className();
            if (!NAME.matcher(name).matches()) {
                problems.add("enforcer " + cls + " (" + e.origin() + ") has an invalid name '" + name
                        + "' (must match [a-z][a-z0-9-]{1,31}); ignored");
            } else if (isReserved(name) && (e.plugin() || !cls.startsWith(OUR_PACKAGE))) {
                problems.add("enforcer " + cls + " (" + e.origin() + ") uses the reserved name '" + name + "'; ignored");
            } else if (count.get(name) > 1) {
                if (reportedTwins.add(name)) {
                    List<String> classes = candidates.stream().filter(c -> name.equals(c.name()))
                            .filter(c -> !(isReserved(name) && (c.plugin() || !c.className().startsWith(OUR_PACKAGE))))
                            .map(c -> c.className() + " from " + c.origin()).toList();
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

    /** The valid enforcers, strongest (highest rank) first; each isolated (see the class doc). */
    public List<Enforcer> all() {
        return enforcers;
    }

    /** Providers that were refused or failed, one line each. */
    public List<String> problems() {
        return problems;
    }

    public Optional<Enforcer> byName(String name) {
        return enforcers.stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /**
     * Where an enforcer returned by this class was loaded from (its jar or class directory), or "unknown".
     *
     * @since 0.1.0
     */
    public static String origin(Enforcer e) {
        return e instanceof Isolated i ? i.origin() : originOf(e.getClass(), "unknown");
    }

    /**
     * The enforcer as its provider made it, without the isolation wrapper (for a backend's own tests).
     *
     * @since 0.1.0
     */
    public static Enforcer unwrap(Enforcer e) {
        return e instanceof Isolated i ? i.delegate() : e;
    }

    private static String originOf(Class<?> c, String fallback) {
        try {
            CodeSource cs = c.getProtectionDomain().getCodeSource();
            if (cs != null && cs.getLocation() != null) {
                return origin(cs.getLocation());
            }
        } catch (RuntimeException e) {
            // fall back
        }
        return fallback;
    }

    private static String origin(URL url) {
        String s = url.toString();
        if (s.startsWith("jar:")) {
            int bang = s.indexOf("!/");
            s = s.substring(4, bang < 0 ? s.length() : bang);
        } else if (s.endsWith(SERVICE_FILE)) {
            s = s.substring(0, s.length() - SERVICE_FILE.length());
        }
        try {
            return Path.of(new URI(s)).toString();
        } catch (URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            return s;
        }
    }

    /** A throwable in one line: its simple class name and the first line of its message. */
    static String oneLine(Throwable t) {
        if (t == null) {
            return "unknown failure";
        }
        String m = t.getMessage();
        if (m == null) {
            return t.getClass().getSimpleName();
        }
        int nl = m.indexOf('\n');
        return t.getClass().getSimpleName() + ": " + (nl < 0 ? m : m.substring(0, nl));
    }
}
