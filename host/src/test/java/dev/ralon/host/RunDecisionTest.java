package dev.ralon.host;

import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.PolicySet;
import org.example.spi.CountingEnforcer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one decision of a run ({@link RunDecision}), on a real project and a test backend that records its plans: each
 * plan is made once, the writes-outside refusal and the choice's refusals are the host's, in one line.
 */
class RunDecisionTest {
    @TempDir
    Path dir;
    PolicySet policies;

    @BeforeEach
    void project() throws Exception {
        Path root = dir.toRealPath();
        Files.writeString(root.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
        Files.writeString(root.resolve("secret.txt"), "s\n");
        policies = PolicySet.explicit(PolicyLoader.load(root.resolve("agent.lock")));
        CountingEnforcer.PLANNED.clear();
    }

    private RunDecision decide(String backend, boolean writeAnywhere) throws java.io.IOException {
        Map<String, String> env = Map.of("HOME", dir.resolve("home").toString(), "PATH", "/usr/bin:/bin");
        return RunDecision.decide(BackendSurvey.forRun(backend), policies, policies.expand(false),
                new RunDecision.Options(backend, false, false, false, writeAnywhere, null, List.of(), env, dir));
    }

    @Test
    void eachPlanIsMadeOnceAndTheValueHoldsTheRun() throws Exception {
        RunDecision d = decide("decision-test", true);
        assertEquals("decision-test", d.enforcer().name());
        Set<Path> paths = new HashSet<>();
        for (ProtectedPath p : d.set().paths()) {
            paths.add(p.path());
        }
        assertTrue(paths.contains(policies.nearest().root().resolve("secret.txt")), paths.toString());
        assertTrue(paths.contains(policies.nearest().file()), paths.toString());
        List<ProtectedSet> planned = CountingEnforcer.PLANNED;
        assertFalse(planned.isEmpty(), "planned");
        assertEquals(new HashSet<>(planned).size(), planned.size(), "a set planned twice: " + planned);
        assertTrue(d.enforceable(), d.admission().reasons().toString());
        assertEquals(dev.ralon.enforcer.spi.Confinement.NONE, d.confinement());
        assertEquals("decision-test", d.command(Path.of("/bin/true"), List.of("true"), Map.of()).env()
                .get(StartReport.ENV_BACKEND));
    }

    @Test
    void aBackendThatCannotConfineIsRefusedUnlessWritesAnywhere() throws Exception {
        RunDecision d = decide("decision-test", false);
        assertFalse(d.enforceable());
        assertTrue(d.admission().reasons().stream().anyMatch(r -> r.contains(Guarantee.WRITES_OUTSIDE.id())),
                d.admission().reasons().toString());
        assertTrue(d.missing().contains(Guarantee.WRITES_OUTSIDE));
    }

    @Test
    void refusalsOfTheChoiceAreOneLine() {
        HostException unknown = assertThrows(HostException.class, () -> decide("no-such-backend", true));
        assertTrue(unknown.getMessage().contains("no-such-backend"), unknown.getMessage());
        assertFalse(unknown.getMessage().contains("\n"), unknown.getMessage());
        HostException unavailable = assertThrows(HostException.class, () -> decide("spi-test", true));
        assertTrue(unavailable.getMessage().contains("cannot enforce on this host"), unavailable.getMessage());
    }
}
