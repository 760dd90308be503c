package dev.ralon.cli;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * {@code ralon hook [FORMAT]}: an agent's pre-write hook; the tool call arrives as JSON on standard input.
 *
 * @param format one of {@link Hook#FORMATS}, or null (the payload says itself which agent wrote it)
 * @param policy {@code --policy FILE}, judging every target by that file alone; or null to discover per target
 */
record HookRequest(String format, Path policy) implements Request {
    @Override
    public int execute(InputStream in, PrintWriter out, PrintWriter err) {
        if (format != null && !Hook.FORMATS.contains(format)) {
            throw CliException.error("unknown hook format '" + format + "'; known: " + String.join(", ", Hook.FORMATS));
        }
        return Hook.run(format, policy, in, out, err);
    }
}
