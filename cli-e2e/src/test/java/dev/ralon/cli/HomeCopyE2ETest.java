package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static dev.ralon.cli.WritesOutsideE2ETest.attempt;
import static dev.ralon.cli.WritesOutsideE2ETest.rc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The copy of the home directory under the mount backend (docs/security.md, "The copy of the home directory"), as root
 * and as uid 65534, with an empty {@code $HOME} outside every temporary directory (/var/lib): a session makes a tool's
 * cache, edits a shell start-up file, adds an autostart entry and an MCP server in {@code ~/.claude.json}, all of
 * which succeed and none of which reaches the real home directory (read from outside); the next session of the same
 * project finds its cache again; the copies' store is hidden and cannot be written; a link to the real home by another
 * name, a rename and a hard link across the copy's edge leave the real home as it was; the project stays live; a
 * damaged store (a layer replaced by a link) is refused in one line and nothing starts.
 */
class HomeCopyE2ETest {
    /** Where the copies live, relative to HOME (HomeCopy.STORES). */
    static final String STORES = ".local/state/ralon/homes";

    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    @ParameterizedTest(name = "as uid {0}")
    @ValueSource(ints = {0, TestProcess.NOBODY})
    void writesIntoHomeLandInTheCopyAndNeverInTheRealHome(int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid, Path.of("/var/lib"))) {
            Path home = u.home;
            Path project = WritesOutsideE2ETest.project(u);
            Files.writeString(project.resolve("notes.txt"), "notes\n");
            Files.writeString(home.resolve(".profile"), "# profile\n");
            u.handOver();
            u.assumeBackend(project, "mount");
            StringBuilder s = new StringBuilder();
            s.append(attempt("cache", "mkdir -p \"$HOME/.npm/_cacache\" && echo c > \"$HOME/.npm/_cacache/x\""));
            s.append(attempt("bashrc", "echo PWNED >> \"$HOME/.bashrc\""));
            s.append(attempt("autostart", "mkdir -p \"$HOME/.config/autostart\" && echo x > \"$HOME/.config/autostart/e.desktop\""));
            s.append(attempt("mcp", "echo '{\"mcpServers\":{\"x\":{\"command\":\"evil\"}}}' > \"$HOME/.claude.json\""));
            s.append(attempt("profile", "echo PWNED >> \"$HOME/.profile\" && grep -q PWNED \"$HOME/.profile\""));
            s.append(attempt("stores-hidden", "test -z \"$(ls -A \"$HOME/" + STORES + "\")\""));
            s.append(attempt("store-write", "echo x > \"$HOME/" + STORES + "/planted\""));
            s.append(attempt("by-proc", "echo PWNED >> /proc/self/root\"$HOME/.profile\""));
            s.append(attempt("rename-out", "mv \"$HOME/.profile\" moved-profile"));
            s.append(attempt("hard-link", "ln \"$HOME/.bashrc\" linked-bashrc"));
            s.append(attempt("project", "echo more >> notes.txt"));
            s.append(attempt("secret", "echo PWNED > secret.txt"));
            ProcessResult r = u.ralon(project, "run", "--backend", "mount", "--", "sh", "-c", s.toString());
            assertEquals(0, r.code(), r.toString());
            for (String ok : List.of("cache", "bashrc", "autostart", "mcp", "profile", "stores-hidden", "project")) {
                assertEquals(0, rc(r, ok), ok + " must succeed inside: " + r);
            }
            for (String refused : List.of("store-write", "secret")) {
                assertTrue(rc(r, refused) != 0, refused + " must fail: " + r);
            }
            assertTrue(r.err().contains("; ~ is a copy: what the session writes there stays in ~/" + STORES + "/"),
                    r.err());
            // from outside: the real home as it was, but the store and what passes through
            assertFalse(Files.exists(home.resolve(".npm"), LinkOption.NOFOLLOW_LINKS), r.toString());
            assertFalse(Files.exists(home.resolve(".bashrc"), LinkOption.NOFOLLOW_LINKS), r.toString());
            assertFalse(Files.exists(home.resolve(".config/autostart"), LinkOption.NOFOLLOW_LINKS), r.toString());
            assertFalse(Files.exists(home.resolve(".claude.json"), LinkOption.NOFOLLOW_LINKS), r.toString());
            assertEquals("# profile\n", Files.readString(home.resolve(".profile")), r.toString());
            assertEquals(1, Files.getAttribute(home.resolve(".profile"), "unix:nlink"));
            assertEquals("notes\nmore\n", Files.readString(project.resolve("notes.txt")), r.toString());
            assertEquals("s3cret\n", Files.readString(project.resolve("secret.txt")), r.toString());
            Path store;
            try (Stream<Path> stores = Files.list(home.resolve(STORES))) {
                List<Path> all = stores.toList();
                assertEquals(1, all.size(), all.toString());
                store = all.get(0);
            }
            assertFalse(Files.exists(home.resolve(STORES).resolve("planted")), "the store's directory was written");
            assertEquals("c\n", Files.readString(store.resolve("upper/.npm/_cacache/x")));
            assertEquals(project.toRealPath() + "\n", Files.readString(store.resolve("project")));
            assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(store)));

            // the next session of the project finds its copy as the last one left it
            ProcessResult again = u.ralon(project, "run", "-q", "--backend", "mount", "--", "sh", "-c",
                    "cat \"$HOME/.npm/_cacache/x\"; grep -c PWNED \"$HOME/.bashrc\"");
            assertEquals(0, again.code(), again.toString());
            assertEquals("c\n1\n", again.out(), again.toString());

            // `ralon home`, from outside: what the sessions wrote, as paths; one file kept on purpose
            ProcessResult listed = u.ralon(project, "home");
            assertEquals(0, listed.code(), listed.toString());
            assertTrue(listed.out().startsWith("copy of ~ for " + project.toRealPath() + ": ~/" + STORES + "/"),
                    listed.out());
            for (String line : List.of("  new      ~/.npm/_cacache/x", "  new      ~/.bashrc",
                    "  new      ~/.claude.json", "  new      ~/.config/autostart/e.desktop", "  removed  ~/.profile")) {
                assertTrue(listed.out().lines().anyMatch(line::equals), line + " in " + listed.out());
            }
            ProcessResult kept = u.ralon(project, "home", "--keep", ".npm/_cacache/x");
            assertEquals(0, kept.code(), kept.toString());
            assertEquals("c\n", Files.readString(home.resolve(".npm/_cacache/x")), kept.toString());
            ProcessResult refusedKeep = u.ralon(project, "home", "--keep", "../../etc/passwd");
            assertEquals(2, refusedKeep.code(), refusedKeep.toString());
            ProcessResult everyCopy = u.ralon(project, "home", "--all");
            String real = project.toRealPath().toString();
            assertEquals(1, everyCopy.out().lines().filter(l -> l.endsWith(" " + real)).count(), everyCopy.toString());

            // a damaged store: a layer replaced by a link (to the real home) is refused, nothing starts
            Path upper = store.resolve("upper");
            Files.move(upper, store.resolve("upper.old"));
            Files.createSymbolicLink(upper, home);
            ProcessResult damaged = u.ralon(project, "run", "-q", "--backend", "mount", "--", "sh", "-c",
                    "echo PWNED >> \"$HOME/.profile\"");
            assertEquals(2, damaged.code(), damaged.toString());
            assertTrue(damaged.err().startsWith("ralon: the copy of your home directory for this project (" + store
                    + ") cannot be used: " + upper + " is a symbolic link or not a directory"), damaged.err());
            assertEquals(1, damaged.err().lines().count(), damaged.err());
            assertEquals("# profile\n", Files.readString(home.resolve(".profile")));

            // dropped: the store goes, the real home stays as it is
            ProcessResult dropped = u.ralon(project, "home", "--drop");
            assertEquals(0, dropped.code(), dropped.toString());
            assertFalse(Files.exists(store, LinkOption.NOFOLLOW_LINKS), dropped.toString());
            assertEquals("# profile\n", Files.readString(home.resolve(".profile")));
            assertTrue(Files.isDirectory(home), "the link's target (the home directory) was left alone");
            assertTrue(u.ralon(project, "home").out().startsWith("no copy of ~ for "), "after --drop");
        }
    }
    /**
     * A home directory beneath a temporary directory ({@code HOME=/tmp/...}, as containers and CI jobs set it) is a
     * copy too, not writable whole: a start-up file written there lands in the copy; a baseline file there stays
     * read-only; the temporary directories (/tmp itself, $TMPDIR beneath the home directory) stay live.
     */
    @ParameterizedTest(name = "as uid {0}")
    @ValueSource(ints = {0, TestProcess.NOBODY})
    void aHomeUnderTmpIsACopyToo(int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid, Path.of("/tmp"))) {
            Path home = u.home;
            Path project = WritesOutsideE2ETest.project(u);
            Files.writeString(home.resolve(".gitconfig"), "[user]\n\tname = u\n");
            u.handOver();
            u.assumeBackend(project, "mount");
            Path shared = Path.of("/tmp", u.base.getFileName() + "-shared"); // in /tmp itself, not beneath ~
            StringBuilder s = new StringBuilder();
            s.append(attempt("bashrc", "echo PWNED >> \"$HOME/.bashrc\""));
            s.append(attempt("vimrc", "echo PWNED > \"$HOME/.vimrc\""));
            s.append(attempt("gitconfig", "echo PWNED >> \"$HOME/.gitconfig\""));
            s.append(attempt("tmpdir", "echo t > \"$TMPDIR/live\""));
            s.append(attempt("tmp", "echo t > " + shared));
            s.append(attempt("secret", "echo PWNED > secret.txt"));
            ProcessResult r = u.ralon(project, "run", "--backend", "mount", "--", "sh", "-c", s.toString());
            assertEquals(0, r.code(), r.toString());
            for (String ok : List.of("bashrc", "vimrc", "tmpdir", "tmp")) {
                assertEquals(0, rc(r, ok), ok + " must succeed inside: " + r);
            }
            for (String refused : List.of("gitconfig", "secret")) {
                assertTrue(rc(r, refused) != 0, refused + " must fail: " + r);
            }
            assertTrue(r.err().contains("; ~ is a copy: what the session writes there stays in ~/" + STORES + "/"),
                    r.err());
            assertFalse(Files.exists(home.resolve(".bashrc"), LinkOption.NOFOLLOW_LINKS), r.toString());
            assertFalse(Files.exists(home.resolve(".vimrc"), LinkOption.NOFOLLOW_LINKS), r.toString());
            assertEquals("[user]\n\tname = u\n", Files.readString(home.resolve(".gitconfig")));
            assertEquals("t\n", Files.readString(home.resolve("tmp/live")), "$TMPDIR beneath ~ stays live");
            assertEquals("t\n", Files.readString(shared), "/tmp stays live");
            Files.delete(shared);
            assertEquals("s3cret\n", Files.readString(project.resolve("secret.txt")));
        }
    }
}
