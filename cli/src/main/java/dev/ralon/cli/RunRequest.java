package dev.ralon.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code ralon run}: the command to start and how.
 *
 * @param policy  {@code --policy FILE}, or null to discover every agent.lock from the working directory up and below the tree's top
 * @param backend {@code --backend NAME}, or null for the machine's choice
 * @param allowUnixSockets {@code --allow-unix-sockets}: the session guard leaves Unix sockets allowed
 * @param command the command and its arguments, as given after {@code --} (empty only with {@code --dry-run})
 */
record RunRequest(Path policy, String backend, boolean dryRun, boolean json, boolean quiet, boolean allowDegraded,
                  boolean noBaseline, boolean createAgentState, boolean allowUnixSockets, List<String> command) implements Request {
    RunRequest {
        command = List.copyOf(command);
    }

    @Override
    public int execute(InputStream in, PrintWriter out, PrintWriter err) throws IOException {
        return Run.execute(this, out, err);
    }
}
