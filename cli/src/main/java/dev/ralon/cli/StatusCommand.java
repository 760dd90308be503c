package dev.ralon.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.util.concurrent.Callable;

/** picocli's binding of {@code ralon status}: the options, bound into a {@link StatusRequest} that {@link Status} executes. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Show the policy in force, what it protects, and the backends `ralon run` can use.",
                "How many existing paths each pattern matches, warnings, the backends (available or not, and why;",
                "their guarantees), which one `run` would use, the session's writable areas and the baseline",
                "(--verbose lists every guarantee, area and baseline path).",
                "Inside `ralon run`, also probe each protected file (open for writing without truncating) to show",
                "that the boundary is intact."})
final class StatusCommand implements Callable<Integer>, RequestSource {
    @Mixin
    PolicyOption policyOption;

    @Option(names = "--json", description = "Print JSON (shape in docs/json.md; errors are JSON too).")
    boolean json;

    @Option(names = "--verbose", description = "Show every guarantee of each backend, every writable area and every"
            + " baseline path with its reason (the default summarises them).")
    boolean verbose;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public StatusRequest request() {
        return new StatusRequest(policyOption.policy, json, verbose);
    }

    @Override
    public Integer call() throws IOException {
        return request().execute(System.in, spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
