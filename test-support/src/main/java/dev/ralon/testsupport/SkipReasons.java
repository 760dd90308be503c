package dev.ralon.testsupport;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Prints the reason of every skipped or aborted test on the console, one line each, as it happens: Maven's summary
 * only counts them ("Skipped: 1") and the reason would otherwise be found only in the XML reports. Registered as a
 * JUnit Platform listener ({@code META-INF/services/org.junit.platform.launcher.TestExecutionListener}), so it runs in
 * every module whose tests have this jar on their class path, the conformance kit's users' included.
 *
 * <p>The line: {@code [SKIPPED] Class > test: reason}. A test aborted by {@link Requirements} outside CI is one of
 * these; under {@code CI=true} the same requirement fails the test instead, and the failure is reported as usual.
 *
 * <p>It also keeps the seeds of the seeded generators ({@link Seeds}) off the console unless they matter: when a test
 * or container fails, the seeds drawn while it or one of its enclosing containers ran (a {@code @TestFactory}'s, for
 * its dynamic tests) are printed, one line each: {@code [SEED] Class > test: NAME seed=N (replay: -Dralon.seed=N)}.
 */
public final class SkipReasons implements TestExecutionListener {
    private final PrintStream out;

    /** The listener the launcher finds: prints on standard output, which the build shows. */
    public SkipReasons() {
        this(System.out);
    }

    SkipReasons(PrintStream out) {
        this.out = out;
    }

    private TestPlan plan;

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
    }

    @Override
    public void executionStarted(TestIdentifier test) {
        Seeds.started(test.getUniqueId());
    }

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        print(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            print(test, result.getThrowable().map(t -> t.getMessage() == null ? t.toString() : t.getMessage())
                    .orElse("aborted"));
        } else if (result.getStatus() == TestExecutionResult.Status.FAILED) {
            List<String> seeds = new ArrayList<>();
            for (Optional<TestIdentifier> at = Optional.of(test); at.isPresent();
                    at = plan == null ? Optional.empty() : plan.getParent(at.get())) {
                seeds.addAll(0, Seeds.take(at.get().getUniqueId()));
            }
            seeds.forEach(seed -> out.println("[SEED] " + name(test) + ": " + seed));
        }
        Seeds.finished(test.getUniqueId(), test.getParentId().orElse(null));
    }

    private void print(TestIdentifier test, String reason) {
        out.println("[SKIPPED] " + name(test) + ": " + (reason == null ? "(no reason given)" : reason.strip()));
    }

    private static String name(TestIdentifier test) {
        // a test method is named with its class; a class (or anything else) by its display name alone
        TestSource source = test.getSource().orElse(null);
        String cls = source instanceof MethodSource ? ((MethodSource) source).getClassName() : null;
        return cls == null ? test.getDisplayName()
                : cls.substring(cls.lastIndexOf('.') + 1) + " > " + test.getDisplayName();
    }
}
