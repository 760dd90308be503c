package dev.ralon.spec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IMPL is resolved against the runner's working directory before any question runs in a fixture directory (spec
 * §12.3): revision 2's runner started a relative IMPL from each fixture directory, found nothing, and scored 0. And the
 * resolved program answers from a fixture directory.
 */
class ImplementationTest {
    @TempDir
    Path dir;

    private Path program(String relative) throws IOException {
        Path p = dir.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\necho '{\"results\": []}'\n");
        assertTrue(p.toFile().setExecutable(true));
        return p;
    }

    @Test
    void aProgramWithASlashIsResolvedAgainstTheRunnersDirectory() throws IOException {
        Path p = program("bin/impl");
        assertEquals(List.of(p.toString(), "check"), Implementation.resolve(List.of("bin/impl", "check"), dir, null));
        assertEquals(List.of(p.toString()), Implementation.resolve(List.of("./bin/../bin/impl"), dir, null).stream()
                .map(s -> Path.of(s).normalize().toString()).toList());
    }

    @Test
    void aBareNameIsLookedUpInPathWithRelativeEntriesAgainstTheRunnersDirectory() throws IOException {
        Path p = program("tools/impl");
        assertEquals(List.of(p.toString(), "--x"), Implementation.resolve(List.of("impl", "--x"), dir, "/nonexistent:tools"));
        Path here = program("impl2");
        assertEquals(List.of(here.toString()), Implementation.resolve(List.of("impl2"), dir, "/nonexistent::"));
    }

    @Test
    void aMissingProgramIsOneUsageErrorNotAScoreOfZero() throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Implementation.resolve(List.of("bin/none"), dir, null));
        assertTrue(e.getMessage().contains("bin/none") && e.getMessage().contains(dir.toString()), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Implementation.resolve(List.of("none"), dir, "/nonexistent:"));
        Files.createDirectories(dir.resolve("adir"));
        assertThrows(IllegalArgumentException.class, () -> Implementation.resolve(List.of("./adir"), dir, null));
        assertThrows(IllegalArgumentException.class, () -> Implementation.resolve(List.of(), dir, null));
    }

    @Test
    void theResolvedProgramAnswersFromAFixtureDirectory() throws IOException {
        program("bin/impl");
        List<String> resolved = Implementation.resolve(List.of("bin/impl"), dir, null);
        try (Fixture fx = Fixture.text("agent.lock", "version: 1\n")) {
            Answer a = new Implementation(resolved, null).ask(fx.root(), null, List.of("x"));
            assertEquals(0, a.exit(), a.describe());
            assertTrue(a.json() != null && a.json().has("results"), a.describe());
        }
    }
}
