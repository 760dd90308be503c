package dev.ralon.testsupport;

import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The tests' one way to run a child process and wait for it: command, working directory, environment changes,
 * standard input (default: {@code /dev/null}), a time limit after which the process is killed and the test fails with
 * what it wrote so far.
 *
 * <p>Standard output and standard error go to temporary files, read once the child has exited: a chatty child never
 * blocks on a full pipe, and a child that leaves a process behind holding its descriptors (Ralon's launcher starts the
 * CDS/AOT archive builder in the background) cannot keep the test waiting for an end of file that pipes would need.
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
    private boolean clearEnv;
    private boolean merge;
    private int timeoutSeconds = 60;
    private byte[] stdin; // null: stdinFile
    private Path stdinFile = Path.of("/dev/null");

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
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
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

    /** Sets one variable in the child's environment (this JVM's environment otherwise); the last call wins. */
    public TestProcess env(String name, String value) {
        unset.remove(name);
        env.put(name, value);
        return this;
    }

    /** Sets every variable of {@code vars} (null: nothing). */
    public TestProcess env(Map<String, String> vars) {
        if (vars != null) {
            vars.forEach(this::env);
        }
        return this;
    }

    /** Starts from an empty environment instead of this JVM's, as {@code env -i} does (then {@link #env} applies). */
    public TestProcess clearEnv() {
        this.clearEnv = true;
        return this;
    }

    /** Removes a variable from the child's environment; the last call wins. */
    public TestProcess without(String name) {
        env.remove(name);
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

    /**
     * What the child reads on standard input (UTF-8) through a pipe, then end of file; {@code ""} gives an empty pipe
     * (closed at once), where the default is {@code /dev/null}.
     */
    public TestProcess stdin(String text) {
        return stdin(text.getBytes(StandardCharsets.UTF_8));
    }

    /** What the child reads on standard input through a pipe, byte for byte; null: {@code /dev/null}. */
    public TestProcess stdin(byte[] bytes) {
        this.stdin = bytes == null ? null : bytes.clone();
        return this;
    }

    /** The child's standard input is {@code file} itself (opened for reading), not a pipe. */
    public TestProcess stdinFrom(Path file) {
        this.stdin = null;
        this.stdinFile = file;
        return this;
    }

    /**
     * Runs the command to its end. Its output goes through two files in the JVM's temporary directory, removed before
     * this returns; when that directory is gone (test-support's {@link LeftoversGuard} removes the JVM's own one once
     * its tests are over, and a shutdown hook may still run a command, e.g. to remove a copy in /tmp), in /tmp.
     */
    public ProcessResult run() throws IOException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir", "/tmp"));
        if (!Files.isDirectory(tmp)) {
            tmp = Path.of("/tmp");
        }
        Path out = Files.createTempFile(tmp, "ralon-test-out", ".txt");
        Path err = Files.createTempFile(tmp, "ralon-test-err", ".txt");
        // also when the JVM ends while this run is still going on another thread (a test that failed before waiting
        // for it): the finally below is then never reached, and the files were left in /tmp
        try {
            out.toFile().deleteOnExit();
            err.toFile().deleteOnExit();
        } catch (IllegalStateException e) {
            // the JVM is already ending (a shutdown hook runs this): the finally below removes them
        }
        try {
            return run(out, err);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private ProcessResult run(Path out, Path err) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(merge).redirectOutput(out.toFile());
        if (!merge) {
            pb.redirectError(err.toFile());
        }
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        if (stdin == null) {
            pb.redirectInput(ProcessBuilder.Redirect.from(stdinFile.toFile()));
        }
        if (clearEnv) {
            pb.environment().clear();
        }
        pb.environment().putAll(env);
        unset.forEach(pb.environment()::remove);
        Process p = pb.start();
        if (stdin != null) {
            try (OutputStream in = p.getOutputStream()) {
                in.write(stdin);
            } catch (IOException e) {
                // the child closed its input early: what it wrote and its status tell the rest
            }
        }
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionFailedError("timed out after " + timeoutSeconds + " s: " + command + "\n"
                        + read(out) + read(err));
            }
            return new ProcessResult(p.exitValue(), read(out), merge ? "" : read(err), p.pid());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted: " + command, e);
        }
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
