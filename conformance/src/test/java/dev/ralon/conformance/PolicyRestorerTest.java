package dev.ralon.conformance;

import dev.ralon.testsupport.Requirements;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The restorer puts back every field of agent.lock that {@link Snapshot} reads but its times, on a real file: an
 * attack's leftover that the next attack's snapshot would share (an extended attribute of the same name) hides the
 * next attack's change. Found as a flaky control: on CI the noop run's xattr attack left {@code user.ralon-kit} and
 * the userns-xattr attack after it "changed nothing even under --backend noop".
 */
class PolicyRestorerTest {
    private static final String POLICY = "version: 1\nprotect:\n  - secret.txt\n";

    @TempDir
    Path home;

    private UserDefinedFileAttributeView attributes(Path p) {
        return Files.getFileAttributeView(p, UserDefinedFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    }

    private void setAttribute(Path p) throws IOException {
        try {
            attributes(p).write("ralon-kit", ByteBuffer.wrap("pwned".getBytes(StandardCharsets.UTF_8)));
        } catch (IOException | UnsupportedOperationException e) {
            Requirements.unmet("user.* extended attributes cannot be set in " + home + " (" + e + ")");
        }
    }

    /** proj/agent.lock as the kit writes it at the start of a run. */
    private static Path written(Path proj) throws IOException {
        Path lock = proj.resolve("agent.lock");
        KitProject.write(lock, POLICY);
        return lock;
    }

    @Test
    void inPlaceRestoresContentModeAndAttributesOnTheSameInode() throws IOException {
        Path proj = home.resolve("proj");
        Path lock = written(proj);
        Object inode = Files.getAttribute(lock, "unix:ino");
        SnapshotBefore before = new SnapshotBefore(lock);
        setAttribute(lock);
        Files.writeString(lock, "pwned\n", java.nio.file.StandardOpenOption.APPEND);
        Files.setPosixFilePermissions(lock, PosixFilePermissions.fromString("rw-------"));

        assertTrue(new PolicyRestorer(proj, KitHost.currentUid()).restore(POLICY, inode));

        assertEquals(inode, Files.getAttribute(lock, "unix:ino"), "restored in place");
        assertEquals(List.of(), attributes(lock).list(), "the attack's attribute is gone");
        assertEquals(List.of(), before.changes(), "nothing the snapshot reads differs but the times");
    }

    @Test
    void aReplacedFileIsRecreatedWithoutTheReplacementsAttributes() throws IOException {
        Path proj = home.resolve("proj");
        Path lock = written(proj);
        Object inode = Files.getAttribute(lock, "unix:ino");
        Path replacement = proj.resolve(".agent.lock.new");
        KitProject.write(replacement, "pwned\n");
        setAttribute(replacement);
        Files.move(replacement, lock, java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        assertFalse(new PolicyRestorer(proj, KitHost.currentUid()).restore(POLICY, inode),
                "a new inode: later attacks on it cannot be judged");

        assertEquals(POLICY, Files.readString(lock));
        assertEquals(List.of(), attributes(lock).list());
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(lock)));
    }

    /** What {@link Snapshot} read of a file at first, compared later without the inode-independent times. */
    private static final class SnapshotBefore {
        private final Path p;
        private final String first;

        SnapshotBefore(Path p) {
            this.p = p;
            this.first = withoutTimes(Snapshot.of(p).get("."));
        }

        List<String> changes() {
            String now = withoutTimes(Snapshot.of(p).get("."));
            return now.equals(first) ? List.of() : List.of(first + " -> " + now);
        }

        private static String withoutTimes(String entry) {
            return entry.replaceAll(" mtime=\\S+", "");
        }
    }
}
