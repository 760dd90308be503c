package dev.ralon.testsupport;

import org.opentest4j.AssertionFailedError;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The tests' one way to run a child process and wait for it: command, working directory, environment changes,
 * standard input (default: nothing, closed), a time limit after which the process is killed and the test fails with
 * what it wrote so far. Standard output and standard error are read at the same time, so a chatty child never blocks.
 *
 * <pre>{@code
 * ProcessResult r = TestProcess.of("git", "status").in(repo).env("HOME", home.toString()).timeout(30).run();
 * }</pre>
 */
public final class TestProcess {
    /** uid of "nobody", the unprivileged user the enforcement tests run as. */
    public static final int NOBODY = 65534;

    private final List<String> command;
    private Path dir;
    private final Map<String, String> env = new LinkedHashMap<>();
    private final List<String> unset = new ArrayList<>();
    private boolean merge;
    private int timeoutSeconds = 60;
    private byte[] stdin = new byte[0];

    private TestProcess(List<String> command) {
        this.command = List.copyOf(command);
    }

    public static TestProcess of(List<String> command) {
        return new TestProcess(command);
    }

    public static TestProcess of(String... command) {
        return new TestProcess(List.of(command));
    }

    /**
     * {@code command} prefixed with {@code setpriv --reuid=UID --regid=UID --clear-groups} when {@code uid} is not
     * this JVM's user (which needs root: see {@link RequiresRoot}); unchanged otherwise.
     */
    public static List<String> asUser(int uid, List<String> command) {
        if (uid == currentUid()) {
            return List.copyOf(command);
        }
        List<String> out = new ArrayList<>(List.of("setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups"));
        out.addAll(command);
        return out;
    }

    /** This JVM's real uid (the owner of {@code /proc/self}). */
    public static int currentUid() {
        try {
            return (Integer) java.nio.file.Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The path of the {@code java} launcher of this JVM. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Working directory (default: this JVM's). */
    public TestProcess in(Path directory) {
        this.dir = directory;
        return this;
    }

    /** Sets one variable in the child's environment (this JVM's environment otherwise). */
    public TestProcess env(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** Sets every variable of {@code vars} (null: nothing). */
    public TestProcess env(Map<String, String> vars) {
        if (vars != null) {
            env.putAll(vars);
        }
        return this;
    }

    /** Removes a variable from the child's environment. */
    public TestProcess without(String name) {
        unset.add(name);
        return this;
    }

    /** Standard error goes to {@link ProcessResult#out()} too, interleaved as written. */
    public TestProcess mergeStderr() {
        this.merge = true;
        return this;
    }

    /** Time limit (default 60 s): past it the child is killed and the calling test fails. */
    public TestProcess timeout(int seconds) {
        this.timeoutSeconds = seconds;
        return this;
    }

    /** What the child reads on standard input (UTF-8), then end of file. */
    public TestProcess stdin(String text) {
        this.stdin = text.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    /** Runs the command to its end. */
    public ProcessResult run() throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(merge);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        if (stdin.length == 0) {
            pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        }
        pb.environment().putAll(env);
        unset.forEach(pb.environment()::remove);
        Process p = pb.start();
        if (stdin.length > 0) {
            try (OutputStream in = p.getOutputStream()) {
                in.write(stdin);
            } catch (IOException e) {
                // the child closed its input early: what it wrote and its status tell the rest
            }
        }
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = merge ? CompletableFuture.completedFuture("")
                : CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionFailedError("timed out after " + timeoutSeconds + " s: " + command + "\n"
                        + out.getNow("") + err.getNow(""));
            }
            return new ProcessResult(p.exitValue(), out.get(30, TimeUnit.SECONDS), err.get(30, TimeUnit.SECONDS),
                    p.pid());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted: " + command, e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IOException("reading the output of " + command + " failed", e);
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(reading failed: " + e + ")";
        }
    }
}
