package dev.ralon.testsupport;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import java.nio.file.Files;
import java.nio.file.Path;

class RequirementsTest {

    @Test
    void aMetRequirementLetsTheTestRun() {
        assertDoesNotThrow(() -> Requirements.require(true, "nothing"));
    }

    @Test
    void anUnmetRequirementSkipsWithTheReasonOutsideCiAndFailsInCi() {
        Throwable t = assertThrows(Throwable.class, () -> Requirements.require(false, "a unicorn (to ride it)"));
        assertEquals(Requirements.inCi() ? AssertionFailedError.class : TestAbortedException.class, t.getClass());
        assertTrue(t.getMessage().contains("needs a unicorn (to ride it)"), t.getMessage());
    }

    @Test
    void anUnmetConditionSaysItsReasonSkippedOutsideCiAndFailedInCi() {
        Throwable t = assertThrows(Throwable.class, () -> Requirements.unmet("the moon is not full"));
        assertEquals(Requirements.inCi() ? AssertionFailedError.class : TestAbortedException.class, t.getClass());
        assertEquals(Requirements.inCi() ? "CI=true but the moon is not full" : "the moon is not full", t.getMessage());
    }

    @Test
    void rootIsTheOwnerOfThisProcess() throws Exception {
        Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        assertEquals(Integer.valueOf(0).equals(uid), Requirements.isRoot());
    }

    /** The annotation, on a method and on a class, through the real JUnit engine. */
    @Test
    void theAnnotationAppliesTheRule() {
        for (Class<?> fixture : new Class<?>[] {Fixtures.OnMethod.class, Fixtures.OnClass.class}) {
            Events events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute()
                    .testEvents();
            if (Requirements.isRoot()) {
                events.assertStatistics(s -> s.started(1).succeeded(1));
            } else if (Requirements.inCi()) {
                events.assertStatistics(s -> s.started(1).failed(1));
            } else {
                events.assertStatistics(s -> s.started(1).aborted(1));
                String reason = events.aborted().list().get(0).getPayload(
                        org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable()
                        .orElseThrow().getMessage();
                assertTrue(reason.contains("needs root (because the fixture says so)"), reason);
            }
        }
    }

    static final class Fixtures {
        static class OnMethod {
            @Test
            @RequiresRoot("because the fixture says so")
            void needsRoot() {
            }
        }

        @RequiresRoot("because the fixture says so")
        static class OnClass {
            @Test
            void needsRoot() {
            }
        }
    }
}
