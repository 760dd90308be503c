package dev.ralon.enforcer.mount;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.Requirements;
import dev.ralon.testsupport.TestProcess;

import com.sun.jna.Native;
import dev.ralon.linux.Exec;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Helpers for the mount backend's tests: a world-readable copy of the classes and jars (so uid 65534 can run them,
 * CI may clone into a private home) and running a command in a directory.
 */
final class SandboxKit {
    private SandboxKit() {
    }

    /** Fails in CI (where user namespaces exist), skips elsewhere, when the backend is unavailable. */
    static void requireAvailable() {
        var probe = new MountEnforcer().probe();
        Requirements.require(probe.available(), "the mount backend (" + probe.detail()
                + (probe.fix().isEmpty() ? "" : "; fix: " + probe.fix()) + ")");
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Copies the test classes, main classes and the two jars the sandbox needs into {@code dir}; returns a classpath. */
    static String copyKit(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> cp = new ArrayList<>();
        int i = 0;
        for (Class<?> c : List.of(MountStage.class, TestHost.class, Exec.class, dev.ralon.enforcer.spi.Enforcer.class, Native.class)) {
            Path src = codeSource(c);
            Path dst = dir.resolve("cp" + (i++) + (Files.isDirectory(src) ? "" : ".jar"));
            copyTree(src, dst);
            cp.add(dst.toString());
        }
        makeReadable(dir);
        return String.join(File.pathSeparator, cp);
    }

    private static Path codeSource(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static void copyTree(Path src, Path dst) throws IOException {
        if (!Files.isDirectory(src)) {
            Files.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = dst.resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    static void makeReadable(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(
                        Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
    }

    /** Runs {@code cmd} in {@code cwd} with {@code env} added, standard error merged into the output. */
    static ProcessResult run(List<String> cmd, Path cwd, Map<String, String> env, int timeoutSeconds)
            throws IOException {
        return TestProcess.of(cmd).in(cwd).env(env).mergeStderr().timeout(timeoutSeconds).run();
    }
}
