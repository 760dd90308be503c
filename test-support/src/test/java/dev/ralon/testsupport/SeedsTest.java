package dev.ralon.testsupport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class SeedsTest {
    @Test
    void theReplayPropertyWinsElseCiIsFixedPerTestElseFresh() {
        String before = System.getProperty("ralon.seed");
        try {
            System.setProperty("ralon.seed", "42");
            assertEquals(42L, Seeds.seed("SeedsTest.a"));
            System.clearProperty("ralon.seed");
            long a = Seeds.seed("SeedsTest.a");
            long b = Seeds.seed("SeedsTest.b");
            if (Requirements.inCi()) {
                assertEquals(Seeds.CI_BASE ^ "SeedsTest.a".hashCode(), a);
                assertEquals(a, Seeds.seed("SeedsTest.a"), "fixed under CI");
            }
            assertNotEquals(a, b, "two tests draw different numbers");
        } finally {
            if (before == null) {
                System.clearProperty("ralon.seed");
            } else {
                System.setProperty("ralon.seed", before);
            }
        }
    }
}
