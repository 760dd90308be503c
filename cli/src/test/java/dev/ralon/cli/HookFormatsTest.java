package dev.ralon.cli;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The registry's assumptions, which one hook for every agent rests on: names are unique, no two agents share a tool
 * name (the payload says by itself which agent wrote it), and agents that send the same event read the same answer
 * (the answer is chosen by the event).
 */
class HookFormatsTest {
    @Test
    void namesAreUniqueAndToolsDoNotOverlap() {
        assertEquals(HookFormats.ALL.size(), new HashSet<>(HookFormats.names()).size(), HookFormats.names().toString());
        Map<String, String> owner = new HashMap<>();
        for (HookFormat f : HookFormats.ALL) {
            Set<String> tools = new HashSet<>(f.pathTools());
            tools.addAll(f.patchTools());
            for (String t : tools) {
                String before = owner.put(t, f.name());
                assertTrue(before == null, "tool " + t + " of both " + before + " and " + f.name());
            }
        }
    }

    @Test
    void agentsSendingTheSameEventReadTheSameAnswer() {
        for (HookFormat f : HookFormats.ALL) {
            HookFormat answering = HookFormats.byEvent(f.event()).orElseThrow();
            assertEquals(f.denial("r"), answering.denial("r"), f.name() + " and " + answering.name());
        }
    }

    @Test
    void helpListsEveryFormat() {
        List<String> help = List.of(HookFormats.helpDescription());
        for (String name : HookFormats.names()) {
            assertTrue(help.stream().anyMatch(l -> l.startsWith("  " + name + " ")), name + " in " + help);
        }
    }
}
