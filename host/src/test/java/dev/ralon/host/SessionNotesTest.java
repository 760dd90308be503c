package dev.ralon.host;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The session notes stay bounded on a real directory: notes not used for {@link SessionNotes#KEPT_DAYS} days and all
 * but the {@link SessionNotes#KEPT} last used go when a start writes new notes; a reuse counts as a use; nothing but
 * the notes' own names is removed, and no link is followed. (That a session reads and cannot change them:
 * AgentInstructionsE2ETest, end to end.)
 */
class SessionNotesTest {
    @TempDir
    Path home;

    private Path dir() {
        return SessionNotes.directory(Map.of("HOME", home.toString()));
    }

    private Path write(String text) throws IOException {
        return SessionNotes.write(dir(), text);
    }

    private List<Path> notes() throws IOException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.filter(p -> p.getFileName().toString().endsWith(".txt")).sorted().toList();
        }
    }

    private static void age(Path p, long days) throws IOException {
        Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - TimeUnit.DAYS.toMillis(days)));
    }

    @Test
    void manySessionsWithOtherNotesKeepOnlyTheLastUsed() throws IOException {
        Path first = write("notes 0");
        age(first, 1); // the least recently used
        for (int i = 1; i < SessionNotes.KEPT + 10; i++) {
            Path p = write("notes " + i);
            age(p, 0);
        }
        List<Path> left = notes();
        assertEquals(SessionNotes.KEPT, left.size(), left.toString());
        assertFalse(Files.exists(first), "the least recently used goes first");
        assertTrue(Files.exists(write("notes " + (SessionNotes.KEPT + 9))), "the newest stays");
    }

    @Test
    void notesUnusedForTheirDaysGoAndAReuseCountsAsAUse() throws IOException {
        Path stale = write("stale");
        Path recent = write("recent");
        Path reused = write("reused");
        age(stale, SessionNotes.KEPT_DAYS + 1);
        age(recent, SessionNotes.KEPT_DAYS - 1);
        age(reused, SessionNotes.KEPT_DAYS + 1);
        assertEquals(reused, write("reused"), "the same text is the same file");
        assertTrue(Files.getLastModifiedTime(reused).toMillis() > System.currentTimeMillis() - 60_000,
                "a reuse sets the last use to now");
        Path fresh = write("a new session");
        assertFalse(Files.exists(stale), "unused for " + (SessionNotes.KEPT_DAYS + 1) + " days");
        assertTrue(Files.exists(recent) && Files.exists(reused) && Files.exists(fresh));
        assertEquals("a new session", Files.readString(fresh));
    }

    @Test
    void onlyTheNotesOwnNamesAreRemovedAndNoLinkIsFollowed() throws IOException {
        write("first");
        Path outside = Files.writeString(home.resolve("precious.txt"), "keep");
        age(outside, 400);
        Path link = Files.createSymbolicLink(dir().resolve("0123456789abcdef0123456789abcdef.txt"), outside);
        Path other = Files.writeString(dir().resolve("mine.txt"), "a file of the user's");
        age(other, 400);
        Path deadTemp = Files.writeString(dir().resolve(".k3x9.tmp"), "half");
        Files.setLastModifiedTime(deadTemp, FileTime.fromMillis(System.currentTimeMillis() - TimeUnit.HOURS.toMillis(2)));
        Path liveTemp = Files.writeString(dir().resolve(".k3y0.tmp"), "being written");
        write("second");
        assertEquals("keep", Files.readString(outside), "a link's target is never touched");
        assertTrue(Files.isSymbolicLink(link), "a link is not a notes file: left alone");
        assertTrue(Files.exists(other), "a name that is not the notes' is left alone");
        assertFalse(Files.exists(deadTemp), "a temporary file over an hour old is a dead start's");
        assertTrue(Files.exists(liveTemp), "a recent temporary file may be a start's at work");
    }
}
