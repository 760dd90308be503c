package dev.ralon.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The {@code ralon} command. Exit codes are the same for every subcommand ({@link ExitCodes}); every failure is one
 * line on stderr starting {@code ralon: }, never a stack trace (set {@code RALON_DEBUG=1} to see one).
 */
@Command(name = "ralon", mixinStandardHelpOptions = true, versionProvider = Ralon.Version.class,
        subcommands = {InitCommand.class, CheckCommand.class, StatusCommand.class, RunCommand.class, HomeCommand.class, HookCommand.class,
                SchemaCommand.class, AppArmorProfileCommand.class, CommandLine.HelpCommand.class, picocli.AutoComplete.GenerateCompletion.class},
        description = {"Makes the paths an agent.lock protects read-only to the kernel for an AI coding agent.", ""},
        footerHeading = "%nExamples:%n",
        footer = {
                "  ralon init                        write a starter agent.lock here",
                "  ralon status                      the policy, what it matches, the backends",
                "  ralon check src/auth/login.ts     exit 1 if protected, 0 if not",
                "  ralon check --explain pom.xml     which pattern (file:line) protects it",
                "  git diff --name-only | ralon check --stdin",
                "  ralon run -- claude               run the agent, protected paths read-only",
                "  ralon run --dry-run -- claude     print the plan, start nothing",
                "  ralon check --changed origin/main protected paths a branch changed: CI",
                "  ralon check --staged              protected paths the next commit changes",
                "  ralon hook claude-code            an agent's pre-write hook (JSON on stdin)",
                "  ralon schema > agent.lock.schema.json   the JSON Schema, for editors",
                "  source <(ralon generate-completion)     bash/zsh completion",
                "  ralon apparmor-profile            the profile the mount backend needs on Ubuntu",
                "",
                "Exit codes: 0 fine; 1 protected / cannot enforce; 2 error (no policy, bad policy,",
                "bad arguments).",
                "`ralon run` exits with the command's own status once the command has started."})
final class Ralon implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** {@code ralon --policy FILE COMMAND} (the form of docs/spec.md §2): handed to the command's own --policy. */
    @CommandLine.Option(names = "--policy", paramLabel = "FILE",
            description = "Use this policy file (the same as --policy after the command).")
    java.nio.file.Path policy;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (init, check, status, run)");
    }

    static int execute(String[] args) {
        // UTF-8 whatever the JVM's default (the locale's on JDK 17, UTF-8 from JDK 18), as Main's fast path writes
        return execute(args, new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8));
    }

    /** The command line every parse uses: picocli binds the options, nothing more. */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Ralon());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // `ralon run claude --resume`: everything from the command name on belongs to the command
        cl.getSubcommands().get("run").setStopAtPositional(true);
        // the hook's formats come from their registry, so adding an agent does not touch the help
        cl.getSubcommands().get("hook").getCommandSpec().usageMessage().description(HookFormats.helpDescription());
        return cl;
    }

    /**
     * What picocli makes of {@code args}: the request of the command they name (with a top-level {@code --policy}
     * handed down), or null for a command that is not a request (init, status, schema, help). Throws picocli's
     * ParameterException for what it refuses. Used by the test that holds {@link FastParser} to the same requests.
     */
    static Request parse(String[] args) {
        CommandLine.ParseResult parsed = commandLine().parseArgs(args);
        handPolicyDown(parsed);
        CommandLine.ParseResult last = parsed;
        while (last.hasSubcommand()) {
            last = last.subcommand();
        }
        return last.commandSpec().userObject() instanceof RequestSource s ? s.request() : null;
    }

    static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = commandLine();
        cl.setOut(out);
        cl.setErr(err);
        boolean json = JsonRequest.wanted(args);
        cl.setParameterExceptionHandler((ex, a) -> {
            String message = CliException.oneLine(ex.getMessage()) + suggestion(ex) + " (see ralon "
                    + (ex.getCommandLine() == cl ? "" : ex.getCommandLine().getCommandName() + " ") + "--help)";
            err.println("ralon: " + message);
            err.flush();
            if (json) {
                out.println(Json.write(CliException.errorDocument(CliException.of("usage", message))));
                out.flush();
            }
            return ExitCodes.ERROR;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            if (json && !(ex instanceof CliException ce && ce.isJsonWritten())) {
                out.println(Json.write(CliException.errorDocument(ex)));
                out.flush();
            }
            return CliException.report(ex, err);
        });
        cl.setExecutionStrategy(parsed -> {
            handPolicyDown(parsed);
            return new CommandLine.RunLast().execute(parsed);
        });
        return cl.execute(args);
    }

    /**
     * {@code ralon --policy FILE COMMAND}: sets the command's own {@code --policy} to FILE. Refused when the command
     * reads no policy, or when both are given and differ.
     */
    private static void handPolicyDown(CommandLine.ParseResult parsed) {
        CommandLine.Model.OptionSpec top = parsed.commandSpec().findOption("--policy");
        java.nio.file.Path file = top == null ? null : top.getValue();
        if (file == null || !parsed.hasSubcommand()) {
            return;
        }
        CommandLine.ParseResult sub = parsed.subcommand();
        CommandLine.Model.OptionSpec own = sub.commandSpec().findOption("--policy");
        if (own == null) {
            throw new CommandLine.ParameterException(sub.commandSpec().commandLine(),
                    "--policy does not apply to " + sub.commandSpec().name() + " (it reads no policy)");
        }
        java.nio.file.Path given = own.getValue();
        if (given != null && !given.equals(file)) {
            throw new CommandLine.ParameterException(sub.commandSpec().commandLine(),
                    "--policy given twice, before and after " + sub.commandSpec().name() + ", with different files");
        }
        own.setValue(file);
    }

    /** picocli's "did you mean" for an unknown command or option, as a clause of the one error line. */
    static String suggestion(CommandLine.ParameterException ex) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
            return "; did you mean: " + String.join(" or ", u.getSuggestions()) + "?";
        }
        return "";
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Properties p = new Properties();
            try (InputStream in = Ralon.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            } catch (IOException e) {
                // fall through to "unknown"
            }
            return new String[] {"ralon " + p.getProperty("version", "unknown") + " (agent.lock version 1)"};
        }
    }
}
