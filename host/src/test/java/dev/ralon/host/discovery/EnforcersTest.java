package dev.ralon.host.discovery;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import org.example.spi.ThirdPartyEnforcer;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EnforcersTest {

    /** A third party's enforcer: its class is outside dev.ralon. */
    static Enforcer thirdParty(String name, int rank) {
        return new ThirdPartyEnforcer(name, rank);
    }

    @Test
    void sortsByRankStrongestFirst() {
        Enforcers es = Enforcers.of(List.of(thirdParty("weak", 1), thirdParty("strong", 90), thirdParty("middle", 50)));
        assertEquals(List.of("strong", "middle", "weak"), es.all().stream().map(Enforcer::name).toList());
        assertTrue(es.problems().isEmpty());
    }

    @Test
    void duplicateNamesAreAllRefused() {
        Enforcers es = Enforcers.of(List.of(thirdParty("twin", 1), thirdParty("twin", 2), thirdParty("single", 1)));
        assertEquals(List.of("single"), es.all().stream().map(Enforcer::name).toList());
        assertEquals(1, es.problems().size(), es.problems().toString());
        assertTrue(es.problems().get(0).contains("'twin'"), es.problems().toString());
    }

    @Test
    void reservedNamesAreRefusedForThirdParties() {
        for (String reserved : List.of("mount", "landlock", "noop", "ralon-fast")) {
            Enforcers es = Enforcers.of(List.of(thirdParty(reserved, 1)));
            assertTrue(es.all().isEmpty(), reserved);
            assertTrue(es.problems().get(0).contains("reserved name '" + reserved + "'"), es.problems().toString());
        }
    }

    @Test
    void anImpostorOfAReservedNameDoesNotDisableTheRealBackend() {
        Enforcer ours = new dev.ralon.host.discovery.ours.OurEnforcer();
        Enforcers es = Enforcers.of(List.of(ours, thirdParty("mount", 1)));
        assertEquals(List.of("mount"), es.all().stream().map(Enforcer::name).toList());
        assertSame(ours, Enforcers.unwrap(es.all().get(0)));
        assertEquals(1, es.problems().size(), es.problems().toString());
        assertTrue(es.problems().get(0).contains("uses the reserved name 'mount'"), es.problems().toString());
    }

    @Test
    void invalidNamesAreRefused() {
        for (String bad : List.of("", "A", "Upper", "has space", "x", "1abc", "a".repeat(33))) {
            Enforcers es = Enforcers.of(List.of(thirdParty(bad, 1)));
            assertTrue(es.all().isEmpty(), bad);
            assertTrue(es.problems().get(0).contains("invalid name"), es.problems().toString());
        }
    }

    @Test
    void serviceLoaderFindsTheTestEnforcerOnTheClassPath() {
        Enforcers es = Enforcers.discover(getClass().getClassLoader());
        assertTrue(es.byName("spi-test").isPresent(), "discovered: " + es.all());
        assertTrue(es.problems().isEmpty(), es.problems().toString());
    }

    @Test
    void guaranteeIdsAreStable() {
        assertEquals("modify-content", Guarantee.MODIFY_CONTENT.id());
        assertEquals("ancestor-rename", Guarantee.ANCESTOR_RENAME.id());
    }

    @Test
    void planIsEnforceableOnlyWithoutRefusals() {
        Plan ok = Plan.builder("x").build();
        Plan refused = Plan.builder("x").refuse(Path.of("/p"), "no", Set.of(Guarantee.DELETE))
                .refuse("limit", Set.of(Guarantee.METADATA)).build();
        assertTrue(ok.enforceable());
        assertTrue(!refused.enforceable());
        assertEquals(Set.of(Guarantee.DELETE, Guarantee.METADATA), refused.missing());
        assertEquals(Path.of("/p"), refused.refusals().get(0).path());
        assertEquals(List.of("no", "limit"), refused.refusals().stream().map(Plan.Refusal::reason).toList());
    }

    @Test
    void typedPayloadIsCheckedAgainstItsType() {
        Plan p = Plan.builder("x").payload(List.of("a")).build();
        assertEquals(List.of("a"), p.payload(List.class));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.payload(String.class));
        assertTrue(e.getMessage().contains("plan of backend x carries a "), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Plan.builder("y").build().payload(String.class));
    }

    @Test
    void refusalsAreOneLine() {
        assertThrows(IllegalArgumentException.class, () -> Plan.Refusal.of(null, "two\nlines", Set.of()));
    }

    @Test
    void defaultsOfAMinimalEnforcer() {
        Enforcer minimal = new org.example.spi.MinimalEnforcer();
        assertEquals("minimal", minimal.description());
        assertEquals(1, minimal.rank());
        assertEquals(Set.of(ProtectedPath.Kind.FILE, ProtectedPath.Kind.DIRECTORY), minimal.coveredKinds());
    }

    @Test
    void aFailingIdentityExcludesOnlyThatEnforcerWithOneLine() {
        Enforcer throwsOnRank = new ThirdPartyEnforcer("bad-rank", 1) {
            @Override
            public int rank() {
                throw new NoClassDefFoundError("org/example/Missing");
            }
        };
        Enforcer nullName = new ThirdPartyEnforcer(null, 1);
        Enforcers es = Enforcers.of(List.of(throwsOnRank, nullName, thirdParty("good", 1)));
        assertEquals(List.of("good"), es.all().stream().map(Enforcer::name).toList());
        assertEquals(2, es.problems().size(), es.problems().toString());
        assertTrue(es.problems().get(0).matches("plugin dev\\.ralon\\.host\\.discovery\\.EnforcersTest\\$1 named .bad-rank. \\(.*\\): rank\\(\\) failed:"
                + " NoClassDefFoundError: org/example/Missing; excluded"), es.problems().get(0));
        assertTrue(es.problems().get(1).contains("name() returned null"), es.problems().get(1));
        es.problems().forEach(p -> assertFalse(p.contains("\n"), p));
    }

    @Test
    void aFailingProbeOrPlanIsAnEnforcerFailureNamingTheBackend() {
        Enforcer bad = new ThirdPartyEnforcer("bad-plan", 1) {
            @Override
            public Plan plan(ProtectedSet set) {
                throw new IllegalStateException("boom\nsecond line");
            }

            @Override
            public Probe probe() {
                throw new UnsupportedClassVersionError("org/example/X has been compiled by a more recent version");
            }
        };
        Enforcer e = Enforcers.of(List.of(bad)).byName("bad-plan").orElseThrow();
        EnforcerFailure f = assertThrows(EnforcerFailure.class,
                () -> e.plan(ProtectedSet.of(Path.of("/"), Path.of("/agent.lock"), List.of(), List.of())));
        assertTrue(f.getMessage().startsWith("backend bad-plan ("), f.getMessage());
        assertTrue(f.getMessage().endsWith("): plan() failed: IllegalStateException: boom"), f.getMessage());
        EnforcerFailure p = assertThrows(EnforcerFailure.class, e::probe);
        assertTrue(p.getMessage().contains("probe() failed: UnsupportedClassVersionError: org/example/X"), p.getMessage());
        assertSame(bad, Enforcers.unwrap(e));
    }
}
