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
 * @param writes  where the session may write outside the project ({@code --allow-write}, {@code --temp},
 *                {@code --write-anywhere})
 * @param quiet   {@code -q}: stderr gets only errors and the warnings the user must act on (Run)
 * @param verbose {@code --verbose}: every note and warning at start, every line of {@code --dry-run}
 * @param command the command and its arguments, as given after {@code --} (empty only with {@code --dry-run})
 */
record RunRequest(Path policy, String backend, boolean dryRun, boolean json, boolean quiet, boolean verbose,
                  boolean allowDegraded,
                  boolean noBaseline, boolean createAgentState, boolean allowUnixSockets, Writes writes, List<String> command)
        implements Request {
    RunRequest {
        command = List.copyOf(command);
        java.util.Objects.requireNonNull(writes, "writes");
    }

    /**
     * Where the session may write outside the project, besides the default areas (dev.ralon.host.WritableAreas).
     *
     * @param anywhere {@code --write-anywhere}: no confinement at all (reported at start)
     * @param temp     {@code --temp DIR}: the one temporary directory in place of /tmp, /var/tmp, /dev/shm, $TMPDIR
     * @param allow    each {@code --allow-write PATH}, as given
     */
    record Writes(boolean anywhere, Path temp, List<String> allow) {
        static final Writes DEFAULT = new Writes(false, null, List.of());

        Writes {
            allow = List.copyOf(allow);
        }
    }

    @Override
    public int execute(InputStream in, PrintWriter out, PrintWriter err) throws IOException {
        return Run.execute(this, out, err);
    }
}
