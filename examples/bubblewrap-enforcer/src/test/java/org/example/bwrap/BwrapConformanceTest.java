package org.example.bwrap;

import dev.ralon.conformance.ConformanceKit;
import dev.ralon.testsupport.Requirements;
import dev.ralon.testsupport.SideBySide;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The Ralon conformance kit against this enforcer, as the invoking user and as uid 65534. Both executions start when
 * the class is loaded and run side by side ({@link ConformanceKit#runAhead}); each factory waits for its own.
 */
class BwrapConformanceTest {
    private static final ExecutorService SIDE_BY_SIDE = SideBySide.pool(2, "kit-side-by-side");
    private static final ConformanceKit AS_INVOKER = ConformanceKit.forEnforcer("bwrap").build()
            .runAhead(SIDE_BY_SIDE);
    private static final String UNREACHABLE_TO_NOBODY = unreachableToNobody();
    private static final ConformanceKit AS_NOBODY = UNREACHABLE_TO_NOBODY != null ? null
            : ConformanceKit.forEnforcer("bwrap").asNobody().build().runAhead(SIDE_BY_SIDE);

    @TestFactory
    Stream<DynamicNode> conformance() {
        return AS_INVOKER.tests();
    }

    @TestFactory
    Stream<DynamicNode> conformanceAsNobody() {
        if (AS_NOBODY == null) {
            return Stream.of(DynamicTest.dynamicTest("[bwrap, uid 65534] uid 65534 can run bwrap",
                    () -> Requirements.unmet(UNREACHABLE_TO_NOBODY)));
        }
        return AS_NOBODY.tests();
    }

    /**
     * Why uid 65534 cannot run the bwrap the build fetched, or null: a build tree below a home directory of mode 700
     * is unreadable to it (the kit copies the class path for it, but bwrap is the enforcer's own business).
     */
    private static String unreachableToNobody() {
        String bwrap = System.getenv(BwrapEnforcer.BWRAP_ENV);
        if (bwrap == null || bwrap.isEmpty() || !Requirements.isRoot()) {
            return null; // bwrap from PATH, or the kit says itself that it needs root
        }
        try {
            Process p = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "test", "-x",
                    bwrap).inheritIO().start();
            if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
                return null;
            }
            p.destroyForcibly();
        } catch (IOException e) {
            return "cannot check whether uid 65534 can run " + bwrap + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        return "uid 65534 cannot run " + bwrap + " (" + BwrapEnforcer.BWRAP_ENV + "; the build tree is not readable"
                + " to it): install bubblewrap, or point " + BwrapEnforcer.BWRAP_ENV + " at a copy it can run";
    }
}
