package dev.ralon.enforcer.spi;

import java.util.EnumSet;
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

    /** Reads the identity of {@code delegate}; throws {@link EnforcerFailure} when any of it fails. */
    Isolated(Enforcer delegate, String origin, boolean plugin) {
        this.delegate = delegate;
        this.origin = origin;
        this.plugin = plugin;
        String cls = delegate.getClass().getName();
        this.name = call(cls, "name()", delegate::name);
        this.description = call(cls, "description()", delegate::description);
        this.rank = call(cls, "rank()", delegate::rank);
        Set<Guarantee> g = call(cls, "guarantees()", delegate::guarantees);
        this.guarantees = g.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(g));
        Set<ProtectedPath.Kind> k = call(cls, "coveredKinds()", delegate::coveredKinds);
        this.coveredKinds = Set.copyOf(k);
    }

    private interface Call<T> {
        T call() throws Exception;
    }

    private <T> T call(String who, String method, Call<T> c) {
        T result;
        try {
            result = c.call();
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
    public Probe probe() {
        return call("backend " + name, "probe()", delegate::probe);
    }

    @Override
    public Plan plan(ProtectedSet protectedSet) {
        return call("backend " + name, "plan()", () -> delegate.plan(protectedSet));
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
