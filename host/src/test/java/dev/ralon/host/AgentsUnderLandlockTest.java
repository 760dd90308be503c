package dev.ralon.host;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agents' note: for the known agents only, never a failure for a command with no file name, and read from the
 * plan's create-restricted directories and the backend's declaration, whatever the backend is called.
 */
class AgentsUnderLandlockTest {
    @Test
    void aCommandWithNoFileNameIsNoAgent() {
        assertEquals(List.of(), AgentsUnderLandlock.note("/", "landlock", List.of(), true, Path.of("/nonexistent-home"), null));
        assertEquals(List.of(), AgentsUnderLandlock.note("/usr/bin/sh", "landlock", List.of(), true, null, null));
    }

    @Test
    void everyRegisteredAgentGetsTheNote() {
        for (Agents.Agent a : Agents.ALL) {
            assertFalse(AgentsUnderLandlock.note("/usr/local/bin/" + a.executable(), "landlock", List.of(), true, null, null).isEmpty(),
                    a.executable());
        }
    }

    @Test
    void theNoteFollowsThePlanAndTheDeclarationNotTheName(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path home = java.nio.file.Files.createDirectories(tmp.resolve("home"));
        Path root = java.nio.file.Files.createDirectories(tmp.resolve("project"));
        List<String> third = AgentsUnderLandlock.note("claude", "someones-backend", List.of(home.toRealPath(),
                root.toRealPath()), false, home, root);
        assertEquals(2, third.size(), third.toString());
        assertTrue(third.get(0).startsWith("agents under someones-backend: nothing can be created in "), third.get(0));
        assertTrue(third.get(1).contains("no new file can appear in the project root"), third.get(1));
        assertTrue(third.stream().noneMatch(l -> l.contains("bubblewrap")), "no mount refusal declared: " + third);
        List<String> mountOnly = AgentsUnderLandlock.note("codex", "x", List.of(), true, home, root);
        assertEquals(1, mountOnly.size(), mountOnly.toString());
        assertTrue(mountOnly.get(0).contains("bubblewrap needs mount, which x refuses"), mountOnly.get(0));
    }
}
