package dev.ralon.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code ralon check}: the paths to judge (or none: the listing), or {@code --changed}/{@code --staged}.
 *
 * @param policy      {@code --policy FILE}, or null to discover every agent.lock from the working directory up and below the tree's top
 * @param paths       the PATH arguments, as given
 * @param changedBase {@code --changed [BASE]}: null when not given, {@link Check#DEFAULT_BASE} without a value
 */
record CheckRequest(Path policy, List<String> paths, boolean explain, boolean json, boolean stdin, boolean nul,
                    String changedBase, boolean staged) implements Request {
    CheckRequest {
        paths = List.copyOf(paths);
    }

    /** {@code ralon check PATH...} with nothing else: the form every agent's pre-write check uses. */
    static CheckRequest of(List<String> paths) {
        return new CheckRequest(null, paths, false, false, false, false, null, false);
    }

    @Override
    public int execute(InputStream in, PrintWriter out, PrintWriter err) throws IOException {
        return Check.execute(this, in, out, err);
    }
}
