package dev.ralon.cli;

import java.util.Map;
import java.util.Set;

/**
 * One agent's pre-write hook, as {@code ralon hook FORMAT} reads it: the event its payload carries, the tools whose
 * targets are named in the payload, and how the agent is told "no". {@link Hook} does the judging for every format
 * alike; a format only describes its agent.
 *
 * <p>Adding an agent: a class implementing this (see {@link ClaudeCodeHook}), and one line in {@link HookFormats}.
 * Help, completion, the request's check and the judging all read the registry.
 */
interface HookFormat {
    /** The FORMAT argument ({@code claude-code}). */
    String name();

    /** The event name the agent sends before a tool runs ({@code PreToolUse}). */
    String event();

    /** Tools that write the file named by {@code tool_input.file_path} (or {@code notebook_path}). */
    Set<String> pathTools();

    /** Tools whose files are named inside a patch ({@code apply_patch}); empty when none. */
    default Set<String> patchTools() {
        return Set.of();
    }

    /** The line {@code ralon hook --help} shows for it. */
    String help();

    /**
     * The JSON document (on stdout, exit 0) that makes the agent refuse the tool call with {@code reason}: it reaches
     * the model as a refusal, not as a hook error.
     */
    Map<String, Object> denial(String reason);
}
