package dev.ralon.conformance;

import dev.ralon.testsupport.SideBySide;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** The kit itself: it must fail enforcers whose claims do not match reality, with messages that say what happened. */
class KitSelfTest {
    /**
     * The fixtures' kit executions, two at a time, started when the class is loaded (each its own project, HOME,
     * helpers and terminal); each test waits for its own. EngineTestKit runs each fixture class in a nested engine.
     */
    private static final Map<Class<?>, Future<Events>> AHEAD = new ConcurrentHashMap<>();

    static {
        ExecutorService pool = SideBySide.pool(2, "kit-self-test");
        for (Class<?> fixture : List.of(KitFixtures.BrokenClaims.class, KitFixtures.UnderClaiming.class,
                KitFixtures.CapsKeeping.class, KitFixtures.Supervising.class, KitFixtures.NeverRuns.class)) {
            AHEAD.put(fixture, pool.submit(() -> execute(fixture)));
        }
        pool.shutdown();
    }

    private static Events execute(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute().testEvents();
    }

    private static Events run(Class<?> fixture) {
        Future<Events> ahead = AHEAD.get(fixture);
        if (ahead == null) {
            return execute(fixture);
        }
        try {
            return ahead.get(30, TimeUnit.MINUTES); // each execution bounds its own runs (the kit's timeout)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + fixture.getSimpleName(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the kit's execution of " + fixture.getSimpleName() + " failed", e);
        }
    }

