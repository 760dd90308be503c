package dev.ralon.cli;

import dev.ralon.policy.PolicyDiscovery;
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
import java.util.concurrent.Callable;

/** {@code ralon init}: writes a starter agent.lock; never overwrites one without {@code --force}. */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = "Write a starter agent.lock (commented examples; the policy file itself is always protected).")
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

    @Option(names = "--header", paramLabel = "FILE", description = "Start agent.lock with FILE's text as '#' comment "
            + "lines: the project's licence header, for Apache RAT and similar checkers.")
    Path header;

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
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !force) {
            throw CliException.error(file + " already exists (use --force to overwrite it)");
        }
        String text = header == null ? TEMPLATE : comment(readHeader(header)) + TEMPLATE;
        Path tmp = null;
        try {
            tmp = Files.createTempFile(target, ".agent.lock.", ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
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
        spec.commandLine().getOut().println("wrote " + file);
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
