package dev.ralon.conformance;

import dev.ralon.enforcer.spi.Guarantee;
import org.junit.jupiter.api.DynamicNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The conformance kit: attacks an enforcer for real, through the same code path as {@code ralon run}, and turns what
 * happened on disk into JUnit 5 tests. A third party adds the kit in test scope and writes:
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicNode> conformance() {
 *     return ConformanceKit.forEnforcer("my-enforcer").build().tests();
 * }
 * }</pre>
 *
 * <h2>What a run does</h2>
 * It builds a fresh project under /tmp (a git repository; one directory per (attack × kind of path), see
 * {@link Attacks} and {@link PathKind}), then starts a child JVM running {@code dev.ralon.cli.Main run --backend NAME
 * -- /bin/sh attacks.sh} with the test class path (so the enforcer is found by ServiceLoader exactly as
 * {@code ralon run} finds it), optionally as another user through {@code setpriv}. The script makes every attack
 * inside the sandbox; the kit reads the disk from OUTSIDE: content hash, inode, existence, directory listing, mode,
 * mtime, owner. The same script runs once per JVM and user under {@code --backend noop} as the control.
 *
 * <h2>Verdicts (claims against reality, both directions)</h2>
 * <ul>
 *   <li>A guarantee the enforcer declares: every attack on it must leave its path unchanged. A change fails the test
 *       with the attack and what changed on disk.</li>
 *   <li>A guarantee it does not declare must really be breakable: at least one of its attacks must get through
 *       (or, for {@link Guarantee#CREATE_MISSING}, the plan must refuse missing paths, which reports it unsupported).
 *       A backend that holds a guarantee it does not declare fails: claims must match reality.</li>
 *   <li>Every attack must change its path under the control run ({@code noop}), or the test fails as "proves
 *       nothing".</li>
 *   <li>What must keep working keeps working: unprotected writes, new files where the plan does not restrict
 *       creation, reading protected files, {@code git status}, the command's exit status.</li>
 * </ul>
 * Needs Linux, {@code /bin/sh}, coreutils, git and util-linux on the host. When the enforcer's probe says
 * unavailable, or another user is asked for and the JVM is not root, the tests are aborted (skipped) — except when
 * the environment variable {@code CI} is {@code true}, where they fail.
 *
 * <h2>Its parts</h2>
 * This class is the API (a builder, the {@link Report} and its {@link Verdict}s). {@link KitExecution} runs one
 * execution (control, project, plan, attacks: {@link KitRun}), the {@link Judge} turns what was seen into verdicts
 * (pure: unit-tested without a sandbox), {@link KitTests} renders a report as JUnit tests, {@link KitReports} prints
 * the summary and writes the results table.
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Experimental("the third party's API of the kit (docs/conformance.md): may change in a minor"
        + " release")
public final class ConformanceKit {
    /** uid of "nobody", the unprivileged user CI runs the kit as. */
    public static final int NOBODY = 65534;

    /**
     * System property: when {@code true}, the attacked project of a run with any failure is kept under /tmp (and its
     * path printed) instead of being deleted, to look at what the attacks left.
     */
    public static final String KEEP_PROPERTY = "ralon.conformance.keep";

    /** System property: a directory where every run writes one tab-separated line per (attack × kind). */
    public static final String RESULTS_PROPERTY = "ralon.conformance.results";

    private final String name;
    private final int uid;
    private final int timeoutSeconds;
    private final ClassLoader loader;
    private final boolean launcherNamespace;

    private ConformanceKit(Builder b) {
        this.name = b.name;
        this.uid = b.uid;
        this.launcherNamespace = b.launcherNamespace;
        this.timeoutSeconds = b.timeoutSeconds;
        this.loader = b.loader;
    }

    /** A kit for the enforcer registered under {@code name} (found with ServiceLoader on the test class path). */
    public static Builder forEnforcer(String name) {
        return new Builder(name);
    }

    /** Builder of a {@link ConformanceKit}. */
    public static final class Builder {
        private final String name;
        private int uid = KitHost.currentUid();
        private int timeoutSeconds = 240;
        private ClassLoader loader = Thread.currentThread().getContextClassLoader();
        private boolean launcherNamespace;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /** Runs the sandboxed command as {@code uid} (via {@code setpriv}; needs root). Default: this JVM's user. */
        public Builder asUser(int uid) {
            this.uid = uid;
            return this;
        }

        /** Runs as uid 65534 (nobody), the unprivileged user CI runs the kit as (needs root). */
        public Builder asNobody() {
            return asUser(NOBODY);
        }

        /**
         * Starts the host JVM as Ralon's launcher starts {@code ralon run}: as root of a fresh user and mount namespace
         * that names it ({@code ralon.sh}; {@link dev.ralon.linux.LauncherNamespace}), so that Ralon's
         * mount backend makes its binds in the host JVM instead of in its stage, and its landlock backend can make the
         * session's PID namespace (it refuses to start without). For Ralon's own tests of those routes; a third-party
         * enforcer has no use for it.
         */
        public Builder inLauncherNamespace() {
            this.launcherNamespace = true;
            return this;
        }

        /** Limit for one sandboxed run. Default 240 s. */
        public Builder timeoutSeconds(int seconds) {
            this.timeoutSeconds = seconds;
            return this;
        }

        /** Where to look for the enforcer in this JVM (its declarations and plan). Default: the context loader. */
        public Builder classLoader(ClassLoader loader) {
            this.loader = Objects.requireNonNull(loader);
            return this;
        }

        public ConformanceKit build() {
            return new ConformanceKit(this);
        }
    }

    /**
     * One (attack × kind) verdict.
     *
     * @param notJudged why this case could not be judged (an earlier breach replaced the policy file, whose
     *                  protection in the sandbox then cannot speak for the new file), or null when it was judged;
     *                  a case not judged neither passes nor fails: its test is aborted with this reason
     */
    public record Verdict(String caseId, Attack attack, PathKind kind, boolean declared, boolean brokeThrough,
                          boolean controlChanged, String failure, String detail, String notJudged) {
        public boolean passed() {
            return failure == null;
        }
    }

    /**
     * Everything measured by one run.
     *
     * @param backend     the enforcer's name
     * @param uid         the user the command ran as
     * @param declared    what the enforcer declares
     * @param setupFailure why the run could not be judged at all (null when it could)
     * @param sanity      what must keep working: name → failure message (null when it worked)
     * @param verdicts    one per (attack × kind), in catalogue order
     * @param unsupported guarantees reported unsupported by the plan instead of being attacked, with the reason
     */
    public record Report(String backend, int uid, Set<Guarantee> declared, String setupFailure,
                         Map<String, String> sanity, List<Verdict> verdicts, Map<Guarantee, String> unsupported) {
        /** The measured state of one guarantee, in the words docs/conformance.md uses. */
        public String status(Guarantee g) {
            List<Verdict> vs = verdicts.stream().filter(v -> v.attack().guarantee() == g).toList();
            if (setupFailure != null) {
                return "no verdict: the sandboxed run failed";
            }
            long broke = vs.stream().filter(Verdict::brokeThrough).count();
            if (declared.contains(g)) {
                return broke == 0 ? "guaranteed, held (" + vs.size() + "/" + vs.size() + " blocked)"
                        : "DECLARED BUT BROKEN (" + broke + "/" + vs.size() + " got through)";
            }
            if (vs.isEmpty()) {
                return unsupported.containsKey(g) ? "not guaranteed (plan refuses: unsupported)" : "not tested";
            }
            return broke > 0 ? "not guaranteed (and indeed breakable: " + broke + "/" + vs.size() + " got through)"
                    : "not declared, yet held (" + vs.size() + "/" + vs.size() + " blocked)";
        }

        /** Whether the guarantee, not being declared, was shown breakable or reported unsupported. */
        boolean undeclaredIsHonest(Guarantee g) {
            return unsupported.containsKey(g) || verdicts.stream()
                    .anyMatch(v -> v.attack().guarantee() == g && v.brokeThrough());
        }
    }

    /** Guards {@link #report}: a private lock, so that no caller's code can hold it (the kit may run ahead). */
    private final Object reportLock = new Object();
    private Report report;

    /**
     * Starts the attacks on {@code executor} now, when the preconditions {@link #tests()} checks hold (the enforcer is
     * found and available, and the user can be switched to); does nothing otherwise. {@link #run()} and
     * {@link #tests()} then wait for that execution instead of making their own, so that several kits of one test
     * class run side by side while JUnit still reports them one after another, each under its own class (JUnit's
     * parallel mode mixes up the classes in surefire's reports). Safe because each execution has its own project,
     * HOME, helpers and terminal, and the noop control is made once per user, under a lock. An execution that failed
     * there is made again, in the test, where its failure is reported.
     *
     * @param executor where the execution runs (a small fixed pool: each execution is a few processes at a time)
     * @return this kit
     * @since 0.1.0
     */
    public ConformanceKit runAhead(java.util.concurrent.Executor executor) {
        if (KitTests.ready(name, uid, loader)) {
            executor.execute(() -> {
                try {
                    run();
                } catch (RuntimeException e) {
                    // made again by run() in the test, which reports it there
                }
            });
        }
        return this;
    }

    /** Runs the attacks once (later calls return the same report). */
    public Report run() {
        synchronized (reportLock) {
            if (report == null) {
                try {
                    report = new KitExecution(name, uid, timeoutSeconds, loader, launcherNamespace).execute();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return report;
        }
    }

    /**
     * The JUnit 5 tests: one per (attack × kind), grouped per guarantee, plus what must keep working. The attacks run
     * when this is called (once: see {@link #run()}), unless the enforcer is missing, unavailable, or another user is
     * asked for without root: then one test says so.
     */
    public Stream<DynamicNode> tests() {
        return KitTests.of(name, uid, loader, this::run);
    }

}
