package dev.ralon.cli;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The one registry of agents {@code ralon hook} knows: each is a {@link HookFormat}. The tool names of different
 * agents do not overlap, so one hook reads every agent's payload; the payload's event says which answer it reads.
 */
final class HookFormats {
    /** Every format, in the order help lists them. Adding an agent is one line here and its class. */
    static final List<HookFormat> ALL = List.of(new ClaudeCodeHook(), new CodexHook(), new GeminiHook());

    private HookFormats() {
    }

    /** The FORMAT names, in order. */
    static List<String> names() {
        return ALL.stream().map(HookFormat::name).toList();
    }

    static Optional<HookFormat> byName(String name) {
        return ALL.stream().filter(f -> f.name().equals(name)).findFirst();
    }

    /** The first format whose agent sends {@code event}; empty for an unknown event. */
    static Optional<HookFormat> byEvent(String event) {
        return ALL.stream().filter(f -> f.event().equals(event)).findFirst();
    }

    /** Every agent's tools that name their file in {@code tool_input}. */
    static Set<String> pathTools() {
        Set<String> all = new HashSet<>();
        ALL.forEach(f -> all.addAll(f.pathTools()));
        return Set.copyOf(all);
    }

    /** Every agent's tools whose files are named inside a patch. */
    static Set<String> patchTools() {
        Set<String> all = new HashSet<>();
        ALL.forEach(f -> all.addAll(f.patchTools()));
        return Set.copyOf(all);
    }

    /** {@code ralon hook --help}'s description: the fixed lines around one line per format. */
    static String[] helpDescription() {
        List<String> lines = new ArrayList<>(List.of(
                "Pre-write hook for coding agents: read the hook JSON on stdin and refuse writes to protected paths.",
                "Each target is judged by the agent.lock above it, whatever the agent's working directory.",
                "Formats (the payload is recognised by itself; FORMAT names the agent for readers):"));
        for (HookFormat f : ALL) {
            lines.add(String.format("  %-12s %s", f.name(), f.help()));
        }
        lines.add("Settings for each agent: README, section Integrations.");
        return lines.toArray(new String[0]);
    }
}
