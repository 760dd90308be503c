package dev.ralon.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Gemini CLI: event BeforeTool, answered with {@code {"decision": "deny", "reason": ...}}. */
final class GeminiHook implements HookFormat {
    @Override
    public String name() {
        return "gemini";
    }

    @Override
    public String event() {
        return "BeforeTool";
    }

    @Override
    public Set<String> pathTools() {
        return Set.of("write_file", "replace");
    }

    @Override
    public String help() {
        return "BeforeTool: write_file, replace";
    }

    @Override
    public Map<String, Object> denial(String reason) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("decision", "deny");
        doc.put("reason", reason);
        return doc;
    }
}