    private static String message(Event e) {
        Optional<Throwable> t = e.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable);
        return t.map(Throwable::getMessage).orElse("");
    }

    private static String name(Event e) {
        return e.getTestDescriptor().getDisplayName();
    }

    @Test
    void anEnforcerThatClaimsModifyContentButDoesNothingFailsOnEveryContentAttackNamingWhatChanged() {
        Events events = run(KitFixtures.BrokenClaims.class);
        List<Event> failed = events.failed().list();
        int contentCases = (int) Attacks.all().stream()
                .filter(a -> a.guarantee() == dev.ralon.enforcer.spi.Guarantee.MODIFY_CONTENT)
                .filter(a -> !a.rootOnly() || KitHost.currentUid() == 0)
                .filter(a -> !a.plainControl()) // the host's terminal and session guards block them whatever the enforcer does
                .mapToLong(a -> a.kinds().stream().filter(k -> k != PathKind.LINKED).count()).sum(); // links: not covered
        // One breach of agent.lock that replaced it (a new inode: sed -i, git checkout, …) makes every later attack on
        // it "not judged" (aborted with the reason), never a cascade of false failures; content breaches that kept
        // the inode are restored in place and later attacks are judged.
        List<Event> notJudged = events.aborted().list();
        assertTrue(notJudged.stream().allMatch(e -> name(e).contains(" x policy -> not judged")
                && message(e).startsWith("not judged: attack '") && message(e).contains("' replaced agent.lock")),
                notJudged.stream().map(e -> name(e) + ": " + message(e)).toList().toString());
        assertTrue(failed.stream().anyMatch(e -> name(e).contains("] write x policy ")), "a first breach is judged");
        assertTrue(failed.stream().anyMatch(e -> name(e).contains("] append x policy ")),
                "a write restored in place keeps the next attack on agent.lock judged");
        assertEquals(contentCases, failed.size() + notJudged.stream().filter(e -> Attacks.all().stream()
                .anyMatch(a -> a.guarantee() == dev.ralon.enforcer.spi.Guarantee.MODIFY_CONTENT
                        && name(e).contains("] " + a.id() + " x policy "))).count(),
                "one failure per (modify-content attack x kind), or not judged: "
                + failed.stream().map(KitSelfTest::name).toList());
        assertTrue(failed.stream().allMatch(e -> message(e).startsWith("backend broken-claims declares modify-content, "
                + "but attack '")), failed.stream().map(KitSelfTest::message).findFirst().orElse(""));
        Event write = failed.stream().filter(e -> name(e).contains("] write x file ")).findFirst().orElseThrow();
        String m = message(write);
        assertTrue(m.contains("attack 'write' (echo pwned > FILE (open O_WRONLY|O_CREAT|O_TRUNC, write)) on a file named"
                + " literally in agent.lock (c/write-file/w/target.txt) got through (rc 0); changed on disk:"
                + " c/write-file/w/target.txt: file, "), m);
        assertTrue(m.contains("sha256=") && m.contains("size=20 -> 6"), m);
        assertTrue(m.contains("\n--- the attack's own output ---\n") && m.contains("\n--- the sandboxed process ---\n")
                && m.contains("uid_map: ") && m.contains("CapEff:"), m);
        assertTrue(name(write).endsWith("write x file -> got through"), name(write));
        // what it does not claim is reported breakable, and passes
        assertTrue(events.succeeded().list().stream().anyMatch(e -> name(e).contains("rm x file -> got through (not declared)")));
    }

    @Test
    void anEnforcerThatNeverRunsTheCommandFailsAlthoughNothingWasChanged() {
        Events events = run(KitFixtures.NeverRuns.class);
        Event ran = events.list().stream().filter(e -> name(e).endsWith("ran the attack script to its end"))
                .filter(e -> e.getType() == org.junit.platform.testkit.engine.EventType.FINISHED)
                .findFirst().orElseThrow();
        assertTrue(message(ran).startsWith("`ralon run --backend never-runs` did not run the attack script to its end and"
                + " pass its exit status back (exit 0, expected 42)"), message(ran));
        assertTrue(events.failed().list().stream().anyMatch(e -> name(e).endsWith("a new file can be created in an"
                + " unprotected directory")));
        assertEquals(0, events.succeeded().list().stream().filter(e -> name(e).contains(" x ")).count(),
                "no attack verdict may pass when the command never ran");
    }

    @Test
    void anEnforcerThatHoldsGuaranteesItDoesNotDeclareFailsForEachOfThem() {
        var probe = dev.ralon.host.discovery.Enforcers.discover(getClass().getClassLoader()).byName("mount")
                .orElseThrow().probe();
        dev.ralon.testsupport.Requirements.require(probe.available(), "the mount backend (" + probe.detail() + ")");
        Events events = run(KitFixtures.UnderClaiming.class);
        List<String> failed = events.failed().list().stream().map(KitSelfTest::message).toList();
        List<String> expected = List.of("delete", "rename-away", "rename-over", "create-inside", "ancestor-rename",
                "metadata", "leftovers");
        // and, since it runs mount's chain (a PID namespace) without declaring leftovers, the same-pid check
        assertEquals(expected.size() + 1, failed.size(), String.join("\n", failed));
        assertTrue(failed.stream().anyMatch(m -> m.startsWith("the sandboxed command's pid is ")), failed.toString());
        for (String g : expected) {
            assertTrue(failed.stream().anyMatch(m -> m.startsWith("backend under-claiming does not declare " + g + " (")
                    && m.endsWith("yet every attack on it was blocked: declare it (claims must match reality in both"
                    + " directions)")), g + " in " + failed);
        }
        // create-missing: not declared, and its attacks get through (the host says so at start)
        assertTrue(events.succeeded().list().stream().anyMatch(e -> name(e).endsWith("create-missing is not declared:"
                + " it must be breakable or reported unsupported")));
    }

    /**
     * The known-broken enforcer: read-only binds whose command keeps the capabilities of the namespace that owns them
     * passes every ordinary attack, and fails exactly the mount-table attacks made directly in the sandbox.
     */
    @Test
    void anEnforcerWhoseCommandKeepsMountCapabilitiesFailsTheMountTableAttacks() {
        var probe = dev.ralon.host.discovery.Enforcers.discover(getClass().getClassLoader()).byName("mount")
                .orElseThrow().probe();
        dev.ralon.testsupport.Requirements.require(probe.available(), "user namespaces (" + probe.detail() + ")");
        Events events = run(KitFixtures.CapsKeeping.class);
        List<Event> failed = events.failed().list();
        List<String> mountTable = List.of("umount", "umount-lazy", "remount-rw", "mount-setattr", "move-mount",
                "open-tree-clone", "open-tree-clone-rw");
        for (String id : mountTable) {
            for (String kind : List.of("file", "glob", "nested", "policy")) {
                assertTrue(failed.stream().anyMatch(e -> name(e).contains("] " + id + " x " + kind + " -> got through")
                        && message(e).startsWith("backend caps-keeping declares modify-content, but attack '" + id
                        + "'")), id + " x " + kind + " must fail; failed: " + failed.stream().map(KitSelfTest::name).toList());
            }
        }
        // It keeps those capabilities by mapping the invoking user to root in its namespace: run by root that changes
        // nothing, run by anyone else the command no longer runs as the invoking user, which the kit rightly reports
        boolean root = dev.ralon.testsupport.Requirements.isRoot();
        assertTrue(failed.stream().allMatch(e -> mountTable.stream().anyMatch(id -> name(e).contains("] " + id + " x "))
                || !root && name(e).endsWith("the command runs as the invoking user (uid and gid)")),
                "only the mount-table attacks may fail: " + failed.stream().map(KitSelfTest::name).toList());
    }

    @Test
    void anEnforcerThatStaysTheCommandsParentFailsTheNoSupervisorChecks() {
        Events events = run(KitFixtures.Supervising.class);
        List<Event> failed = events.failed().list();
        Event pid = failed.stream().filter(e -> name(e).endsWith("the command runs as the process ralon was started as"
                + " (no supervisor)")).findFirst().orElseThrow(() -> new AssertionError(failed.stream()
                .map(KitSelfTest::name).toList().toString()));
        assertTrue(message(pid).startsWith("the sandboxed command's pid is "), message(pid));
        assertTrue(message(pid).contains("something stays between ralon's process and the command"), message(pid));

    }

    @Test
    void anUnknownEnforcerNameFailsAndListsWhatWasFound() {
        Events events = run(KitFixtures.Unknown.class);
        assertEquals(1, events.failed().count());
        String m = message(events.failed().list().get(0));
        assertTrue(m.startsWith("no enforcer named 'no-such-enforcer' is found by ServiceLoader on the test class path"
                + " (found: "), m);
        assertTrue(m.contains("mount") && m.contains("broken-claims"), m);
    }
}
