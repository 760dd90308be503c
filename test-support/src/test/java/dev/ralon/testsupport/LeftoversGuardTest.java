package dev.ralon.testsupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/**
 * The guard, in a launcher session of its own: what a test leaves in the JVM's own temporary directory, or of a
 * watched directory, fails the session's end; what was there before, or was removed, does not; new entries of HOME
 * are named, not failed; the directory the session made is removed when it ends empty.
 */
class LeftoversGuardTest {
    /** Where {@link Sample} writes (set by the test that runs it; the launcher below runs in this thread). */
    static Path tmp;
    static Path outside;

    /** Run by the launcher below only (a nested class: Surefire's default excludes leave it out). */
    static class Sample {
        @Test
        void leavesOneFileAndOneWatchedDirectory() throws IOException {
            Files.writeString(tmp.resolve("left.txt"), "x");
            Path removed = Files.createTempFile(tmp, "removed", ".txt");
            Files.delete(removed);
            Leftovers.createTempDirectory(outside, "kept-");
            Files.delete(Leftovers.createTempDirectory(outside, "removed-"));
        }
    }

    @Test
    void whatATestLeavesFailsTheSessionAndOnlyThat(@TempDir Path dir) throws IOException {
        tmp = dir.resolve("tmp");
        outside = Files.createDirectory(dir.resolve("outside"));
        Path home = Files.createDirectory(dir.resolve("home"));
        Files.createDirectories(tmp);
        Files.writeString(tmp.resolve("before.txt"), "there before the session");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        LeftoversGuard guard = new LeftoversGuard(tmp, home, out);
        LauncherSession session = LauncherFactory.openSession(LauncherConfig.builder()
                .enableLauncherSessionListenerAutoRegistration(false).enableTestExecutionListenerAutoRegistration(false)
                .addLauncherSessionListeners(guard).build());
        session.getLauncher().execute(request().selectors(selectClass(Sample.class)).build());
        Files.createDirectories(home.resolve(".cache/JNA/temp"));
        IllegalStateException e = assertThrows(IllegalStateException.class, session::close);
        assertTrue(e.getMessage().startsWith("the tests left 2 file(s) behind"), e.getMessage());
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(5, lines.size(), lines.toString());
        assertTrue(lines.contains("[LEFTOVER] " + tmp.resolve("left.txt")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("[LEFTOVER] " + outside.resolve("kept-"))),
                lines.toString());
        assertTrue(lines.contains("[LEFTOVER?] " + home.resolve(".cache")
                + " (new in HOME during this test JVM's run; maybe another process's)"), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("[LEFTOVER?] " + home.resolve(".cache/JNA/temp") + " ")),
                lines.toString());
    }

    @Test
    void aCleanSessionEndsQuietlyAndRemovesTheDirectoryItMade(@TempDir Path dir) throws IOException {
        Path own = dir.resolve("own"); // missing: made at the session's start
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LeftoversGuard guard = new LeftoversGuard(own, dir, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        LauncherSession session = LauncherFactory.openSession(LauncherConfig.builder()
                .enableLauncherSessionListenerAutoRegistration(false).addLauncherSessionListeners(guard).build());
        assertTrue(Files.isDirectory(own));
        session.close();
        assertEquals("", bytes.toString(StandardCharsets.UTF_8));
        assertFalse(Files.exists(own), "made by the session, removed by it when empty");
    }
}
