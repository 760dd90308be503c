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
 *
 * <p>The program (the first word of IMPL) is resolved once, against the runner's own working directory, before any
 * question runs in a fixture directory (spec §12.3): a path with a {@code /} is made absolute, a bare name is looked
 * up in {@code PATH} (an empty or relative entry of {@code PATH} is taken relative to the runner's directory too).
 * The arguments after it are passed as they are.
 */
final class Implementation {
    private static final int TIMEOUT_SECONDS = 60;

    private final List<String> command;
    private final PrintStream log;

    /**
     * {@code log} gets each command line and exit status, or null for none.
     *
     * @throws IllegalArgumentException when the program cannot be found or is not executable ({@link #resolve})
     */
    Implementation(List<String> command, PrintStream log) {
        this.command = resolve(command, Path.of("").toAbsolutePath(), System.getenv("PATH"));
        this.log = log;
    }

    /**
     * {@code command} with its program made absolute: resolved against {@code cwd} when it holds a {@code /}, else
     * the first executable regular file of that name in a directory of {@code path} (the {@code PATH} value, or null;
     * an empty or relative entry resolved against {@code cwd}). The rest of the command is unchanged.
     *
     * @throws IllegalArgumentException when {@code command} is empty, or its program is not an executable file
     */
    static List<String> resolve(List<String> command, Path cwd, String path) {
        if (command.isEmpty() || command.get(0).isEmpty()) {
            throw new IllegalArgumentException("no implementation command given");
        }
        String program = command.get(0);
        Path found = null;
        if (program.indexOf('/') >= 0) {
            Path p = cwd.resolve(program).toAbsolutePath();
            found = Files.isRegularFile(p) && Files.isExecutable(p) ? p : null;
        } else if (path != null) {
            for (String dir : path.split(":", -1)) {
                Path p = (dir.isEmpty() ? cwd : cwd.resolve(dir)).resolve(program).toAbsolutePath();
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    found = p;
                    break;
                }
            }
        }
        if (found == null) {
            throw new IllegalArgumentException("the implementation's program '" + program + "' is not an executable file"
                    + (program.indexOf('/') >= 0 ? " (resolved against " + cwd + ")" : " in any directory of PATH"));
        }
        List<String> out = new ArrayList<>(command);
        out.set(0, found.toString());
        return List.copyOf(out);
    }

    /** The command as it is run: the program resolved, then the arguments given. */
    List<String> command() {
        return command;
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
