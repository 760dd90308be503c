package dev.ralon.enforcer.landlock;

import dev.ralon.testsupport.Leftovers;
import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.Requirements;
import dev.ralon.testsupport.TestProcess;

import com.sun.jna.Native;
import dev.ralon.linux.Exec;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Helpers for tests that start the real sandbox in a child JVM (what that user runs is copied where it can read it: CI may clone into a private home). */
final class Sandboxes {
    private Sandboxes() {
    }

    /** Fails in CI (CI=true) when Landlock is unavailable; elsewhere skips the test ({@link Requirements}). */
    static void requireLandlock() {
        var probe = new LandlockEnforcer().probe();
        Requirements.require(probe.available(), "the landlock backend (" + probe.detail() + ")");
    }

    /** A world-readable directory under /tmp holding classpath copies, a HOME and the projects to attack. */
    static Path newBase(String prefix) throws IOException {
        Path base = Leftovers.createTempDirectory(Path.of("/tmp"), prefix);
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        return base;
    }

    /** Copies the classpath entries the sandbox child needs into base/cp (readable by everyone); returns the classpath. */
    static String copyClasspath(Path base) throws IOException {
        Path cpDir = Files.createDirectories(base.resolve("cp"));
        List<String> entries = new ArrayList<>();
        int i = 0;
        for (Class<?> c : List.of(LandlockEnforcer.class, Exec.class, dev.ralon.enforcer.spi.Enforcer.class, Native.class,
                SandboxMain.class)) {
            Path src;
            try {
                src = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
            Path dst = cpDir.resolve((i++) + "-" + src.getFileName());
            if (Files.isDirectory(src)) {
                copyTree(src, dst);
            } else {
                Files.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
            }
            entries.add(dst.toString());
        }
        run(List.of("chmod", "-R", "a+rX", cpDir.toString()), null, 30);
        return String.join(":", entries);
    }

    static void copyTree(Path src, Path dst) throws IOException {
        Files.walkFileTree(src, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(dst.resolve(src.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, dst.resolve(src.relativize(file).toString()), StandardCopyOption.REPLACE_EXISTING,
                    LinkOption.NOFOLLOW_LINKS);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** java + the options every child JVM gets: a writable HOME/tmp, no perf data file. */
    static List<String> javaCommand(Path home, String classpath, String mainClass) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.add("-XX:-UsePerfData");
        cmd.add("--enable-native-access=ALL-UNNAMED"); // JDK 22+ warns about JNA's System.load otherwise
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-Xshare:auto");
        cmd.add("-Djava.io.tmpdir=" + home.resolve("tmp"));
        cmd.add("-Djna.tmpdir=" + home.resolve("tmp"));
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass);
        return cmd;
    }

    static ProcessResult run(List<String> command, Map<String, String> env, int timeoutSeconds) throws IOException {
        return run(command, env, timeoutSeconds, null);
    }

    /** Runs {@code command} (in {@code cwd} when not null) with {@code env} added, standard error merged. */
    static ProcessResult run(List<String> command, Map<String, String> env, int timeoutSeconds, Path cwd)
            throws IOException {
        return TestProcess.of(command).env(env).in(cwd).mergeStderr().timeout(timeoutSeconds).run();
    }

    static void deleteTree(Path root) {
        if (root == null || !Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            run(List.of("rm", "-rf", "--one-file-system", root.toString()), null, 60);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
