package dev.ralon.enforcer.spi;

import org.example.spi.ThirdPartyEnforcer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        Plan ok = new Plan("x", List.of(), List.of(), List.of(), List.of(), Set.of(), null);
        Plan refused = new Plan("x", List.of(), List.of(), List.of(), List.of("no"), Set.of(Guarantee.DELETE), null);
        assertTrue(ok.enforceable());
        assertTrue(!refused.enforceable());
    }
}
