package dev.ralon.host;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * npm's checked cache as a writable area: an existing one is an area; a missing one, with npm on PATH, is said (a
 * session cannot make it, so npm's first install under Ralon would fail), and nothing is created; without npm, nothing
 * is said.
 */
class WritableAreasTest {
    @TempDir
    Path tmp;

    private WritableAreas.Outcome areas(Path home, Path bin) throws Exception {
        Path project = Files.createDirectories(tmp.resolve("project"));
        return WritableAreas.of(project, Map.of("HOME", home.toString(), "PATH", bin.toString()),
                Files.createDirectories(tmp.resolve("t")),
                List.of(), project);
    }

    @Test
    void aMissingNpmCacheIsSaidWhenNpmIsInstalledAndNothingIsMade() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path npm = Files.writeString(bin.resolve("npm"), "#!/bin/sh\n");

        WritableAreas.Outcome none = areas(home, bin);
        assertTrue(none.absent().isEmpty(), "npm is not executable yet: " + none.absent());

        Files.setPosixFilePermissions(npm, PosixFilePermissions.fromString("rwxr-xr-x"));
        WritableAreas.Outcome missing = areas(home, bin);
        assertEquals(1, missing.absent().size(), missing.absent().toString());
        assertEquals("~/.npm/_cacache", missing.absent().get(0).path());
        assertTrue(missing.absent().get(0).why().contains("mkdir -p ~/.npm/_cacache ~/.npm/_logs"),
                missing.absent().get(0).why());
        assertTrue(Files.notExists(home.resolve(".npm")), "nothing is created");
        assertTrue(missing.left().isEmpty(), "not said at every start: " + missing.left());

        Files.createDirectories(home.resolve(".npm/_cacache"));
        Files.createDirectories(home.resolve(".npm/_logs"));
        WritableAreas.Outcome present = areas(home, bin);
        assertTrue(present.absent().isEmpty(), present.absent().toString());
        assertTrue(present.confinement().areas().stream()
                .anyMatch(a -> a.path().equals(home.resolve(".npm/_cacache"))), present.confinement().areas().toString());
    }
}
