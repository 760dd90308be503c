package dev.ralon.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** picocli's binding of {@code ralon check}: the options, bound into a {@link CheckRequest} that {@link Check} executes. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Exit 1 if any PATH is protected (printing each protected one), 0 if none is, 2 on error.",
                "Without PATH (and without --stdin): list every existing path the policy protects now; exit 1 if",
                "an agent.lock section in AGENTS.md, CLAUDE.md or GEMINI.md (ralon init --agents) is out of date.",
                "A path that reaches a protected file through a symbolic link is protected."})
final class CheckCommand implements Callable<Integer>, RequestSource {
    @Mixin
    PolicyOption policyOption;

    @Parameters(arity = "0..*", paramLabel = "PATH", type = java.nio.file.Path.class,
            converter = Completions.Verbatim.class, description = "Paths, absolute or relative to the working directory.")
    List<String> paths = new ArrayList<>();

    @Option(names = "--explain", description = "Also print the pattern and line that protect each path.")
    boolean explain;

    @Option(names = "--json", description = "Print JSON (shape in docs/json.md; errors are JSON too).")
    boolean json;

    @Option(names = "--stdin", description = "Read paths from standard input, one per line.")
    boolean stdin;

    @Option(names = "-z", description = "With --stdin, paths are NUL-separated; output paths are NUL-terminated.")
    boolean nul;

    @Option(names = "--changed", arity = "0..1", fallbackValue = Check.DEFAULT_BASE, paramLabel = "BASE",
            description = "List protected paths the branch changed since it left BASE: the work tree (untracked files "
                    + "included) against the merge base of BASE and HEAD, or with A...B commit B against the merge "
                    + "base of A and B; both sides of renames, judged by the policy of the work tree and of the merge "
                    + "base. Exit 1 if any: a CI guard for agent-authored changes. Without BASE: HEAD (refused under "
                    + "CI=true). Paths are relative to the repository's top level.")
    String changedBase;

    @Option(names = "--staged", description = "Like --changed, for what the next commit would record (index vs HEAD): "
            + "for a git pre-commit hook.")
    boolean staged;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public CheckRequest request() {
        return new CheckRequest(policyOption.policy, paths, explain, json, stdin, nul, changedBase, staged);
    }

    @Override
    public Integer call() throws IOException {
        return request().execute(System.in, spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
