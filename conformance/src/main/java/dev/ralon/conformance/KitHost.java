package dev.ralon.conformance;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/** The kit's dealings with the host outside the sandbox: who this JVM is, helper commands, the shared class path. */
final class KitHost {
    private KitHost() {
    }

    /** {@code cmd} run as {@code uid} (through setpriv) when that is not this JVM's user. */
    static List<String> asUser(int uid, List<String> cmd) {
        return TestProcess.asUser(uid, cmd);
    }

    /** This JVM's real gid (the group of {@code /proc/self}). */
    static int currentGid() {
        return procSelf("unix:gid");
    }

    /** This JVM's real uid (the owner of {@code /proc/self}). */
    static int currentUid() {
        return TestProcess.currentUid();
    }

    private static int procSelf(String attribute) {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), attribute);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }


    static String readOrNull(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : null;
        } catch (IOException e) {
            return "unreadable: " + e;
        }
    }

    /**
     * Runs a helper command on the host (output and error together, no input, git's system configuration off); returns
     * its output, or null when it failed; an {@link IOException} past {@code timeoutSeconds}.
     */
    static String run(List<String> cmd, int timeoutSeconds) throws IOException {
        ProcessResult r;
        try {
            r = TestProcess.of(cmd).env("GIT_CONFIG_NOSYSTEM", "1").mergeStderr().stdin("").timeout(timeoutSeconds).run();
        } catch (AssertionFailedError timedOut) {
            throw new IOException(timedOut.getMessage(), timedOut);
        }
        return r.code() == 0 ? r.out() : null;
    }

    private static volatile String sharedClasspath;

    /**
     * The test class path (the enforcer under test, the kit, ralon-cli and its backends), copied once per JVM into a
     * directory under /tmp every user may read, so that uid 65534 can run it (a build tree under a home directory of mode 700 is not readable to it).
     */
    static synchronized String readableClasspath() throws IOException {
        if (sharedClasspath != null) {
            return sharedClasspath;
        }
        String cp = System.getProperty("surefire.test.class.path");
        if (cp == null || cp.isBlank()) {
            cp = System.getProperty("java.class.path");
        }
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "ralon-kit-cp-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                run(List.of("rm", "-rf", "--one-file-system", dir.toString()), 60);
            } catch (IOException e) {
                // best effort at exit
            }
        }));
        List<String> out = new ArrayList<>();
        int i = 0;
        for (String entry : cp.split(java.io.File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path src = Path.of(entry).toAbsolutePath();
            if (!Files.exists(src)) {
                continue;
            }
            // a directory (a module's classes) as a jar: a class-data archive holds classes from jars only (KitJvms)
            Path dst = dir.resolve((i++) + "-" + src.getFileName() + (Files.isDirectory(src) ? ".jar" : ""));
            if (Files.isDirectory(src)) {
                KitJvms.jarOf(src, dst);
            } else {
                Files.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
            }
            out.add(dst.toString());
        }
        String classpath = String.join(java.io.File.pathSeparator, out);
        sharedJvmOptions = KitJvms.options(dir, classpath);
        run(List.of("chmod", "-R", "a+rX", dir.toString()), 60);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        sharedClasspath = classpath;
        return sharedClasspath;
    }

    private static volatile List<String> sharedJvmOptions = List.of();

    /**
     * The options that let the kit's JVMs on {@link #readableClasspath} start from its class-data archive and JNA's
     * unpacked library ({@link KitJvms}); empty before the class path is made, or when they could not be made.
     */
    static List<String> jvmOptions() {
        return sharedJvmOptions;
    }

    static Path codeSource(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
