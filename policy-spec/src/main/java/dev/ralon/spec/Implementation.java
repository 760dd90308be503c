package dev.ralon.spec;

import org.json.JSONObject;
import org.json.JSONTokener;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The implementation under test, asked through the command protocol of spec §12: {@code IMPL ARG... [--policy FILE]
 * --json -- PATH...} run in a directory, its answer read with a timeout. Knows nothing of the vectors.
 */
final class Implementation {
    private static final int TIMEOUT_SECONDS = 60;

    private final List<String> command;
    private final PrintStream log;

    /** {@code log} gets each command line and exit status, or null for none. */
    Implementation(List<String> command, PrintStream log) {
        this.command = List.copyOf(command);
        this.log = log;
    }

    /** Asks about {@code paths} in {@code cwd}, with {@code --policy policy} when it is not null. */
    Answer ask(Path cwd, String policy, List<String> paths) throws IOException {
        List<String> cmd = new ArrayList<>(command);
        if (policy != null) {
            cmd.add("--policy");
            cmd.add(policy);
        }
        cmd.add("--json");
        cmd.add("--");
        cmd.addAll(paths);
        // The answer goes to files, not pipes: nothing reads while the command runs, so no reader thread can be
        // starved (JDK 25's CompletableFuture runs async tasks on the common pool, where the runner's own blocking
        // work can hold every worker) and a descendant that keeps a pipe open cannot make the read wait for ever.
        Path out = Files.createTempFile("ralon-vector-out", ".json");
        Path err = Files.createTempFile("ralon-vector-err", ".txt");
        try {
            Process p = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectInput(ProcessBuilder.Redirect.from(
                    Path.of("/dev/null").toFile())).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Answer(-1, null, "", "timed out after " + TIMEOUT_SECONDS + " s");
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            JSONObject json = null;
            try {
                json = new JSONObject(new JSONTokener(stdout));
            } catch (RuntimeException e) {
                // not JSON: reported by the expectation
            }
            if (log != null) {
                log.println("$ (cd " + cwd + " && " + String.join(" ", cmd) + ") -> exit " + p.exitValue());
            }
            return new Answer(p.exitValue(), json, stdout, stderr);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
