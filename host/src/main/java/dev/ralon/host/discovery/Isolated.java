package dev.ralon.host.discovery;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Confinement;
import dev.ralon.enforcer.spi.EnforcementException;

import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A discovered enforcer behind a wall: its identity (name, description, rank, guarantees, covered kinds) is read once,
 * at discovery, where a failure excludes it; a failure of {@link #probe}, {@link #plan} or {@link #prepare} later is
 * an {@link EnforcerFailure} naming the backend and where it came from, never a raw exception or error of the
 * plugin's (a jar built for a newer Java throws {@link UnsupportedClassVersionError} when a class is first used, a
 * missing dependency {@link NoClassDefFoundError}, at any call).
 */
final class Isolated implements Enforcer {
    private final Enforcer delegate;
    private final String origin;
    private final boolean plugin;
    private final String name;
    private final String description;
    private final int rank;
    private final Set<Guarantee> guarantees;
    private final Set<ProtectedPath.Kind> coveredKinds;
    private final List<String> deniedErrors;
    private final boolean deniesMount;
    private final boolean copiesHome;

    /** Reads the identity of {@code delegate}; throws {@link EnforcerFailure} when any of it fails. */
    Isolated(Enforcer delegate, String origin, boolean plugin) {
        this.delegate = delegate;
        this.origin = origin;
        this.plugin = plugin;
        String cls = delegate.getClass().getName();
        this.name = call(cls, "name()", delegate::name);
        String named = cls + " named '" + name + "'"; // so that pinning it later says it was excluded, and why
        this.description = call(named, "description()", delegate::description);
        this.rank = call(named, "rank()", delegate::rank);
        Set<Guarantee> g = call(named, "guarantees()", delegate::guarantees);
        this.guarantees = g.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(g));
        Set<ProtectedPath.Kind> k = call(named, "coveredKinds()", delegate::coveredKinds);
        this.coveredKinds = Set.copyOf(k);
        this.deniedErrors = List.copyOf(call(named, "deniedErrors()", delegate::deniedErrors));
        this.deniesMount = call(named, "deniesMount()", delegate::deniesMount);
        this.copiesHome = call(named, "copiesHome()", delegate::copiesHome);
    }

    private interface Call<T> {
        T call() throws Exception;
    }

    private <T> T call(String who, String method, Call<T> c) {
        T result;
        try {
            result = c.call();
        } catch (EnforcerFailure f) { // a bounded call given up: already worded
            throw f;
        } catch (Throwable t) { // a plugin's failure of any kind: reported, never propagated
            throw new EnforcerFailure(who + " (" + origin + "): " + method + " failed: " + Enforcers.oneLine(t), t);
        }
        if (result == null) {
            throw new EnforcerFailure(who + " (" + origin + "): " + method + " returned null", null);
        }
        return result;
    }

    /** The enforcer as its jar made it (for tests and for instanceof checks of the backend itself). */
    Enforcer delegate() {
        return delegate;
    }

    /** Where it was loaded from: a jar or directory of the class path. */
    String origin() {
        return origin;
    }

    /** Whether it came from a plugin jar (never one of Ralon's own, whatever its package). */
    boolean plugin() {
        return plugin;
    }

    /** Its class's name. */
    String className() {
        return delegate.getClass().getName();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public Set<Guarantee> guarantees() {
        return guarantees;
    }

    @Override
    public Set<ProtectedPath.Kind> coveredKinds() {
        return coveredKinds;
    }

    @Override
    public List<String> deniedErrors() {
        return deniedErrors;
    }

    @Override
    public boolean deniesMount() {
        return deniesMount;
    }

    @Override
    public boolean copiesHome() {
        return copiesHome;
    }

    /** How long a plugin's {@link #probe} may take before it is reported and the backend passed over. */
    static final long PROBE_BOUND_MILLIS = 3_000;
    /** How long a plugin's {@link #plan} may take (it may walk the protected set). */
    static final long PLAN_BOUND_MILLIS = 15_000;

    @Override
    public Probe probe() {
        return call("backend " + name, "probe()", bounded("probe()", PROBE_BOUND_MILLIS, delegate::probe));
    }

    @Override
    public Plan plan(ProtectedSet protectedSet) {
        return call("backend " + name, "plan()", bounded("plan()", PLAN_BOUND_MILLIS,
                () -> delegate.plan(protectedSet)));
    }

    /**
     * A plugin's call, bounded: it runs on a daemon thread of its own and is given up after {@code millis}, with an
     * {@link EnforcerFailure} that says so (the thread is left to itself: a call that never returns cannot be
     * stopped, but nothing waits for it, and it ends with the JVM or the exec). Ralon's own backends are called
     * directly, on the caller's thread: their waits are bounded where they are made. Not {@link #prepare}: it restricts the calling thread,
     * so it cannot move to another one.
     */
    private <T> Call<T> bounded(String method, long millis, Call<T> c) {
        if (!plugin && className().startsWith("dev.ralon.")) {
            return c; // Ralon's own (a third party's on the class path, the kit's case, is bounded too)
        }
        return () -> {
            java.util.concurrent.CompletableFuture<T> f = new java.util.concurrent.CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    f.complete(c.call());
                } catch (Throwable x) { // handed to the caller, which reports it as the plugin's
                    f.completeExceptionally(x);
                }
            }, "ralon-plugin-" + name);
            t.setDaemon(true);
            t.start();
            try {
                return f.get(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new EnforcerFailure("backend " + name + " (" + origin + "): " + method + " did not return within "
                        + (millis / 1000) + " s; given up", null);
            } catch (java.util.concurrent.ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof Exception ex) {
                    throw ex;
                }
                throw (Error) cause;
            }
        };
    }

    @Override
    public Launch prepare(Plan plan, Command command) throws EnforcementException {
        return prepare(plan, command, Confinement.NONE);
    }

    @Override
    public Launch prepare(Plan plan, Command command, Confinement confinement) throws EnforcementException {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(confinement, "confinement");
        try {
            Launch l = delegate.prepare(plan, command, confinement);
            if (l == null) {
                throw new EnforcerFailure("backend " + name + " (" + origin + "): prepare() returned null", null);
            }
            return l;
        } catch (EnforcementException | EnforcerFailure e) {
            throw e;
        } catch (Throwable t) { // a plugin's failure of any kind: reported, never propagated
            throw new EnforcerFailure("backend " + name + " (" + origin + "): prepare() failed: "
                    + Enforcers.oneLine(t), t);
        }
    }

    @Override
    public String toString() {
        return name + " (" + className() + " from " + origin + ")";
    }
}
