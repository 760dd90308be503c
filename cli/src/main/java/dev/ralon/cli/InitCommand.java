package dev.ralon.cli;

import dev.ralon.policy.walk.PolicyDiscovery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ralon init}: writes a starter agent.lock, proposing as active entries the sensitive paths found in the
 * directory ({@link SensitivePaths}), each with a comment; {@code --minimal} writes the template alone. Never
 * overwrites without {@code --force}. With {@code --agents}, it also writes the agent-instructions section
 * ({@link AgentInstructions}) into AGENTS.md, CLAUDE.md and GEMINI.md, keeping an existing agent.lock (run again, it
 * refreshes the sections from it). The file gets the user's umask (0644 under 022), like any file the user makes:
 * a separate agent account, or the hook run as another user, must be able to read it.
 */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Write a starter agent.lock, proposing the sensitive paths found here.",
                "Sensitive paths (.env*, CI workflows, private keys, credentials files) are proposed as active",
                "entries, each with a comment saying what it covers; --minimal writes only the commented template.",
                "The policy file itself is always protected. --agents also tells the agents, in AGENTS.md,",
                "CLAUDE.md and GEMINI.md, what agent.lock protects."})
final class InitCommand implements Callable<Integer> {
    static final String SCHEMA_URL = "https://ralon.dev/schema/agent-lock/v1.json";

    static final String TEMPLATE = String.join("\n",
            "# yaml-language-server: $schema=" + SCHEMA_URL,
            "# agent.lock: paths an AI coding agent may not change. `ralon run -- AGENT` makes them read-only to the",
            "# kernel; `ralon status` shows what each pattern matches; `ralon check PATH` tells whether PATH is protected.",
            "#",
            "# Patterns are git-style globs anchored at this directory: `*.pem` matches at the top level only,",
            "# `**/*.pem` anywhere. A directory protects everything beneath it. This file is always protected.",
            "version: 1",
            "protect:",
            "  - agent.lock",
            "  # - .env",
            "  # - .github/workflows/**",
            "  # - \"**/*.pem\"",
            "  # - src/auth/",
            "");

    @Parameters(arity = "0..1", paramLabel = "DIR", description = "Where to write agent.lock (default: the working directory).")
    Path dir;

    @Option(names = "--force", description = "Overwrite an existing agent.lock.")
    boolean force;

    @Option(names = "--minimal", description = "Write only the commented template; propose nothing found here.")
    boolean minimal;

    /**
     * The file's text: {@link #TEMPLATE}, or, with proposals, the template with each proposal as an active entry under
     * its comment (an example a proposal makes redundant, such as {@code .env} beside {@code .env*}, is dropped).
     */
    static String text(List<SensitivePaths.Proposal> proposals) {
        if (proposals.isEmpty()) {
            return TEMPLATE;
        }
        StringBuilder b = new StringBuilder();
        for (String line : TEMPLATE.split("\n", -1)) {
            if (line.equals("  - agent.lock")) {
                b.append(line).append('\n');
                b.append("  # found in this directory by `ralon init` (remove what you do not want protected):\n");
                for (SensitivePaths.Proposal p : proposals) {
                    b.append("  # ").append(p.why()).append(" (covers here: ").append(p.found()).append(")\n");
                    b.append("  - ").append(yamlScalar(p.pattern())).append('\n');
                }
                continue;
            }
            String example = line.startsWith("  # - ") ? line.substring(6) : null;
            if (example != null && proposals.stream().anyMatch(p -> yamlScalar(p.pattern()).equals(example)
                    || p.pattern().equals(example + "*"))) {
                continue;
            }
            b.append(line).append('\n');
        }
        return b.substring(0, b.length() - 1); // the template's own last line break only
    }

    /** A pattern as a YAML scalar: double-quoted when it starts with a character YAML gives a meaning ({@code *}). */
    static String yamlScalar(String pattern) {
        return pattern.startsWith("*") ? "\"" + pattern + "\"" : pattern;
    }

    @Option(names = "--header", paramLabel = "FILE", description = "Start agent.lock with FILE's text as '#' comment "
            + "lines: the project's licence header, for Apache RAT and similar checkers.")
    Path header;

