package dev.ralon.cli;

import dev.ralon.policy.PolicyException;
import dev.ralon.policy.PolicyLoader;
import dev.ralon.policy.PolicySet;
import dev.ralon.policy.Rule;
import org.json.JSONException;
import org.json.JSONObject;
import org.json.JSONTokener;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code ralon hook FORMAT}: an agent's pre-write hook. Reads the hook's JSON on stdin, finds the paths the tool call
 * would write, and refuses the call when any is protected, with a message the agent can act on.
 *
 * <p>Fails closed: input that cannot be read, or a policy that cannot be loaded, refuses the call with the reason
 * (a hook that crashed would otherwise let the write through). No agent.lock at all allows everything. Tools whose
 * targets cannot be known before they run (a shell command) are allowed: the kernel boundary of {@code ralon run}
 * is what stops those.
 */
@Command(name = "hook", mixinStandardHelpOptions = true,
        description = {"Pre-write hook for coding agents: read the hook JSON on stdin and refuse writes to protected paths.",
                "Formats: claude-code (PreToolUse; Write, Edit, MultiEdit, NotebookEdit).",
                "In .claude/settings.json:",
                "  {\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Write|Edit|MultiEdit|NotebookEdit\",",
                "    \"hooks\": [{\"type\": \"command\", \"command\": \"ralon hook claude-code\"}]}]}}"})
final class HookCommand implements Callable<Integer> {
    static final int MAX_INPUT = 16 << 20;

    /** One agent's hook protocol. Add a format by implementing this and listing it in {@link #FORMATS}. */
    interface HookFormat {
        String name();

        /** The working directory the agent's paths are relative to, if the input says. */
        Optional<Path> cwd(JSONObject input);

        /** Every path the tool call would write; empty when it writes none or cannot be known in advance. */
        List<String> targets(JSONObject input);

        /** Exit code that makes the agent refuse the call, with {@code message} shown to the model. */
        int refuse(String message, PrintWriter out, PrintWriter err);
    }

    /**
     * Claude Code PreToolUse: input {@code {"cwd", "tool_name", "tool_input": {"file_path" | "notebook_path"}}};
     * exit 2 blocks the call and stderr is shown to the model (exit 1 would not block).
     */
    static final class ClaudeCode implements HookFormat {
        @Override
        public String name() {
            return "claude-code";
        }

        @Override
        public Optional<Path> cwd(JSONObject input) {
            String cwd = input.optString("cwd", "");
            return cwd.isEmpty() ? Optional.empty() : Optional.of(Path.of(cwd));
        }

        @Override
        public List<String> targets(JSONObject input) {
            String tool = input.optString("tool_name", "");
            JSONObject args = input.optJSONObject("tool_input");
            List<String> out = new ArrayList<>();
            if (args == null) {
                return out;
            }
            switch (tool) {
                case "Write", "Edit", "MultiEdit" -> addIfPresent(out, args, "file_path");
                case "NotebookEdit" -> addIfPresent(out, args, "notebook_path");
                default -> {
                    // Bash and the rest: targets unknown before they run; the kernel boundary decides
                }
            }
            return out;
        }

        private static void addIfPresent(List<String> out, JSONObject args, String key) {
            String v = args.optString(key, "");
            if (!v.isEmpty()) {
                out.add(v);
            }
        }

        @Override
        public int refuse(String message, PrintWriter out, PrintWriter err) {
            err.println(message);
            err.flush();
            return 2;
        }
    }

    static final List<HookFormat> FORMATS = List.of(new ClaudeCode());

    @Parameters(index = "0", paramLabel = "FORMAT", description = "The agent's hook format: claude-code.")
    String format;

    @Option(names = "--policy", paramLabel = "FILE", description = "Use this policy file instead of discovering one.")
    Path policyFile;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        HookFormat f = FORMATS.stream().filter(x -> x.name().equals(format)).findFirst()
                .orElseThrow(() -> CliException.error("unknown hook format '" + format + "'; known: "
                        + String.join(", ", FORMATS.stream().map(HookFormat::name).toList())));
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        JSONObject input;
        try {
            input = new JSONObject(new JSONTokener(new String(CheckCommand.readBounded(System.in, MAX_INPUT, "hook input"), StandardCharsets.UTF_8)));
        } catch (IOException | JSONException e) {
            return f.refuse("ralon: cannot read the hook input (" + CliException.oneLine(e.getMessage())
                    + "); refusing the tool call to stay safe", out, err);
        }
        List<String> targets = f.targets(input);
        if (targets.isEmpty()) {
            return ExitCodes.OK;
        }
        Path cwd = f.cwd(input).orElse(Path.of("").toAbsolutePath());
        PolicySet policy;
        try {
            // every agent.lock in force at cwd (policies only add), or the one the user named
            policy = policyFile != null ? PolicySet.explicit(PolicyLoader.load(policyFile)) : PolicySet.inForceAt(cwd);
            if (policy.isEmpty()) {
                return ExitCodes.OK; // no agent.lock: nothing is protected
            }
        } catch (PolicyException e) {
            return f.refuse("ralon: the policy cannot be used, so writes are refused until it is fixed: "
                    + e.getMessage(), out, err);
        }
        List<String> refusals = new ArrayList<>();
        for (String t : targets) {
            Path p;
            try {
                p = cwd.resolve(t);
            } catch (InvalidPathException e) {
                refusals.add(t + " is not a valid path");
                continue;
            }
            List<Rule> rules = policy.check(p);
            if (!rules.isEmpty()) {
                String rel = policy.nearest().relativize(p);
                refusals.add((rel != null ? rel : t) + " is protected by " + CheckCommand.describe(policy, rules));
            }
        }
        if (refusals.isEmpty()) {
            return ExitCodes.OK;
        }
        return f.refuse("agent.lock: " + String.join("; ", refusals) + ". This file is read-only for agents: "
                + "do not try another way to change it; continue with the rest of the task or ask the user.", out, err);
    }
}
