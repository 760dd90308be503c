package dev.ralon.conformance;

import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

import java.util.stream.Stream;

/**
 * The kit pointed at deliberately broken enforcers. Not run by surefire itself (no Test suffix): {@link KitSelfTest}
 * runs these through the JUnit Platform test kit and checks that they fail, and how.
 */
final class KitFixtures {
    static final class BrokenClaims {
        @TestFactory
        Stream<DynamicNode> kit() {
            return ConformanceKit.forEnforcer("broken-claims").build().tests();
        }
    }

    static final class NeverRuns {
        @TestFactory
        Stream<DynamicNode> kit() {
            return ConformanceKit.forEnforcer("never-runs").build().tests();
        }
    }

    static final class UnderClaiming {
        @TestFactory
        Stream<DynamicNode> kit() {
            return ConformanceKit.forEnforcer("under-claiming").build().tests();
        }
    }

    static final class Supervising {
        @TestFactory
        Stream<DynamicNode> kit() {
            return ConformanceKit.forEnforcer("supervising").build().tests();
        }
    }

    static final class CapsKeeping {
        @TestFactory
        Stream<DynamicNode> kit() {
            return ConformanceKit.forEnforcer("caps-keeping").build().tests();
        }
    }

    static final class Unknown {
        @TestFactory
        Stream<DynamicNode> kit() {
            return ConformanceKit.forEnforcer("no-such-enforcer").build().tests();
        }
    }

    private KitFixtures() {
    }
}
