package dev.ralon.policy;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;

import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.ProtectedPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Names that are not valid UTF-8 are never silently unmatched: the walk reports each one it meets where a pattern
 * could match, escaped, as a reason the protected set may be incomplete (run refuses such a set). Real names on disk,
 * made by the shell from their bytes.
 */
class FileNamesTest {
    @TempDir
    Path tmp;

    @Test
    void theBuildsJvmReadsNamesAsUtf8() {
        // the pom runs tests under LC_ALL=C.UTF-8 whatever Maven's locale (env -i mvn verify)
        assertTrue(FileNames.jvmReadsUtf8(), "sun.jnu.encoding=" + FileNames.encoding());
    }

    static void shell(Path dir, String script) throws Exception {
        ProcessResult r = TestProcess.of("sh", "-c", script).in(dir).run();
        assertEquals(0, r.code(), script + ": " + r.all());
    }

    @Test
    void anUndecodableNameWherePatternsReachMakesTheSetIncomplete() throws Exception {
        Path root = tmp.toRealPath();
        Files.writeString(root.resolve("agent.lock"), "version: 1\nprotect:\n  - \"keys/*.key\"\n  - \"docs/*.clé\"\n");
        Files.createDirectories(root.resolve("keys"));
        Files.createDirectories(root.resolve("docs"));
        Files.createDirectories(root.resolve("elsewhere"));
        shell(root, "printf x > \"$(printf 'keys/bad\\351.key')\"; printf x > \"$(printf 'elsewhere/bad\\351')\"; "
                + "printf x > \"$(printf 'docs/caf\\303\\251.cl\\303\\251')\"");
        Expansion e = ProtectedPaths.expand(PolicyLoader.load(root.resolve("agent.lock")), false);
        assertEquals(1, e.incomplete().size(), e.incomplete().toString());
        assertEquals(Warning.Kind.UNREADABLE_NAME, e.incomplete().get(0).kind());
        String why = e.incomplete().get(0).text();
        assertTrue(why.startsWith("cannot read the name of " + root + "/keys/bad\\xE9.key as UTF-8"), why);
        assertTrue(e.entries().stream().anyMatch(x -> x.relPath().equals("docs/café.clé")),
                "a valid non-ASCII name is matched: " + e.entries());
    }

    @Test
    void escapedShowsTheBytes() throws Exception {
        Path root = tmp.toRealPath();
        shell(root, "printf x > \"$(printf 'a\\351 b')\"");
        try (var s = Files.list(root)) {
            List<Path> l = s.toList();
            assertEquals(1, l.size());
            assertEquals(root + "/a\\xE9 b", FileNames.escaped(l.get(0)));
            assertTrue(FileNames.undecodable(root, l.get(0), l.get(0).getFileName().toString()));
        }
        Path ok = Files.writeString(root.resolve("clé \uFFFD.txt"), "x"); // a real U+FFFD round-trips: not undecodable
        assertEquals(false, FileNames.undecodable(root, ok, ok.getFileName().toString()));
    }
}
