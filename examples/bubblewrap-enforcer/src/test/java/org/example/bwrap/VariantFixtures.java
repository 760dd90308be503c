package org.example.bwrap;

import dev.ralon.conformance.ConformanceKit;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

import java.util.stream.Stream;

/**
 * The kit pointed at the broken variants ({@link BrokenBwrap}). Not run by surefire itself (no Test suffix):
 * {@link BrokenVariantsTest} runs these through the JUnit Platform test kit and checks that they fail, and how.
 */
final class VariantFixtures {
    static final class Supervising {
        @TestFactory
        Stream<DynamicNode> kit() {
            return ConformanceKit.forEnforcer("bwrap-supervising").build().tests();
        }
    }

    static final class NotNested {
        @TestFactory
        Stream<DynamicNode> kit() {
            return ConformanceKit.forEnforcer("bwrap-not-nested").build().tests();
        }
    }

    static final class MissedBind {
        @TestFactory
        Stream<DynamicNode> kit() {
            return ConformanceKit.forEnforcer("bwrap-missed-bind").build().tests();
        }
    }

    private VariantFixtures() {
    }
}
