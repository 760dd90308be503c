package dev.ralon.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code ralon hook [FORMAT]}: an agent's pre-write hook (Claude Code, Codex, Gemini CLI). The work is {@link Hook}'s;
 * this class only binds the command line into a {@link HookRequest}. An unknown FORMAT is an error with exit 2, which
 * every supported agent
 * reads as a refusal, so a mistyped hook still fails closed.
 */
@Command(name = "hook", mixinStandardHelpOptions = true) // description: HookFormats.helpDescription(), set in Ralon
final class HookCommand implements Callable<Integer>, RequestSource {
    @Parameters(index = "0", arity = "0..1", paramLabel = "FORMAT",
            description = "The agent: one of ${COMPLETION-CANDIDATES}.", completionCandidates = Formats.class)
    String format;

    @Option(names = "--policy", paramLabel = "FILE", description = "Judge every target by this policy file alone.")
    Path policyFile;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public HookRequest request() {
        return new HookRequest(format, policyFile);
    }

    @Override
    public Integer call() {
        return request().execute(System.in, spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    static final class Formats implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Hook.FORMATS.iterator();
        }
    }
}
