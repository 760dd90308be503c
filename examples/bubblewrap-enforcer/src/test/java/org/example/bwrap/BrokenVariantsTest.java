package org.example.bwrap;

import dev.ralon.testsupport.Requirements;
import dev.ralon.testsupport.SideBySide;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * The broken variants of {@link BwrapEnforcer} ({@link BrokenBwrap}) must fail the conformance kit, on the checks
 * that name their mistake, and only there: the kit is run on each through the JUnit Platform test kit, as the
 * invoking user, and its failed tests are read back.
 */
class BrokenVariantsTest {
    /** The kit's attacks on the mount table, made directly by the sandboxed command. */
    private static final List<String> MOUNT_TABLE = List.of("umount", "umount-lazy", "remount-rw", "mount-setattr",
            "move-mount", "open-tree-clone", "open-tree-clone-rw");

    private static final String NO_SUPERVISOR = "the command runs as the process ralon was started as (no supervisor)";

    /** The three variants' kit executions, two at a time, started when the class is loaded; each test waits. */
    private static final Map<Class<?>, Future<Events>> AHEAD = new ConcurrentHashMap<>();

    static {
        ExecutorService pool = SideBySide.pool(2, "kit-variants");
        for (Class<?> fixture : List.of(VariantFixtures.Supervising.class, VariantFixtures.NotNested.class,
                VariantFixtures.MissedBind.class)) {
            AHEAD.put(fixture, pool.submit(() -> EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture))
                    .execute().testEvents()));
        }
        pool.shutdown();
    }

    private static Events run(Class<?> fixture) {
        Events events;
        try {
            events = AHEAD.get(fixture).get(30, TimeUnit.MINUTES); // each execution bounds its own runs
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + fixture.getSimpleName(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the kit's execution of " + fixture.getSimpleName() + " failed", e);
        }
        // unavailable here (no bwrap, no user namespaces): the kit's own rule (skipped, failed under CI=true)
        events.failed().list().stream().map(BrokenVariantsTest::message)
                .filter(m -> m.contains("is unavailable here")).findFirst().ifPresent(Requirements::unmet);
        events.aborted().list().stream().map(BrokenVariantsTest::message)
                .filter(m -> m.contains("is unavailable here")).findFirst().ifPresent(Requirements::unmet);
        return events;
    }

    private static String message(Event e) {
        return e.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable)
                .map(Throwable::getMessage).orElse("");
    }

    private static String name(Event e) {
        return e.getTestDescriptor().getDisplayName();
    }

    private static List<String> names(List<Event> events) {
        return events.stream().map(e -> name(e) + ": " + message(e)).toList();
    }

    /**
     * bwrap as the command's parent: the kit reports the supervisor, once. bwrap does not pass SIGTERM on: the kit's
     * signal (its last step) kills bwrap and, through {@code --die-with-parent}, the command, so the script does not
     * end and its status does not come back, which is reported once too. Every attack whose file changed or whose
     * result was reported from inside (the script's status, the attack program's errno) is still judged, and none got
     * through (the binds are sound); only the attacks made through a helper or a terminal, whose status is the outer
     * command's, and those after the kill get "no verdict".
     */
    @Test
    void bwrapLeftAsTheParentFailsTheNoSupervisorCheck() {
        Events events = run(VariantFixtures.Supervising.class);
        List<Event> failed = events.failed().list();
        List<Event> pid = failed.stream().filter(e -> name(e).endsWith(NO_SUPERVISOR)).toList();
        assertEquals(1, pid.size(), "the supervisor is reported once: " + names(failed));
        assertTrue(message(pid.get(0)).startsWith("the sandboxed command's pid is ")
                && message(pid.get(0)).contains("something stays between ralon's process and the command"),
                message(pid.get(0)));
        assertTrue(failed.stream().anyMatch(e -> name(e).endsWith("SIGTERM sent to ralon's pid reaches the command")),
                names(failed).toString());
        assertTrue(failed.stream().anyMatch(e -> name(e).endsWith("ran the attack script to its end")),
                names(failed).toString());
        List<Event> attacks = failed.stream().filter(e -> name(e).contains(" x ")).toList();
        assertTrue(attacks.stream().allMatch(e -> message(e).startsWith("no verdict: ")),
                "no attack got through, the others have no verdict: " + names(attacks));
        assertEquals(3, failed.size() - attacks.size(), "nothing else fails: " + names(failed));
        long judged = events.succeeded().list().stream().filter(e -> name(e).contains(" x ")).count();
        assertTrue(judged > 100, "the attacks the script reported are judged all the same: " + judged + " passed");
    }

    /**
     * The command in bwrap's own user namespace: as root it keeps every capability there (setns(2) gave them, and
     * execve keeps them for uid 0), and the kit's mount-table attacks undo the binds. Run by any other user, execve
     * drops them (capabilities(7)) and the variant passes: there is no check to fail then.
     */
    @Test
    void noNestedNamespaceFailsTheMountTableAttacksAsRoot() {
        Events events = run(VariantFixtures.NotNested.class);
        List<Event> failed = events.failed().list();
        if (!Requirements.isRoot()) {
            assertEquals(List.of(), names(failed), "not root: execve dropped the capabilities setns gave");
            return;
        }
        for (String id : List.of("umount", "remount-rw", "mount-setattr")) {
            assertTrue(failed.stream().anyMatch(e -> name(e).contains("] " + id + " x file -> got through")
                    && message(e).startsWith("backend bwrap-not-nested declares modify-content, but attack '" + id
                    + "'")), id + " x file must fail; failed: " + names(failed));
        }
        assertTrue(failed.stream().allMatch(e -> MOUNT_TABLE.stream().anyMatch(id -> name(e).contains("] " + id
                + " x "))), "only the mount-table attacks fail: " + names(failed));
    }

    /**
     * The policy file left unbound: the attacks on it get through (the first that replaces it makes the later ones
     * "not judged", as the kit says), and nothing else fails.
     */
    @Test
    void aMissedBindFailsTheAttacksOnThatPath() {
        Events events = run(VariantFixtures.MissedBind.class);
        List<Event> failed = events.failed().list();
        for (String id : List.of("write", "append")) {
            assertTrue(failed.stream().anyMatch(e -> name(e).contains("] " + id + " x policy -> got through")
                    && message(e).startsWith("backend bwrap-missed-bind declares ")), id + " x policy must fail;"
                    + " failed: " + names(failed));
        }
        assertTrue(failed.stream().allMatch(e -> name(e).contains(" x policy -> got through")),
                "only attacks on the unbound path fail: " + names(failed));
    }
}
