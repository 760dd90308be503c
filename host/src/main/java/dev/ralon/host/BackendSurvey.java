package dev.ralon.host;

import dev.ralon.enforcer.spi.Confinement;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.host.discovery.EnforcerFailure;
import dev.ralon.host.discovery.Enforcers;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.linux.LibC;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The work on backends that does not depend on agent.lock, started on daemon threads before the policy is read, so
 * that it overlaps the policy's loading and walk on a second core (docs/performance.md); one mechanism for
 * {@code ralon run} ({@link #forRun}) and {@code ralon status} ({@link #forStatus}):
 * <ul>
 *   <li>JNA's class initialisation (loading its native library; java.util.logging's {@code LogManager}, which
 *       {@code Native} starts, on a thread of its own beside it) and then {@link LibC}'s, whose {@code Native.register}
 *       binds every libc function Ralon calls (reflection over its methods, {@code Structure.FFIType}: 25-50 ms);</li>
 *   <li>meanwhile, on another thread, backend discovery ({@link Backends#discover()}: no native code), then the
 *       probes: for {@code status} every backend's, each on a thread of its own; for {@code run} those
 *       {@link Backends#choose} will ask, in its order ({@link Backends#candidates}), once JNA is ready: the pinned
 *       backend's, or each built-in backend's until one is available. Built-in backends keep their probe's answer for
 *       the process (MountProbe, the Landlock ABI), so the choice reads it. A plugin's probe never runs ahead for
 *       {@code run}: it runs where it always ran, once, on the calling thread, and the built-in probes after it are
 *       left to the choice too; nor does any when JNA or libc failed to initialise (the calling thread meets the
 *       failure and reports it);</li>
 *   <li>once {@link #plan} has given the protected set and the baseline's items: the plans of each available backend
 *       surveyed (for {@code run}, the one the choice will take): the plan for the set, and at the same time, on a
 *       second thread for a built-in backend, the plan for the set with the baseline's candidates
 *       ({@link Baseline#withCandidates}), which {@link Baseline#apply} would make next. For {@code status}, then
 *       {@link Baseline#apply} too.</li>
 * </ul>
 *
 * <p>Contract: nothing here changes what is decided or printed, only when and on which thread the work is done. The
 * answers are the ones the same steps give one after the other: discovery order, the same probes, the same plans (a
 * plan is a pure function of the set; a plugin's two plans are made one after the other, as before, never at once).
 * A failure on another thread is rethrown where the calling thread asks for the value, as it was thrown there. The
 * threads end with the JVM or are gone at execve(2), which keeps only the calling thread.
 */
public final class BackendSurvey {
    /**
     * One backend's answers, for {@code status}.
     *
     * @param plan     its plan for the policy's set; null when unavailable, or when plan() failed
     * @param baseline what it keeps of the baseline; null when there is no plan, or when that failed
     */
    public record Backend(Backends.Probed probed, Plan plan, Baseline.Applied baseline) {
    }

    private record Inputs(ProtectedSet set, List<Baseline.Item> all, Confinement confinement, Confinement copied) {
        /**
         * The baseline's items for {@code e}: under a backend that confines writes, those inside the areas only (of
         * the session with a copy of the home directory when {@code e} makes one).
         */
        List<Baseline.Item> items(Enforcer e) {
            return Baseline.forConfinement(e, all, copied != null && e.copiesHome() ? copied : confinement);
        }

    }

    /** What is done ahead for one backend. */
    private static final class Ahead {
        final Enforcer enforcer;
        final CompletableFuture<Backends.Probed> probed = new CompletableFuture<>();
        final CompletableFuture<Plan> plan = new CompletableFuture<>();
        final CompletableFuture<Plan> withBaseline = new CompletableFuture<>(); // null value: no candidate
        final CompletableFuture<Backend> answer = new CompletableFuture<>();

        Ahead(Enforcer enforcer) {
            this.enforcer = enforcer;
        }
    }

    /** For run: {@link #enforcers()} waits for the probes too, so that the choice reads their answers. */
    private final boolean run;
    private final CompletableFuture<Enforcers> enforcers = new CompletableFuture<>();
    private final CompletableFuture<List<Ahead>> surveyed = new CompletableFuture<>();
    private final CompletableFuture<Inputs> inputs = new CompletableFuture<>();
    private final CompletableFuture<Boolean> nativeLoaded = new CompletableFuture<>();

    private BackendSurvey(boolean run) {
        this.run = run;
    }

    /**
     * For {@code ralon status}: discovery, then every backend's probe, each on a thread of its own; each available
     * backend's plans and baseline follow once {@link #plan} has given the set.
     */
    public static BackendSurvey forStatus() {
        BackendSurvey s = new BackendSurvey(false);
        s.loadNative();
        daemon("ralon-discovery", () -> s.discover(found -> {
            List<Ahead> all = new ArrayList<>();
            for (Enforcer e : found.all()) {
                Ahead a = new Ahead(e);
                all.add(a);
                daemon("ralon-" + e.name(), () -> s.survey(a, true));
            }
            return all;
        }));
        return s;
    }

    /**
     * For {@code ralon run} with backend {@code pinned} (null: the machine chooses): discovery, then the built-in
     * probes the choice will ask, then the plans of the backend it will take (see the class doc).
     */
    public static BackendSurvey forRun(String pinned) {
        BackendSurvey s = new BackendSurvey(true);
        s.loadNative();
        daemon("ralon-discovery", () -> s.discover(found -> {
            List<Ahead> asked = new ArrayList<>();
            if (!s.nativeLoaded.join()) {
                return asked;
            }
            List<Enforcer> order = pinned == null ? Backends.candidates(found)
                    : found.byName(pinned).map(List::of).orElse(List.of());
            for (Enforcer e : order) {
                if (!builtIn(e)) {
                    break;
                }
                Ahead a = new Ahead(e);
                asked.add(a);
                s.survey(a, false);
                if (a.probed.join().probe().available()) {
                    break;
                }
            }
            return asked;
        }));
        return s;
    }

    private interface Asking {
        List<Ahead> ask(Enforcers found);
    }

    private void discover(Asking asking) {
        Enforcers found;
        try {
            found = Backends.discover();
        } catch (RuntimeException | Error e) {
            enforcers.completeExceptionally(e);
            surveyed.completeExceptionally(e);
            return;
        }
        enforcers.complete(found);
        try {
            surveyed.complete(asking.ask(found));
        } catch (RuntimeException | Error e) {
            surveyed.complete(List.of()); // the calling thread asks again and meets it
        }
    }

    /** Starts JNA's and LibC's initialisation on a thread, java.util.logging's beside it (see the class doc). */
    private void loadNative() {
        daemon("ralon-logging", () -> {
            try {
                java.util.logging.LogManager.getLogManager();
            } catch (Throwable e) { // JNA's Native meets it again, on the thread that reports it
            }
        });
        daemon("ralon-native", () -> {
            try {
                Class.forName("com.sun.jna.Native", true, BackendSurvey.class.getClassLoader());
                Class.forName(LibC.class.getName(), true, BackendSurvey.class.getClassLoader());
                nativeLoaded.complete(true);
            } catch (Throwable e) { // the calling thread's first use meets the same failure and reports it
                nativeLoaded.complete(false);
            }
        });
    }

    /**
     * Probes {@code a}'s backend; when available, waits for {@link #plan} and makes its plans (for status then applies
     * the baseline). The probe's answer is completed as soon as it is known; the plans then follow on this thread
     * for run's survey, which stops at the first available backend anyway.
     */
    private void survey(Ahead a, boolean status) {
        Enforcer e = a.enforcer;
        Backends.Probed p;
        try {
            p = new Backends.Probed(e, Backends.safeProbe(e));
        } catch (RuntimeException | Error f) {
            a.probed.completeExceptionally(f);
            a.answer.completeExceptionally(f);
            return;
        }
        a.probed.complete(p);
        if (!p.probe().available()) {
            a.answer.complete(new Backend(p, null, null));
            return;
        }
        if (status) {
            plan(a);
            try {
                a.answer.complete(answer(a, p));
            } catch (RuntimeException | Error f) {
                a.answer.completeExceptionally(f);
            }
        } else {
            daemon("ralon-plan-" + e.name(), () -> plan(a));
        }
    }

    /**
     * The plan for the set and, beside it, the plan for the set with the baseline's candidates. Both futures are
     * completed whatever happens, so that nobody waits for ever.
     */
    private void plan(Ahead a) {
        Inputs in;
        ProtectedSet with;
        try {
            in = inputs.join();
            with = Baseline.withCandidates(a.enforcer, in.set(), in.items(a.enforcer));
        } catch (RuntimeException | Error e) {
            a.plan.completeExceptionally(e);
            a.withBaseline.completeExceptionally(e);
            return;
        }
        boolean beside = with != null && builtIn(a.enforcer); // a plugin's plans stay one after the other
        if (beside) {
            daemon("ralon-plan-baseline-" + a.enforcer.name(), () -> complete(a.withBaseline, () -> a.enforcer.plan(with)));
        }
        complete(a.plan, () -> a.enforcer.plan(in.set()));
        if (with == null || (!beside && a.plan.isCompletedExceptionally())) {
            a.withBaseline.complete(null); // nothing to plan, or a plugin whose first plan failed: apply is not asked
        } else if (!beside) {
            complete(a.withBaseline, () -> a.enforcer.plan(with));
        }
    }

    private Backend answer(Ahead a, Backends.Probed p) {
        Inputs in = inputs.join();
        Plan plan;
        try {
            plan = await(a.plan);
        } catch (EnforcerFailure f) { // passed over by run's choice; status shows no baseline line for it
            return new Backend(p, null, null);
        }
        Baseline.Applied applied;
        try {
            applied = Baseline.apply(a.enforcer, in.set(), plan, in.items(a.enforcer), () -> await(a.withBaseline));
        } catch (RuntimeException | LinkageError f) {
            applied = null; // a third-party plan that throws is reported by run
        }
        return new Backend(p, plan, applied);
    }

    private static <T> void complete(CompletableFuture<T> f, Supplier<T> work) {
        try {
            f.complete(work.get());
        } catch (RuntimeException | Error e) {
            f.completeExceptionally(e);
        }
    }

    /** The discovered backends (for run, once the probes asked ahead have answered: the choice reads them). */
    public Enforcers enforcers() {
        Enforcers found = await(enforcers);
        if (run) {
            try {
                surveyed.join();
            } catch (CompletionException e) { // the choice asks again and meets it
            }
        }
        return found;
    }

    /** Problems of discovery (a plugin that failed to load or was excluded), one line each. */
    public List<String> problems() {
        return Backends.problems(enforcers());
    }

    /** Gives the backends the policy's protected set and the baseline's items to plan for; once. */
    public void plan(ProtectedSet set, List<Baseline.Item> items) {
        plan(set, items, Confinement.NONE, null);
    }

    /**
     * Gives the backends the policy's protected set, the baseline's items and the session's confinement to plan for;
     * once. A backend that declares {@link dev.ralon.enforcer.spi.Guarantee#WRITES_OUTSIDE} plans the items inside
     * the confinement's areas only: the rest are read-only by the confinement ({@link Baseline#forConfinement}).
     */
    public void plan(ProtectedSet set, List<Baseline.Item> items, Confinement confinement, Confinement copied) {
        inputs.complete(new Inputs(set, List.copyOf(items), confinement, copied));
    }

    /** Every discovered backend with its probe, in discovery order (status; waits for the probes only). */
    public List<Backends.Probed> probed() {
        List<Backends.Probed> out = new ArrayList<>();
        for (Ahead a : await(surveyed)) {
            out.add(await(a.probed));
        }
        return out;
    }

    /** Every backend's answers, in discovery order (status; waits for all of them; {@link #plan} first). */
    public List<Backend> backends() {
        List<Backend> out = new ArrayList<>();
        for (Ahead a : await(surveyed)) {
            out.add(await(a.answer));
        }
        return out;
    }

    /**
     * {@code e}'s plan for {@code set}: the one made ahead when {@code set} is the one given to {@link #plan} and
     * {@code e} was surveyed, else made now. A failure is thrown as {@code plan()} threw it.
     */
    public Plan plan(Enforcer e, ProtectedSet set) {
        Ahead a = surveyedAs(e, set);
        return a == null ? e.plan(set) : await(a.plan);
    }

    /**
     * What {@link Baseline#apply} plans first for {@code e} and {@code set}: the plan made ahead, or null when none
     * was (then apply makes it).
     */
    public Supplier<Plan> baselinePlan(Enforcer e, ProtectedSet set) {
        Ahead a = surveyedAs(e, set);
        return a == null ? null : () -> await(a.withBaseline);
    }

    /**
     * {@code e}'s probe: the one made ahead when {@code e} was surveyed (waiting for it: a plugin's probe is bounded by
     * its isolation), else made now ({@link Backends#safeProbe}). A probe so runs once per command.
     */
    public dev.ralon.enforcer.spi.Probe probe(Enforcer e) {
        try {
            for (Ahead a : surveyed.join()) {
                if (a.enforcer == e) { // asked ahead: its answer comes (a plugin's probe is bounded), never twice
                    return a.probed.join().probe();
                }
            }
        } catch (CompletionException f) { // asked again below, where the failure is met and reported
        }
        return Backends.safeProbe(e);
    }

    /**
     * What {@link Baseline#apply} gave for {@code e} and {@code set} when status's survey applied it ahead, else null
     * (run's survey does not apply: the caller does, on the plans made ahead).
     */
    public Baseline.Applied applied(Enforcer e, ProtectedSet set) {
        Ahead a = run ? null : surveyedAs(e, set);
        if (a == null) {
            return null;
        }
        try {
            return await(a.answer).baseline();
        } catch (RuntimeException f) {
            return null;
        }
    }

    private Ahead surveyedAs(Enforcer e, ProtectedSet set) {
        Inputs in = inputs.getNow(null);
        if (in == null || in.set() != set) {
            return null;
        }
        List<Ahead> asked;
        try {
            asked = surveyed.join(); // done once the probes are: the choice waits for them anyway
        } catch (CompletionException f) {
            return null;
        }
        for (Ahead a : asked) {
            if (a.enforcer == e && a.probed.isDone() && !a.probed.isCompletedExceptionally()
                    && a.probed.join().probe().available()) {
                return a;
            }
        }
        return null;
    }

    private static boolean builtIn(Enforcer e) {
        return "built in".equals(Backends.origin(e));
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
