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
 * @param exe  the copy of the executable
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

    /** Removes the directory (as this user, who may be root: files uid 65534 made in it go too). */
    void delete() throws IOException {
        TestProcess.of("rm", "-rf", "--one-file-system", base.toString()).stdin("").timeout(120).run();
    }
}
