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
    void withoutACopyTheToolCachesAreAnAreaOfTheProjectsStoreAndNothingIsMade() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path project = tmp.resolve("project");

        WritableAreas.Outcome o = areas(home, bin);
        Path caches = HomeCopy.caches(home, project);
        assertTrue(caches.startsWith(home.resolve(HomeCopy.STORES)), caches.toString());
        assertTrue(o.confinement().areas().stream().anyMatch(a -> a.path().equals(caches)
                && a.why().equals(WritableAreas.CACHES)), o.confinement().areas().toString());
        assertTrue(Files.notExists(home.resolve(".local")), "nothing is created by the decision");
        assertTrue(o.absent().isEmpty(), o.absent().toString());
        if (o.copied() != null) { // a copy holds the caches itself: no such area
            assertTrue(o.copied().confinement().areas().stream().noneMatch(a -> a.why().equals(WritableAreas.CACHES)),
                    o.copied().confinement().areas().toString());
        }

        HomeCopy.makeCaches(home, project);
        assertTrue(Files.isDirectory(caches), "made at the start of a run");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(caches)));
    }
}
