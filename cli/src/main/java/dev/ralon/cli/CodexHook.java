package dev.ralon.cli;

import java.util.Map;
import java.util.Set;

/**
 * Codex: event PreToolUse (Claude Code's answer), its file-editing tool {@code apply_patch} naming the files inside
 * the patch.
 */
final class CodexHook implements HookFormat {
    @Override
    public String name() {
        return "codex";
    }

    @Override
    public String event() {
        return "PreToolUse";
    }

    @Override
    public Set<String> pathTools() {
        return Set.of();
    }

    @Override
    public Set<String> patchTools() {
        return Set.of("apply_patch");
    }

    @Override
    public String help() {
        return "PreToolUse: apply_patch (every file the patch adds, updates, deletes or moves)";
    }

    @Override
    public Map<String, Object> denial(String reason) {
        return ClaudeCodeHook.preToolUseDenial(reason);
    }
}
