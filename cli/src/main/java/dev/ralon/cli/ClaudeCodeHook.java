package dev.ralon.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Claude Code: event PreToolUse, answered with {@code hookSpecificOutput.permissionDecision: "deny"}. */
final class ClaudeCodeHook implements HookFormat {
    @Override
    public String name() {
        return "claude-code";
    }

    @Override
    public String event() {
        return "PreToolUse";
    }

    @Override
    public Set<String> pathTools() {
        return Set.of("Write", "Edit", "MultiEdit", "NotebookEdit");
    }

    @Override
    public String help() {
        return "PreToolUse: Write, Edit, MultiEdit, NotebookEdit";
    }

    @Override
    public Map<String, Object> denial(String reason) {
        return preToolUseDenial(reason);
    }

    /** The PreToolUse answer, which Claude Code and Codex share. */
    static Map<String, Object> preToolUseDenial(String reason) {
        Map<String, Object> specific = new LinkedHashMap<>();
        specific.put("hookEventName", "PreToolUse");
        specific.put("permissionDecision", "deny");
        specific.put("permissionDecisionReason", reason);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("hookSpecificOutput", specific);
        return doc;
    }
}
