package dev.ralon.host;

import java.util.ArrayList;
import java.util.List;

/**
 * The one registry of the coding agents the session knows by name (the hook's formats are the cli's
 * {@code HookFormats}): the executable that starts each, its state directory in {@code $HOME} (writable in a confined
 * session: {@link WritableAreas}; made by {@code --create-agent-state}: {@link AgentsUnderLandlock}), and what in that
 * directory is configuration, not state: it runs code (hooks, MCP servers, plugins, commands, skills) or instructs a
 * later session, so it is never a writable area and is in the baseline ({@link BaselineItems}).
 *
 * <p>Adding an agent: one line in {@link #ALL}.
 */
public final class Agents {
    /**
     * One agent.
     *
     * @param executable    the command name that starts it ({@code claude})
     * @param name          its name in messages ({@code Claude Code})
     * @param state         its state directory, relative to {@code $HOME} ({@code .claude})
     * @param configuration what inside {@code state} is configuration, relative to {@code state}
     */
    public record Agent(String executable, String name, String state, List<String> configuration) {
        public Agent {
            configuration = List.copyOf(configuration);
        }
    }

    /** Every known agent. */
    public static final List<Agent> ALL = List.of(
            new Agent("claude", "Claude Code", ".claude", List.of("settings.json", "settings.local.json", "CLAUDE.md",
                    "commands", "agents", "skills", "hooks", "plugins", "output-styles", "local")),
            new Agent("codex", "Codex", ".codex", List.of("config.toml", "AGENTS.md", "prompts", "rules", "hooks.json",
                    "skills")),
            new Agent("gemini", "Gemini CLI", ".gemini", List.of("settings.json", "GEMINI.md", "commands", ".env",
                    "extensions")));

    private Agents() {
    }

    /** Every agent's configuration, relative to {@code $HOME} ({@code .claude/settings.json}). */
    public static List<String> configuration() {
        List<String> out = new ArrayList<>();
        for (Agent a : ALL) {
            for (String c : a.configuration()) {
                out.add(a.state() + "/" + c);
            }
        }
        return List.copyOf(out);
    }

    /** Whether {@code executable} (a command name, no directory) starts a known agent. */
    public static boolean starts(String executable) {
        return ALL.stream().anyMatch(a -> a.executable().equals(executable));
    }
}
