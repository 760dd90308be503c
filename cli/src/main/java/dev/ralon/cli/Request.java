package dev.ralon.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;

/**
 * A command of {@code ralon} as a value: what the user asked, parsed, before anything is done. Two parsers make them
 * (picocli's bindings, {@code CheckCommand}, {@code RunCommand}, {@code HookCommand}, {@code StatusCommand}; and {@link FastParser} for the
 * hot-path forms without picocli), and a test over generated argument lists holds them equal
 * ({@code RequestParityTest}). Executing a request is the same code whichever parser made it.
 */
sealed interface Request permits CheckRequest, RunRequest, HookRequest, StatusRequest {
    /**
     * Does the command; returns its exit code ({@link ExitCodes}) or throws a {@link CliException} (or the host's
     * refusal) for the caller to report in one line. {@code run} does not return when the command starts.
     */
    int execute(InputStream in, PrintWriter out, PrintWriter err) throws IOException;
}