    @Option(names = "--agents", description = {"Also write (or refresh in place) a section saying what agent.lock "
            + "protects, and what EROFS, EACCES and EBUSY mean under Ralon, in AGENTS.md (Codex), CLAUDE.md (Claude "
            + "Code) and GEMINI.md (Gemini CLI) here, creating them if absent; the rest of each file is left as it is. "
            + "An existing agent.lock is kept (--force replaces it). `ralon check` says when a section is out of date."})
    boolean agents;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Path target = (dir == null ? Path.of("") : dir).toAbsolutePath().normalize();
        if (!Files.isDirectory(target)) {
            throw CliException.error(target + ": not a directory");
        }
        Path file = target.resolve(PolicyDiscovery.FILE_NAME);
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
            throw CliException.error(file + " is a directory; remove it first");
        }
        boolean exists = Files.exists(file, LinkOption.NOFOLLOW_LINKS);
        if (agents) {
            // every file is examined before anything is written: a policy of the tree that does not parse, or an
            // instructions file that cannot be written, is one line and exit 2 with nothing written
            AgentInstructions.check(target);
            if (exists && !force) {
                AgentInstructions.write(AgentInstructions.inForce(target), target, spec.commandLine().getOut());
                return ExitCodes.OK;
            }
            try {
                AgentInstructions.inForce(target); // the other files above, or below, that will be in force with it
            } catch (CliException e) {
                // replaced by --force: its own problems do not count; another file's do
                if (!exists || e.policyError() == null || e.policyError().problems().stream()
                        .anyMatch(p -> p.file() == null || !file.equals(p.file().toAbsolutePath().normalize()))) {
                    throw e;
                }
            }
        }
        if (exists && !force) {
            throw CliException.error(file + " already exists (use --force to overwrite it)");
        }
        List<SensitivePaths.Proposal> proposals = minimal ? List.of() : SensitivePaths.find(target);
        String text = (header == null ? "" : comment(readHeader(header))) + text(proposals);
        Path tmp = null;
        try {
            // created without explicit permissions, so the kernel applies the user's umask to 0666 (open(2)); not
            // Files.createTempFile, which always makes 0600
            long nonce = java.util.concurrent.ThreadLocalRandom.current().nextLong();
            tmp = target.resolve(".agent.lock." + Long.toUnsignedString(nonce, 36) + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            if (force) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } else {
                // link-then-unlink would be the strictest no-clobber; a plain move without REPLACE_EXISTING refuses
                // an existing target (FileAlreadyExistsException) on the same file system.
                Files.move(tmp, file);
            }
            tmp = null;
        } catch (FileAlreadyExistsException e) {
            throw CliException.error(file + " already exists (use --force to overwrite it)");
        } catch (java.nio.file.AccessDeniedException e) {
            // its message is only the path (here the temporary file's), which says nothing to the user
            throw CliException.error("cannot write " + file + ": permission denied");
        } catch (IOException e) {
            throw CliException.error("cannot write " + file + ": " + e.getMessage());
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }
        spec.commandLine().getOut().println("wrote " + file + (proposals.isEmpty() ? "" : " (protecting what it"
                + " found here: " + String.join(", ", proposals.stream().map(SensitivePaths.Proposal::pattern).toList())
                + ")"));
        if (agents) {
            AgentInstructions.write(AgentInstructions.inForce(target), target, spec.commandLine().getOut());
            spec.commandLine().getOut().println("next: edit it, then `ralon init --agents` to refresh the sections"
                    + " (`ralon check` says when they are out of date)");
            return ExitCodes.OK;
        }
        spec.commandLine().getOut().println("next: edit it, then `ralon status` to see what it protects");
        return ExitCodes.OK;
    }

    private static String readHeader(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            throw CliException.error("cannot read the header " + file + ": " + e.getMessage());
        }
    }

    /** {@code text} as YAML comment lines ({@code # line}, a blank line as {@code #}), then one empty line. */
    static String comment(String text) {
        StringBuilder sb = new StringBuilder();
        for (String line : text.strip().split("\\R", -1)) {
            sb.append(line.isBlank() ? "#" : "# " + line.stripTrailing()).append('\n');
        }
        return sb.append('\n').toString();
    }
}
