package dev.ralon.testsupport;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherFactory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/**
 * The skip reasons reach the console: a disabled and an aborted test each give one line; a passing one none. The seed
 * a test drew is printed only when that test fails.
 */
class SkipReasonsTest {
    /** Run by the launcher below only (a nested class: Surefire's default excludes leave it out). */
    static class Sample {
        @Test
        void passes() {
        }

        @Test
        @Disabled("not on this kernel")
        void disabled() {
        }

        @Test
        void aborted() {
            Assumptions.assumeTrue(false, "backend mount is unavailable here");
        }

        @Test
        void drawsAndPasses() {
            Seeds.seed("SkipReasonsTest.passing");
        }

        @Test
        void drawsAndFails() {
            Seeds.seed("SkipReasonsTest.failing");
            Assertions.fail("the seed above is the one to replay");
        }
    }

    @Test
    void eachSkippedTestPrintsItsReason() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        // without the listeners found on the class path (this one among them): only `out` hears the sample
        LauncherFactory.create(LauncherConfig.builder().enableTestExecutionListenerAutoRegistration(false).build()).execute(request().selectors(selectClass(Sample.class)).build(), new SkipReasons(out));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().sorted().toList();
        long seed = Long.parseLong(System.getProperty("ralon.seed", Requirements.inCi()
                ? Long.toString(Seeds.CI_BASE ^ "SkipReasonsTest.failing".hashCode()) : "0"));
        assertEquals(3, lines.size(), lines.toString());
        assertEquals(List.of(
                "[SKIPPED] SkipReasonsTest$Sample > aborted(): Assumption failed: backend mount is unavailable here",
                "[SKIPPED] SkipReasonsTest$Sample > disabled(): not on this kernel"), lines.subList(1, 3));
        assertTrue(lines.get(0).startsWith("[SEED] SkipReasonsTest$Sample > drawsAndFails(): SkipReasonsTest.failing"
                + " seed="), lines.get(0));
        if (seed != 0) {
            assertEquals("[SEED] SkipReasonsTest$Sample > drawsAndFails(): SkipReasonsTest.failing seed=" + seed
                    + " (replay: -Dralon.seed=" + seed + ")", lines.get(0));
        }
    }
}
