package dev.ralon.enforcement;

import dev.ralon.conformance.ConformanceKit;

import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

import java.util.stream.Stream;

/**
 * The kit against Ralon's own backends, as this JVM's user (root in CI) and as uid 65534: a declared guarantee that
 * breaks, an undeclared one that holds, an attack that changes nothing under noop, or ordinary work that stops
 * working fails the build.
 */
class OurBackendsConformanceTest {
    @TestFactory
    Stream<DynamicNode> noop() {
        return ConformanceKit.forEnforcer("noop").build().tests();
    }

    @TestFactory
    Stream<DynamicNode> noopAsNobody() {
        return ConformanceKit.forEnforcer("noop").asNobody().build().tests();
    }

    @TestFactory
    Stream<DynamicNode> mount() {
        return ConformanceKit.forEnforcer("mount").build().tests();
    }

    @TestFactory
    Stream<DynamicNode> mountAsNobody() {
        return ConformanceKit.forEnforcer("mount").asNobody().build().tests();
    }

    /** The mount backend's route without a stage: the host JVM started in the first namespace, as ralon.sh does. */
    @TestFactory
    Stream<DynamicNode> mountInLauncherNamespace() {
        return ConformanceKit.forEnforcer("mount").inLauncherNamespace().build().tests();
    }

    @TestFactory
    Stream<DynamicNode> mountInLauncherNamespaceAsNobody() {
        return ConformanceKit.forEnforcer("mount").inLauncherNamespace().asNobody().build().tests();
    }

    /**
     * The landlock backend as ralon.sh starts it for {@code ralon run}: in the launcher's namespace, where it makes the
     * session's PID namespace (outside it, prepare refuses: the run would not be contained).
     */
    @TestFactory
    Stream<DynamicNode> landlock() {
        return ConformanceKit.forEnforcer("landlock").inLauncherNamespace().build().tests();
    }

    @TestFactory
    Stream<DynamicNode> landlockAsNobody() {
        return ConformanceKit.forEnforcer("landlock").inLauncherNamespace().asNobody().build().tests();
    }
}
