package dev.ralon.host;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The agents' note under Landlock: for the known agents only, and never a failure for a command with no file name. */
class AgentsUnderLandlockTest {
    @Test
    void aCommandWithNoFileNameIsNoAgent() {
        assertEquals(List.of(), AgentsUnderLandlock.note("/", List.of(), Path.of("/nonexistent-home"), null));
        assertEquals(List.of(), AgentsUnderLandlock.note("/usr/bin/sh", List.of(), null, null));
    }

    @Test
    void everyRegisteredAgentGetsTheNote() {
        for (Agents.Agent a : Agents.ALL) {
            assertFalse(AgentsUnderLandlock.note("/usr/local/bin/" + a.executable(), List.of(), null, null).isEmpty(),
                    a.executable());
        }
    }
}
