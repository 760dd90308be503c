package dev.ralon.testsupport;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

import java.io.PrintStream;

/**
 * Prints the reason of every skipped or aborted test on the console, one line each, as it happens: Maven's summary
 * only counts them ("Skipped: 1") and the reason would otherwise be found only in the XML reports. Registered as a
 * JUnit Platform listener ({@code META-INF/services/org.junit.platform.launcher.TestExecutionListener}), so it runs in
 * every module whose tests have this jar on their class path, the conformance kit's users' included.
 *
 * <p>The line: {@code [SKIPPED] Class > test: reason}. A test aborted by {@link Requirements} outside CI is one of
 * these; under {@code CI=true} the same requirement fails the test instead, and the failure is reported as usual.
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

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        print(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            print(test, result.getThrowable().map(t -> t.getMessage() == null ? t.toString() : t.getMessage())
                    .orElse("aborted"));
        }
    }

    private void print(TestIdentifier test, String reason) {
        // a test method is named with its class; a class (or anything else) by its display name alone
        TestSource source = test.getSource().orElse(null);
        String cls = source instanceof MethodSource ? ((MethodSource) source).getClassName() : null;
        String name = cls == null ? test.getDisplayName()
                : cls.substring(cls.lastIndexOf('.') + 1) + " > " + test.getDisplayName();
        out.println("[SKIPPED] " + name + ": " + (reason == null ? "(no reason given)" : reason.strip()));
    }
}
