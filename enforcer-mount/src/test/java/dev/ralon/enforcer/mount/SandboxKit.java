package dev.ralon.enforcer.mount;

import dev.ralon.testsupport.Requirements;

import com.sun.jna.Native;
import dev.ralon.enforcer.spi.exec.Exec;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Helpers for the enforcement tests: a world-readable copy of the classes and jars (so uid 65534 can run them,
 * CI may clone into a private home), running a command as the current user or as uid 65534, and snapshots of files taken from
 * outside the sandbox.
 */
final class SandboxKit {
    static final int NOBODY = 65534;

    private SandboxKit() {
    }

    /** Fails in CI (where user namespaces exist), skips elsewhere, when the backend is unavailable. */
    static void requireAvailable() {
        var probe = new MountEnforcer().probe();
        Requirements.require(probe.available(), "the mount backend (" + probe.detail()
                + (probe.fix().isEmpty() ? "" : "; fix: " + probe.fix()) + ")");
    }

    static boolean runningAsRoot() {
        return "root".equals(System.getProperty("user.name")) || uid() == 0;
    }

    static int uid() {
        return dev.ralon.enforcer.spi.exec.LibC.getuid();
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Copies the test classes, main classes and the two jars the sandbox needs into {@code dir}; returns a classpath. */
    static String copyKit(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> cp = new ArrayList<>();
        int i = 0;
        for (Class<?> c : List.of(MountStage.class, TestHost.class, Exec.class, Native.class)) {
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

    static void chownTree(Path dir, int uid) throws IOException, InterruptedException {
        run(List.of("chown", "-R", "-h", uid + ":" + uid, dir.toString()), Path.of("/"), Map.of(), 30);
    }

    /** The command prefixed so that it runs as uid 65534 when {@code asNobody}. */
    static List<String> as(boolean asNobody, List<String> cmd) {
        if (!asNobody) {
            return cmd;
        }
        List<String> out = new ArrayList<>(List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY,
                "--clear-groups"));
        out.addAll(cmd);
        return out;
    }

    record Result(int exit, String output, long pid) {
    }

    static Result run(List<String> cmd, Path cwd, Map<String, String> env, int timeoutSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("timed out: " + cmd + "\n" + out);
        }
        return new Result(p.exitValue(), out, p.pid());
    }

    /**
     * What can be seen of a path from outside: type, inode, content hash, mode, mtime, link count, listing. A target
     * written {@code @dir} is a directory on the way: only its existence and identity (inode) count, since new
     * entries may be created in it.
     */
    static String snapshot(Path project, String target) {
        if (target.startsWith("@")) {
            Path p = project.resolve(target.substring(1));
            try {
                return Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                        ? "dir ino=" + Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS) : "absent or not a dir";
            } catch (IOException e) {
                return "unreadable: " + e;
            }
        }
        return snapshot(project.resolve(target));
    }

    static String snapshot(Path p) {
        try {
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                return "absent";
            }
            Map<String, Object> a = Files.readAttributes(p, "unix:ino,mode,nlink,lastModifiedTime,size",
                    LinkOption.NOFOLLOW_LINKS);
            String common = "ino=" + a.get("ino") + " mode=" + Integer.toOctalString((Integer) a.get("mode"));
            if (Files.isSymbolicLink(p)) {
                return "symlink " + common + " -> " + Files.readSymbolicLink(p);
            }
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                TreeSet<String> names = new TreeSet<>();
                try (Stream<Path> s = Files.list(p)) {
                    s.forEach(c -> names.add(c.getFileName().toString()));
                }
                return "dir " + common + " entries=" + names;
            }
            byte[] content = Files.readAllBytes(p);
            String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)).substring(0, 16);
            return "file " + common + " nlink=" + a.get("nlink") + " size=" + a.get("size") + " mtime="
                    + a.get("lastModifiedTime") + " sha256=" + sha;
        } catch (Exception e) {
            return "unreadable: " + e;
        }
    }
}
