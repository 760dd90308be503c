package org.example.bindro;

import dev.ralon.conformance.ConformanceKit;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

import java.util.stream.Stream;

/** The Ralon conformance kit against this enforcer, as the invoking user and as uid 65534. */
class BindReadonlyConformanceTest {
    @TestFactory
    Stream<DynamicNode> conformance() {
        return ConformanceKit.forEnforcer("bind-ro").build().tests();
    }

    @TestFactory
    Stream<DynamicNode> conformanceAsNobody() {
        return ConformanceKit.forEnforcer("bind-ro").asNobody().build().tests();
    }
}
