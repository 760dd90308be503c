package org.example.bwrap;

import dev.ralon.conformance.ConformanceKit;
import dev.ralon.testsupport.Requirements;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The Ralon conformance kit against this enforcer, as the invoking user and as uid 65534. */
class BwrapConformanceTest {
    @TestFactory
    Stream<DynamicNode> conformance() {
        return ConformanceKit.forEnforcer("bwrap").build().tests();
    }

    @TestFactory
    Stream<DynamicNode> conformanceAsNobody() {
        String unreachable = unreachableToNobody();
        if (unreachable != null) {
            return Stream.of(DynamicTest.dynamicTest("[bwrap, uid 65534] uid 65534 can run bwrap",
                    () -> Requirements.unmet(unreachable)));
        }
        return ConformanceKit.forEnforcer("bwrap").asNobody().build().tests();
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
