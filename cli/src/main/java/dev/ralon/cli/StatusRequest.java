package dev.ralon.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * {@code ralon status}: the policy in force, the backends and the baseline.
 *
 * @param policy {@code --policy FILE}, or null to discover every agent.lock from the working directory up and below the tree's top
 * @param json    {@code --json}: print the JSON document (docs/json.md), errors included
 * @param verbose {@code --verbose}: every guarantee, writable area and baseline path (the default summarises them)
 */
record StatusRequest(Path policy, boolean json, boolean verbose) implements Request {
    @Override
    public int execute(InputStream in, PrintWriter out, PrintWriter err) throws IOException {
        return Status.execute(this, out);
    }
}
