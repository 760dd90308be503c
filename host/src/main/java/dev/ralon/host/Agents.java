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
     * @param npmPackage    the npm package that installs it ({@code npx @anthropic-ai/claude-code} starts it too)
     * @param history       what inside {@code state} records its conversations, relative to {@code state}: what a
     *                      session with a copy of the home directory writes through to the real one ({@link HomeCopy}),
     *                      so that a conversation can be resumed outside; the rest of its writes stay in the copy
     */
    public record Agent(String executable, String name, String state, List<String> configuration, String npmPackage,
                        List<String> history) {
        public Agent {
            configuration = List.copyOf(configuration);
            history = List.copyOf(history);
        }
    }

    /** Every known agent. */
    public static final List<Agent> ALL = List.of(
            new Agent("claude", "Claude Code", ".claude", List.of("settings.json", "settings.local.json", "CLAUDE.md",
                    "commands", "agents", "skills", "hooks", "plugins", "output-styles", "local"), "@anthropic-ai/claude-code",
                    List.of("projects", "history.jsonl")),
            new Agent("codex", "Codex", ".codex", List.of("config.toml", "AGENTS.md", "prompts", "rules", "hooks.json",
                    "skills"), "@openai/codex", List.of("sessions", "history.jsonl")),
            new Agent("gemini", "Gemini CLI", ".gemini", List.of("settings.json", "GEMINI.md", "commands", ".env",
                    "extensions"), "@google/gemini-cli", List.of("tmp")));

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

    /**
     * The agent a command line starts, or null: the first word of {@code argv}, split at white space as a shell's
     * {@code -c} string would be, that names an agent by its executable or its npm package, whatever the directory
     * ({@code claude}, {@code /usr/local/bin/codex}, {@code env X=1 claude}, {@code npx @google/gemini-cli},
     * {@code sh -c 'claude -p …'}). A guess for the notes said at start, never for a decision: an argument that only
     * mentions an agent ({@code grep claude notes.txt}) counts too.
     */
    public static Agent in(List<String> argv) {
        for (String arg : argv) {
            for (String word : arg.trim().split("\\s+")) {
                String base = word.substring(word.lastIndexOf('/') + 1);
                for (Agent a : ALL) {
                    if (base.equals(a.executable()) || word.equals(a.npmPackage()) || word.startsWith(a.npmPackage() + "@")) {
                        return a;
                    }
                }
            }
        }
        return null;
    }

    /** Whether {@code executable} (a command name, no directory) starts a known agent. */
    public static boolean starts(String executable) {
        return ALL.stream().anyMatch(a -> a.executable().equals(executable));
    }
}
