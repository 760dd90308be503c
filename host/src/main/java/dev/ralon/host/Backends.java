package dev.ralon.host;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.host.discovery.EnforcerFailure;
import dev.ralon.host.discovery.Enforcers;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Discovery, probing and choice of backends, and the hand-over from policy-core to the SPI. */
public final class Backends {
    private Backends() {
    }

    private static PluginDirectory plugins;

    /** The plugin directory beside the executable, read once per process. */
    public static synchronized PluginDirectory plugins() {
        if (plugins == null) {
            plugins = PluginDirectory.find();
        }
        return plugins;
    }

    /** The built-in backends and those of the plugin directory's trusted jars, each isolated (Enforcers). */
    public static Enforcers discover() {
        return Enforcers.discover(Backends.class.getClassLoader(), plugins().jars());
    }

    /** What discovery refused or could not load, one line each: the plugin directory's refusals first. */
    public static List<String> problems(Enforcers enforcers) {
        List<String> all = new ArrayList<>(plugins().refused());
        all.addAll(enforcers.problems());
        return all;
    }

    /** Where a backend came from, for status: "built in", or the plugin jar. */
    public static String origin(Enforcer e) {
        String o = Enforcers.origin(e);
        PluginDirectory p = plugins();
        return p.jars().stream().anyMatch(j -> j.toString().equals(o)) ? o : "built in";
    }

    /** The "unknown backend" line: the known names, and where a third-party backend goes. */
    public static String unknownBackend(Enforcers enforcers, String name) {
        // a backend by that name was found and excluded (a failing identity call, a reserved or twin name): say that,
        // not "unknown"
        for (String problem : problems(enforcers)) {
            if (problem.contains("'" + name + "'")) {
                return "backend '" + name + "' was excluded: " + problem;
            }
        }
        Path dir = plugins().dir();
        String excluded = problems(enforcers).stream().filter(p -> p.endsWith("; excluded"))
                .collect(Collectors.joining("; "));
        return "unknown backend '" + name + "'" + (excluded.isEmpty() ? "" : " (excluded at discovery: " + excluded
                + ")") + "; known backends: "
                + enforcers.all().stream().map(Enforcer::name).collect(Collectors.joining(", "))
                + (dir != null ? "; a third-party backend is added by putting its jar in " + dir
                : "; a third-party backend is added by putting its jar in " + PluginDirectory.NAME
                + "/ beside the ralon executable")
                + " (docs/writing-an-enforcer.md)";
    }

    /** An enforcer with what its probe said. */
    public record Probed(Enforcer enforcer, Probe probe) {
    }

    /** A probe's refusal as every refusal here words it: the detail, then the fix in brackets when there is one. */
    private static String whyNot(Probe p) {
        return p.detail() + (p.fix().isEmpty() ? "" : " (fix: " + p.fix() + ")");
    }

    /**
     * Whether {@link #choose} may take {@code e} when no backend is pinned: a rank above 0 (noop, rank 0, is never
     * chosen by itself).
     */
    public static boolean candidate(Enforcer e) {
        return e.rank() > 0;
    }

    /**
     * The backends {@link #choose} considers when none is pinned, in its order: the {@link #candidate}s in discovery
     * order (strongest first). It takes the first that is available (and, given a protected set, whose plan is made).
     */
    public static List<Enforcer> candidates(Enforcers enforcers) {
        return enforcers.all().stream().filter(Backends::candidate).toList();
    }

    /** How {@link #choose} gets a backend's plan: {@code e.plan(set)}, or one made ahead (by BackendSurvey). */
    @FunctionalInterface
    public interface Planner {
        Plan plan(Enforcer e, ProtectedSet set);
    }

    /**
     * The backend {@code run} uses: the pinned one when {@code pinned} is set (refused, exit 2, when unknown or
     * unavailable), else the available backend of highest rank above 0 (noop is never chosen by itself).
     */
    public static Probed choose(Enforcers enforcers, String pinned) {
        return choose(enforcers, pinned, Backends::safeProbe);
    }

    private static Probed choose(Enforcers enforcers, String pinned, java.util.function.Function<Enforcer, Probe> prober) {
        if (pinned != null) {
            Enforcer e = enforcers.byName(pinned).orElseThrow(() -> new HostException(unknownBackend(enforcers, pinned)));
            Probe p = prober.apply(e);
            if (!p.available()) {
                throw new HostException("backend " + e.name() + " cannot enforce on this host: " + whyNot(p));
            }
            return new Probed(e, p);
        }
        List<String> why = new ArrayList<>();
        for (Enforcer e : candidates(enforcers)) {
            Probe p = prober.apply(e);
            if (p.available()) {
                return new Probed(e, p);
            }
            why.add(e.name() + ": " + whyNot(p));
        }
        throw new HostException("no backend can enforce on this host"
                + (why.isEmpty() ? "" : " (" + String.join("; ", why) + ")")
                + "; `--backend noop` runs the command unprotected");
    }

