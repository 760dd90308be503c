package dev.ralon.cli;

import dev.ralon.policy.PolicyException;
import dev.ralon.policy.Rule;
import dev.ralon.policy.walk.PolicySet;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pre-tool hook of every supported agent, free of picocli: reads the hook JSON ({@link HookPayload}), finds the
 * files the tool call would write, judges each by the policies in force at its own place ({@link HookPolicies}), and
 * answers in the calling agent's convention ({@link Reply}).
 *
 * <p>One hook reads all three agents' payloads: the tool names do not overlap (Claude Code {@code Write}, {@code Edit},
 * {@code MultiEdit}, {@code NotebookEdit}; Codex {@code apply_patch}; Gemini CLI {@code write_file}, {@code replace}),
 * and the event name says which answer the agent reads ({@code PreToolUse}: Claude Code and Codex; {@code BeforeTool}:
 * Gemini CLI). So a hook configured under the wrong name, or converted by {@code gemini hooks migrate --from-claude},
 * still refuses what it must. The FORMAT argument only chooses the answer when the input has no event name.
 *
 * <p>Fails closed: input that cannot be read, a write tool whose target cannot be told, a policy that cannot be
 * loaded, or any internal error refuses the call with the reason. Tools whose targets cannot be known before they
 * run (a shell command) are allowed: the kernel boundary of {@code ralon run} is what stops those. A target with no
 * agent.lock above it is allowed. A write whose payload gives a {@code cwd} that is relative or not an existing
 * directory is refused ({@link #cwdRefusal}); without {@code cwd}, relative targets are taken from the hook's own
 * working directory (the agents start it in theirs).
 */
final class Hook {
    /** The agents' names for {@code ralon hook FORMAT}, in the order help lists them ({@link HookFormats}). */
    static final List<String> FORMATS = HookFormats.names();

    /** Tools that write the file named by {@code tool_input.file_path} (or {@code notebook_path}), every agent's. */
    static final Set<String> PATH_TOOLS = HookFormats.pathTools();
    /** Tools whose files are named inside the patch, every agent's. */
    static final Set<String> PATCH_TOOLS = HookFormats.patchTools();

    private Hook() {
    }

    /**
     * How the agent is told "no": JSON on stdout with exit 0 where the agent reads a decision from it (the reason
     * reaches the model as a refusal, not as a hook error), else the reason on stderr with exit 2, which all three
     * agents read as a refusal. Allowing is always exit 0 with nothing on stdout.
     */
    static final class Reply {
        /** Unknown event or unreadable input: exit 2, reason on stderr (every supported agent reads it as a refusal). */
        static final Reply EXIT_2 = new Reply(null);

        private final HookFormat format;

        private Reply(HookFormat format) {
            this.format = format;
        }

        /** The answer for the payload's {@code event}; without one, the FORMAT's own event (else Claude Code's). */
        static Reply forEvent(String event, String format) {
            String e = event != null ? event : HookFormats.byName(format == null ? "" : format)
                    .orElse(HookFormats.ALL.get(0)).event();
            return HookFormats.byEvent(e).map(Reply::new).orElse(EXIT_2);
        }

        int deny(String reason, PrintWriter out, PrintWriter err) {
            String r = CliException.oneLine(reason);
            if (format == null) {
                err.println(r);
                err.flush();
                return ExitCodes.ERROR;
            }
            out.println(Json.write(format.denial(r)));
            out.flush();
            return ExitCodes.OK;
        }
    }

    /**
     * Runs the hook. {@code format} is one of {@link #FORMATS} or null; {@code policyFile}, when not null, is the only
     * policy consulted (as {@code --policy} does elsewhere). Returns the exit code; never throws.
     */
    static int run(String format, Path policyFile, InputStream stdin, PrintWriter out, PrintWriter err) {
        HookPayload input;
        try {
            input = HookPayload.read(stdin);
        } catch (IOException | HookPayload.Malformed e) {
            return Reply.EXIT_2.deny("ralon: cannot read the hook input (" + e.getMessage()
                    + "); refusing the tool call to stay safe", out, err);
        } catch (RuntimeException e) {
            return Reply.EXIT_2.deny(internal(e), out, err);
        }
        Reply reply = Reply.forEvent(input.event, format);
        try {
            return judge(input, policyFile, reply, out, err);
        } catch (RuntimeException e) {
            return reply.deny(internal(e), out, err);
        }
    }

    private static String internal(RuntimeException e) {
        if (System.getenv("RALON_DEBUG") != null) {
            e.printStackTrace();
        }
        return "ralon: internal error (" + e.getClass().getSimpleName() + ": " + e.getMessage()
                + "); refusing the tool call to stay safe (set RALON_DEBUG=1 for details; please report it)";
    }

    /**
     * The path the kernel would write for {@code raw} (absolute, not normalised): its longest existing prefix
     * resolved as path resolution does ({@code toRealPath}, so {@code ..} after a symbolic link leaves the link's
     * target, not the link's directory), the rest appended. Null when no prefix resolves.
     */
    static Path kernelForm(Path raw) {
        Path existing = raw;
        Path rest = null;
        while (existing != null) {
            try {
                Path real = existing.toRealPath();
                return rest == null ? real : real.resolve(rest).normalize();
            } catch (java.io.IOException | SecurityException e) {
                // does not exist (or cannot be resolved): one level up
            }
            Path name = existing.getFileName();
            if (name == null) {
                return null;
            }
            rest = rest == null ? name : name.resolve(rest);
            existing = existing.getParent();
        }
        return null;
    }

    /**
     * Why the payload's {@code cwd} cannot anchor the targets, or null when it can: the agents send their working
     * directory, always absolute and existing; a relative one would be resolved against the hook's own directory, and
     * one that does not exist (or is not a directory) names no place the agent works in. Either way the targets are not
     * the files the tool writes, so the call is refused rather than judged at the wrong place.
     */
    static String cwdRefusal(Path cwd) {
        if (!cwd.isAbsolute()) {
            return "(" + CliException.oneLine(cwd.toString()) + ") is relative";
        }
        if (!java.nio.file.Files.isDirectory(cwd)) {
            return "(" + CliException.oneLine(cwd.toString()) + ") is not an existing directory";
        }
        return null;
    }

    private static int judge(HookPayload input, Path policyFile, Reply reply, PrintWriter out, PrintWriter err) {
        List<String> targets = new ArrayList<>();
        String tool = input.tool == null ? "" : input.tool;
        if (PATH_TOOLS.contains(tool)) {
            if (input.paths.isEmpty() || input.paths.stream().anyMatch(String::isEmpty)) {
                return reply.deny("ralon: the " + tool + " call names no file to write, so it cannot be checked; "
                        + "refusing it to stay safe", out, err);
            }
            targets.addAll(input.paths);
        }
        if (PATCH_TOOLS.contains(tool) && (!input.patch || input.patchPaths.isEmpty())) {
            return reply.deny("ralon: cannot tell which files this " + tool + " call writes (no \"*** Begin Patch\" "
                    + "with file headers in tool_input); refusing it to stay safe", out, err);
        }
        if (input.patch || PATCH_TOOLS.contains(tool)) {
            // any tool's text that is a patch (Codex also applies a patch given to its shell tool)
            for (String p : input.patchPaths) {
                if (p.isEmpty()) {
                    return reply.deny("ralon: a patch header names no file; refusing the call to stay safe", out, err);
                }
                targets.add(p);
            }
        }
        if (targets.isEmpty()) {
            return ExitCodes.OK; // Bash and the rest: targets unknown before they run; the kernel boundary decides
        }
        Path cwd;
        try {
            cwd = input.cwd == null || input.cwd.isEmpty() ? Path.of("").toAbsolutePath() : Path.of(input.cwd);
        } catch (InvalidPathException e) {
            return reply.deny("ralon: the hook input's cwd is not a valid path; refusing the call to stay safe", out, err);
        }
        String badCwd = cwdRefusal(cwd);
        if (badCwd != null) {
            return reply.deny("ralon: the hook input's cwd " + badCwd + ", so the files this call writes cannot be told;"
                    + " refusing it to stay safe", out, err);
        }
        HookPolicies policies = new HookPolicies(policyFile);
        List<String> refusals = new ArrayList<>();
        for (String t : targets) {
            List<Path> forms = new ArrayList<>(2);
            try {
                Path raw = cwd.resolve(t).toAbsolutePath();
                forms.add(raw.normalize());
                Path kernel = kernelForm(raw);
                if (kernel != null && !forms.contains(kernel)) {
                    forms.add(kernel); // "link/../x" is x beside the link's target for the kernel, not beside the link
                }
            } catch (InvalidPathException e) {
                refusals.add(CliException.oneLine(t) + " is not a valid path");
                continue;
            }
            for (Path p : forms) {
                PolicySet inForce;
                try {
                    inForce = policies.forTarget(p);
                } catch (PolicyException e) {
                    return reply.deny("ralon: the policy cannot be used, so writes are refused until it is fixed: "
                            + e.getMessage(), out, err);
                }
                if (inForce.isEmpty()) {
                    continue; // no agent.lock above this form of the target: nothing protects it
                }
                List<Rule> rules = inForce.check(p);
                if (!rules.isEmpty()) {
                    // the path and the policy files as the agent stands (its cwd): app/.env, app/agent.lock:3
                    Path at = cwd.toAbsolutePath().normalize();
                    List<String> why = new ArrayList<>();
                    for (Rule r : rules) {
                        why.add(dev.ralon.policy.RuleText.of(r, Shown.path(r.file(), at, null)));
                    }
                    refusals.add(Shown.path(p, at, null) + " is protected by " + String.join(", ", why));
                    break;
                }
            }
        }
        if (refusals.isEmpty()) {
            return ExitCodes.OK;
        }
        return reply.deny("agent.lock: " + String.join("; ", refusals) + ". This file is read-only for agents: "
                + "do not try another way to change it; continue with the rest of the task or ask the user.", out, err);
    }
}
