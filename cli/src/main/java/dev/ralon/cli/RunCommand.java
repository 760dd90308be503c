package dev.ralon.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** picocli's binding of {@code ralon run}: the options, bound into a {@link RunRequest} that {@link Run} executes. */
@picocli.CommandLine.Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run CMD with the protected paths read-only to the kernel, in CMD and everything it starts.",
                "The strongest available backend is used unless --backend names one. Nothing is started when the",
                "backend cannot enforce the policy (exit 2), unless --allow-degraded is given."})
final class RunCommand implements Callable<Integer>, RequestSource {
    @Mixin
    PolicyOption policyOption;

    @Option(names = "--backend", paramLabel = "NAME", completionCandidates = Completions.BackendNames.class, description = "Use this backend (see `ralon status`).")
    String backend;

    @Option(names = "--dry-run", description = "Print the plan and exit: 0 if it can be enforced, 1 if not.")
    boolean dryRun;

    @Option(names = "--json", description = "With --dry-run: print the plan as JSON (shape in docs/json.md; errors are"
            + " JSON too).")
    boolean json;

    @Option(names = {"-q", "--quiet"}, description = "Print nothing at start but errors and the warnings you must act on"
            + " (a degraded run, a backend that enforces nothing, /tmp or your home made create-restricted).")
    boolean quiet;

    @Option(names = "--verbose", description = "Print every note and warning at start, and every line of --dry-run"
            + " (each protected path, step and create-restricted directory).")
    boolean verbose;

    @Option(names = "--allow-degraded", description = "Run even when the backend cannot keep every guarantee it "
            + "declares for this policy; what is missing is printed before the command starts.")
    boolean allowDegraded;

    @Option(names = "--allow-unix-sockets", description = "Let the command create Unix sockets, and so reach every"
            + " helper of yours outside the session through one: tmux, D-Bus, systemd --user, ssh-agent (git push over"
            + " ssh with an agent), gpg-agent, Docker, X11. Signals and ptrace outside stay refused; reported at start.")
    boolean allowUnixSockets;

    @Option(names = "--no-baseline", description = "Do not protect the baseline (git hooks and config, shell start-up"
            + " files and the other paths that run code later outside the sandbox; `ralon status` lists them).")
    boolean noBaseline;

    @Option(names = "--create-agent-state", description = "Create the missing agent state directories in $HOME "
            + "(~/.claude, ~/.codex, ~/.gemini, mode 0700) before the sandbox starts: under Landlock they cannot be "
            + "created during the run when $HOME leads to a protected path.")
    boolean createAgentState;

    @Option(names = "--allow-write", paramLabel = "PATH", description = "Let the session write PATH (a directory and"
            + " everything beneath it, or one file) besides the project, temporary files and the agents' state;"
            + " repeatable. Your permanent additions go in ~/.config/ralon/writable, one path a line.")
    List<String> allowWrite = new ArrayList<>();

    @Option(names = "--temp", paramLabel = "DIR", description = "The session's one temporary directory (it must exist):"
            + " writable in place of /tmp, /var/tmp, /dev/shm and $TMPDIR, which stay read-only.")
    Path temp;

    @Option(names = "--write-anywhere", description = "Do not confine the session's writes: everything you can write"
            + " stays writable to it outside the project (only the protected paths and the baseline are read-only);"
            + " reported at start.")
    boolean writeAnywhere;

    @Parameters(arity = "0..*", paramLabel = "CMD", type = Path.class, converter = Completions.Verbatim.class, description = "The command and its arguments (after --).")
    List<String> command = new ArrayList<>();

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;


    @Override
    public RunRequest request() {
        return new RunRequest(policyOption.policy, backend, dryRun, json, quiet, verbose, allowDegraded, noBaseline,
                createAgentState, allowUnixSockets, new RunRequest.Writes(writeAnywhere, temp, allowWrite), command);
    }

    @Override
    public Integer call() throws IOException {
        return request().execute(System.in, spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
