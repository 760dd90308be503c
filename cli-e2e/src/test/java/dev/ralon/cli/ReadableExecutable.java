package dev.ralon.cli;

import dev.ralon.testsupport.Leftovers;
import dev.ralon.testsupport.TestProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The real executable ({@code ralon.executable}, built by Maven) copied into a fresh directory under /tmp that every
 * user may read, beside a home directory every user may write: what a test that runs ralon as uid 65534 needs (CI may
 * clone into a home directory that user cannot read).
 *
 * @param base the directory, removed by {@link #delete()}
 * @param exe  the copy of the executable (in {@code base}, or the JVM's shared one: {@link #sharing})
 * @param home {@code base/home}, mode 777
 */
record ReadableExecutable(Path base, Path exe, Path home) {
    static ReadableExecutable create(String prefix) throws IOException {
        String ralon = System.getProperty("ralon.executable");
        if (ralon == null) {
            fail("system property ralon.executable is not set: run through Maven (mvn verify)");
        }
        Path base = Leftovers.createTempDirectory(Path.of("/tmp"), prefix);
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path exe = Files.copy(Path.of(ralon), base.resolve("ralon"));
        Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path home = Files.createDirectories(base.resolve("home"));
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));
        return new ReadableExecutable(base, exe, home);
    }

    /**
     * A fresh directory and home as {@link #create}, with this JVM's shared copy of the executable
     * ({@link SharedExecutable}, its start-up archive already built) instead of a copy of its own: for a class that only
     * runs ralon. A copy of its own has no archive, so its first start starts the launcher's archive builder (about 3 s
     * of CPU, measured by process accounting: 18 builders were a twentieth of the suite's CPU).
     */
    static ReadableExecutable sharing(String prefix) throws IOException {
        Path base = Leftovers.createTempDirectory(Path.of("/tmp"), prefix);
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path home = Files.createDirectories(base.resolve("home"));
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));
        return new ReadableExecutable(base, SharedExecutable.exe(), home);
    }

    /** Removes the directory (as this user, who may be root: files uid 65534 made in it go too). */
    void delete() throws IOException {
        TestProcess.of("rm", "-rf", "--one-file-system", base.toString()).stdin("").timeout(120).run();
    }
}
