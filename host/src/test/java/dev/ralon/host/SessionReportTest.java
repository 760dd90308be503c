package dev.ralon.host;

import dev.ralon.enforcer.spi.SessionGuarantee;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The host's decision for kernels this machine is not (Landlock missing, ABI 5); the real guard on the real kernel is
 * tested end to end in the cli-e2e module ({@code SessionHelpersE2ETest}).
 */
class SessionReportTest {
    @Test
    void withScopesEverythingHoldsAndNothingIsSaid() {
        SessionReport r = new SessionReport(7, false);
        assertEquals(EnumSet.allOf(SessionGuarantee.class), r.held());
        assertTrue(r.notHeld().isEmpty());
        assertNull(r.kernelRefusal());
        assertEquals("", r.startLineSuffix());
        assertTrue(r.options().refuseUnixSockets() && r.options().scope());
        assertEquals(List.of("unix-sockets", "signals", "ptrace"), r.json().get("held"));
    }

    @Test
    void theOptInLeavesOnlyTheFilterOutAndIsNamed() {
        SessionReport r = new SessionReport(6, true);
        assertEquals(EnumSet.of(SessionGuarantee.SIGNALS, SessionGuarantee.PTRACE), r.held());
        assertFalse(r.options().refuseUnixSockets());
        assertTrue(r.options().scope());
        assertEquals("; not refused towards processes outside: unix-sockets (--allow-unix-sockets)",
                r.startLineSuffix());
        assertTrue(r.notHeld().get(SessionGuarantee.UNIX_SOCKETS).contains("--allow-unix-sockets"));
        assertNull(r.kernelRefusal());
    }

    @Test
    void aKernelWithoutScopesIsARefusalNamingTheAbiAndTheFix() {
        for (int abi : new int[] {0, 5}) {
            SessionReport r = new SessionReport(abi, false);
            assertEquals(EnumSet.of(SessionGuarantee.UNIX_SOCKETS), r.held());
            assertFalse(r.options().scope(), "the domain is not asked of a kernel that cannot make it");
            String refusal = r.kernelRefusal();
            assertTrue(refusal.contains("signals and ptrace"), refusal);
            assertTrue(refusal.contains(abi == 0 ? "Landlock is not enabled" : "Landlock ABI is 5"), refusal);
            assertTrue(refusal.contains("Linux 6.12"), refusal);
            assertTrue(r.startLineSuffix().contains("signals, ptrace"), r.startLineSuffix());
            assertEquals(true, r.json().get("startRefused"));
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> not = (List<Map<String, Object>>) r.json().get("notHeld");
            assertEquals(List.of("signals", "ptrace"), not.stream().map(m -> m.get("id")).toList());
        }
    }
}
