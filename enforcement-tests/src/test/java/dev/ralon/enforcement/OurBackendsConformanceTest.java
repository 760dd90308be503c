package dev.ralon.enforcement;

import dev.ralon.conformance.ConformanceKit;
import dev.ralon.testsupport.SideBySide;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

import java.util.concurrent.ExecutorService;
import java.util.stream.Stream;

/**
 * The kit against Ralon's own backends, as this JVM's user (root in CI) and as uid 65534: a declared guarantee that
 * breaks, an undeclared one that holds, an attack that changes nothing under noop, or ordinary work that stops
 * working fails the build. The eight executions run two at a time ({@link ConformanceKit#runAhead}), started when the
 * class is loaded, in the order below; each factory waits for its own.
 */
class OurBackendsConformanceTest {
    private static final ExecutorService SIDE_BY_SIDE = SideBySide.pool(2, "kit-side-by-side");

    private static final ConformanceKit NOOP = ConformanceKit.forEnforcer("noop").build().runAhead(SIDE_BY_SIDE);
    private static final ConformanceKit NOOP_AS_NOBODY = ConformanceKit.forEnforcer("noop").asNobody().build()
            .runAhead(SIDE_BY_SIDE);
    private static final ConformanceKit MOUNT = ConformanceKit.forEnforcer("mount").build().runAhead(SIDE_BY_SIDE);
    private static final ConformanceKit MOUNT_AS_NOBODY = ConformanceKit.forEnforcer("mount").asNobody().build()
            .runAhead(SIDE_BY_SIDE);
    private static final ConformanceKit MOUNT_IN_LAUNCHER_NAMESPACE = ConformanceKit.forEnforcer("mount")
            .inLauncherNamespace().build().runAhead(SIDE_BY_SIDE);
    private static final ConformanceKit MOUNT_IN_LAUNCHER_NAMESPACE_AS_NOBODY = ConformanceKit.forEnforcer("mount")
            .inLauncherNamespace().asNobody().build().runAhead(SIDE_BY_SIDE);
    private static final ConformanceKit LANDLOCK = ConformanceKit.forEnforcer("landlock").inLauncherNamespace().build()
            .runAhead(SIDE_BY_SIDE);
    private static final ConformanceKit LANDLOCK_AS_NOBODY = ConformanceKit.forEnforcer("landlock")
            .inLauncherNamespace().asNobody().build().runAhead(SIDE_BY_SIDE);

    @AfterAll
    static void stop() {
        SIDE_BY_SIDE.shutdownNow();
    }

    @TestFactory
    Stream<DynamicNode> noop() {
        return NOOP.tests();
    }

    @TestFactory
    Stream<DynamicNode> noopAsNobody() {
        return NOOP_AS_NOBODY.tests();
    }

    @TestFactory
    Stream<DynamicNode> mount() {
        return MOUNT.tests();
    }

    @TestFactory
    Stream<DynamicNode> mountAsNobody() {
        return MOUNT_AS_NOBODY.tests();
    }

    /** The mount backend's route without a stage: the host JVM started in the first namespace, as ralon.sh does. */
    @TestFactory
    Stream<DynamicNode> mountInLauncherNamespace() {
        return MOUNT_IN_LAUNCHER_NAMESPACE.tests();
    }

    @TestFactory
    Stream<DynamicNode> mountInLauncherNamespaceAsNobody() {
        return MOUNT_IN_LAUNCHER_NAMESPACE_AS_NOBODY.tests();
    }

    /**
     * The landlock backend as ralon.sh starts it for {@code ralon run}: in the launcher's namespace, where it makes the
     * session's PID namespace (outside it, prepare refuses: the run would not be contained).
     */
    @TestFactory
    Stream<DynamicNode> landlock() {
        return LANDLOCK.tests();
    }

    @TestFactory
    Stream<DynamicNode> landlockAsNobody() {
        return LANDLOCK_AS_NOBODY.tests();
    }
}
