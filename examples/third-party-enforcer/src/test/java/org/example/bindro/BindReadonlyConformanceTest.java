package org.example.bindro;

import dev.ralon.conformance.ConformanceKit;
import dev.ralon.testsupport.SideBySide;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

import java.util.concurrent.ExecutorService;
import java.util.stream.Stream;

/**
 * The Ralon conformance kit against this enforcer, as the invoking user and as uid 65534. Both executions start when
 * the class is loaded and run side by side ({@link ConformanceKit#runAhead}); each factory waits for its own.
 */
class BindReadonlyConformanceTest {
    private static final ExecutorService SIDE_BY_SIDE = SideBySide.pool(2, "kit-side-by-side");
    private static final ConformanceKit AS_INVOKER = ConformanceKit.forEnforcer("bind-ro").build()
            .runAhead(SIDE_BY_SIDE);
    private static final ConformanceKit AS_NOBODY = ConformanceKit.forEnforcer("bind-ro").asNobody().build()
            .runAhead(SIDE_BY_SIDE);

    @TestFactory
    Stream<DynamicNode> conformance() {
        return AS_INVOKER.tests();
    }

    @TestFactory
    Stream<DynamicNode> conformanceAsNobody() {
        return AS_NOBODY.tests();
    }
}
