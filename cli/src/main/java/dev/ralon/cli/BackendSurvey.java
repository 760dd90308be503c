package dev.ralon.cli;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.EnforcerFailure;
import dev.ralon.enforcer.spi.Enforcers;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.host.Backends;
import dev.ralon.host.Baseline;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * What {@code status} says of every backend: its probe, its plan for the policy's set and what it keeps of the
 * baseline, worked out on a thread per backend while the calling thread loads the policy and walks the tree.
 *
 * <p>Why threads: the probes ask only the host, never the policy, and they wait (the mount probe for a chain of
 * {@code unshare} processes, the first native call for JNA to load), so they overlap the policy's loading; each
 * backend's plans (up to three with the baseline, {@link Baseline#apply}) depend on no other backend's. The answers are
 * the ones the same steps give one after the other: discovery order, the same probe, the same plans.
 */
final class BackendSurvey {
    /**
     * One backend's answers.
     *
     * @param plan     its plan for the policy's set; null when unavailable, or when plan() failed
     * @param baseline what it keeps of the baseline; null when there is no plan, or when that failed
     */
    record Backend(Backends.Probed probed, Plan plan, Baseline.Applied baseline) {
    }

    private record Inputs(ProtectedSet set, List<Baseline.Item> items) {
    }

    private final CompletableFuture<Enforcers> enforcers = new CompletableFuture<>();
    private final CompletableFuture<List<CompletableFuture<Backends.Probed>>> probes = new CompletableFuture<>();
    private final CompletableFuture<List<CompletableFuture<Backend>>> backends = new CompletableFuture<>();
    private final CompletableFuture<Inputs> inputs = new CompletableFuture<>();

    private BackendSurvey() {
    }

    /**
     * Starts discovery and then every backend's probe (daemon threads: a command that fails first exits without
     * waiting for them). Each backend's plans follow its probe once {@link #plan} has given the set.
     */
    static BackendSurvey start() {
        BackendSurvey s = new BackendSurvey();
        daemon("ralon-discovery", () -> {
            Enforcers found;
            try {
                found = Backends.discover();
            } catch (RuntimeException | Error e) {
                s.enforcers.completeExceptionally(e);
                s.probes.completeExceptionally(e);
                s.backends.completeExceptionally(e);
                return;
            }
            s.enforcers.complete(found);
            List<CompletableFuture<Backends.Probed>> probed = new ArrayList<>();
            List<CompletableFuture<Backend>> answered = new ArrayList<>();
            for (Enforcer e : found.all()) {
                CompletableFuture<Backends.Probed> p = new CompletableFuture<>();
                CompletableFuture<Backend> b = new CompletableFuture<>();
                probed.add(p);
                answered.add(b);
                daemon("ralon-" + e.name(), () -> s.survey(e, p, b));
            }
            s.probes.complete(probed);
            s.backends.complete(answered);
        });
        return s;
    }

    private void survey(Enforcer e, CompletableFuture<Backends.Probed> probed, CompletableFuture<Backend> answered) {
        try {
            Backends.Probed p = new Backends.Probed(e, Backends.safeProbe(e));
            probed.complete(p);
            if (!p.probe().available()) {
                answered.complete(new Backend(p, null, null));
                return;
            }
            Inputs in = await(inputs);
            Plan plan;
            try {
                plan = e.plan(in.set());
            } catch (EnforcerFailure f) { // passed over by run's choice; status shows no baseline line for it
                answered.complete(new Backend(p, null, null));
                return;
            }
            Baseline.Applied applied;
            try {
                applied = Baseline.apply(e, in.set(), plan, in.items());
            } catch (RuntimeException | LinkageError f) {
                applied = null; // a third-party plan that throws is reported by run
            }
            answered.complete(new Backend(p, plan, applied));
        } catch (RuntimeException | Error f) {
            probed.completeExceptionally(f);
            answered.completeExceptionally(f);
        }
    }

    /** The discovered backends. */
    Enforcers enforcers() {
        return await(enforcers);
    }

    /** Every discovered backend with its probe, in discovery order (waits for the probes only). */
    List<Backends.Probed> probed() {
        List<Backends.Probed> out = new ArrayList<>();
        for (CompletableFuture<Backends.Probed> p : await(probes)) {
            out.add(await(p));
        }
        return out;
    }

    /** Gives the backends the policy's protected set and the baseline's items to plan for; once. */
    void plan(ProtectedSet set, List<Baseline.Item> items) {
        inputs.complete(new Inputs(set, List.copyOf(items)));
    }

    /** Every backend's answers, in discovery order (waits for all of them; {@link #plan} first). */
    List<Backend> backends() {
        List<Backend> out = new ArrayList<>();
        for (CompletableFuture<Backend> b : await(backends)) {
            out.add(await(b));
        }
        return out;
    }

    /**
     * The backend {@code run} would use without {@code --backend}: the first of rank above 0 that is available and
     * whose plan was made ({@link Backends#choose(Enforcers, String, ProtectedSet, List)}'s rule); null when none.
     */
    static String runWouldUse(List<Backend> all) {
        for (Backend b : all) {
            if (b.probed().enforcer().rank() > 0 && b.probed().probe().available() && b.plan() != null) {
                return b.probed().enforcer().name();
            }
        }
        return null;
    }

    private static void daemon(String name, Runnable job) {
        Thread t = new Thread(job, name);
        t.setDaemon(true);
        t.start();
    }

    /** The value; a failure on another thread is rethrown here as it was thrown there. */
    private static <T> T await(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }
}