    /** A backend chosen for a protected set, with its plan, the host's admission and why stronger ones were passed over. */
    public record Choice(Probed probed, Plan plan, Admission admission, List<String> passedOver) {
    }

    /**
     * The backend {@code run} uses for this protected set, its plan and the host's admission. The machine decides,
     * never the policy: pinned, that one (exit 2 when unknown or unavailable, or when its plan() fails); else the
     * available backend of highest rank above 0 (mount wherever user namespaces work), whatever its admission says, so
     * that the content of agent.lock can never switch a run to a backend with other costs (Landlock's
     * create-restricted directories). What the plan leaves uncovered is decided by the host ({@link Admission}): a
     * plan that is not admitted makes {@code run} refuse, never choose another backend. Only a backend whose plan()
     * fails (a plugin's fault, isolated) is passed over, with its one line.
     */
    public static Choice choose(Enforcers enforcers, String pinned, ProtectedSet set, List<String> incomplete) {
        return choose(enforcers, pinned, set, incomplete, Enforcer::plan);
    }

    /** {@link #choose(Enforcers, String, ProtectedSet, List)}, with each plan asked of {@code planner}. */
    public static Choice choose(Enforcers enforcers, String pinned, ProtectedSet set, List<String> incomplete,
                                Planner planner) {
        return choose(enforcers, pinned, set, incomplete, planner, Backends::safeProbe);
    }

    /**
     * {@link #choose(Enforcers, String, ProtectedSet, List)}, with each plan asked of {@code planner} and each probe of
     * {@code prober} (a survey's, which answers with the probe it made ahead: a plugin's probe runs once).
     */
    public static Choice choose(Enforcers enforcers, String pinned, ProtectedSet set, List<String> incomplete,
                                Planner planner, java.util.function.Function<Enforcer, Probe> prober) {
        if (pinned != null) {
            Probed p = choose(enforcers, pinned, prober);
            Plan plan;
            try {
                plan = planner.plan(p.enforcer(), set);
            } catch (EnforcerFailure f) {
                throw new HostException(f.getMessage() + " (nothing was started)");
            }
            return new Choice(p, plan, Admission.of(p.enforcer(), set, plan, incomplete), List.of());
        }
        List<String> passedOver = new ArrayList<>();
        List<String> why = new ArrayList<>();
        for (Enforcer e : candidates(enforcers)) {
            Probe probe = prober.apply(e);
            if (!probe.available()) {
                why.add(e.name() + ": " + whyNot(probe));
                continue;
            }
            Plan plan;
            try {
                plan = planner.plan(e, set);
            } catch (EnforcerFailure f) {
                passedOver.add(f.getMessage());
                continue;
            }
            return new Choice(new Probed(e, probe), plan, Admission.of(e, set, plan, incomplete), List.copyOf(passedOver));
        }
        throw new HostException("no backend can enforce on this host"
                + (why.isEmpty() ? "" : " (" + String.join("; ", why) + ")")
                + "; `--backend noop` runs the command unprotected");
    }

    /**
     * The protected paths that do not exist and that {@code e} cannot stop being created (it does not declare
     * {@link Guarantee#CREATE_MISSING}): a bind mount needs an existing target. Empty for a backend that can.
     */
    public static List<ProtectedPath> notPreventable(ProtectedSet set, Enforcer e) {
        if (e.guarantees().contains(Guarantee.CREATE_MISSING)) {
            return List.of();
        }
        return set.paths().stream().filter(pp -> pp.kind() == ProtectedPath.Kind.MISSING).toList();
    }

    /** {@code set} without the {@link #notPreventable} paths of {@code e}: what its plan locks. */
    public static ProtectedSet forBackend(ProtectedSet set, Enforcer e) {
        List<ProtectedPath> gone = notPreventable(set, e);
        if (gone.isEmpty()) {
            return set;
        }
        List<ProtectedPath> kept = new ArrayList<>(set.paths());
        kept.removeAll(gone);
        return ProtectedSet.of(set.root(), set.policyFile(), kept, set.warnings());
    }

    public static Probe safeProbe(Enforcer e) {
        try {
            Probe p = e.probe();
            return p != null ? p : Probe.unavailable("its probe returned nothing", "");
        } catch (EnforcerFailure ex) { // discovered enforcers are isolated: any failure of theirs arrives as this
            return Probe.unavailable(HostException.oneLine(ex.getMessage()), "");
        }
    }

}
