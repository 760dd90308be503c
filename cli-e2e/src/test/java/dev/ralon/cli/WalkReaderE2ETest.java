package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real executable's walk past the first {@link Getdents64Reader#JAVA_FIRST} entries (where the getdents64
 * reader lists): a directory that can be listed but not searched (mode r--) still makes the set incomplete for uid
 * 65534, as Java's lstat of its entries fails, and {@code run} refuses it; root, who can search it, gets the entries.
 */
class WalkReaderE2ETest {
    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    @ParameterizedTest(name = "uid {0}")
    @ValueSource(ints = {0, 65534})
    void anUnsearchableDirectoryPastTheJavaListedOnesStillMakesTheSetIncomplete(int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid)) {
            Path p = Files.createDirectory(u.base.resolve("proj"));
            for (int i = 0; i < Getdents64Reader.JAVA_FIRST + 50; i++) {
                Files.writeString(Files.createDirectories(p.resolve("open/d" + i)).resolve("f.txt"), "");
            }
            Files.writeString(p.resolve("open/d7/k.pem"), "k");
            Path locked = Files.createDirectory(p.resolve("zlocked")); // listed after every open/ directory
            Files.writeString(locked.resolve("x.pem"), "x");
            Files.writeString(p.resolve("agent.lock"), "version: 1\nprotect:\n  - \"**/*.pem\"\n");
            u.handOver();
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r--r--r--"));

            // --policy: the expansion's own walk is what this checks; discovery's walk of the tree for nested
            // policies (spec §2.2) refuses the unsearchable directory before it, asserted at the end
            ProcessResult check = u.ralon(p, "--policy", "agent.lock", "check");
            assertEquals(0, check.code(), check.toString());
            assertTrue(check.out().contains("open/d7/k.pem"), check.toString());
            ProcessResult run = u.ralon(p, "--policy", "agent.lock", "run", "--backend", "landlock", "--", "true");
            if (uid == 0) {
                assertTrue(check.out().contains("zlocked/x.pem"), "root searches it: " + check);
                assertFalse(check.err().contains("cannot examine"), check.toString());
            } else {
                assertFalse(check.out().contains("zlocked/x.pem"), check.toString());
                assertTrue(check.err().contains("cannot examine " + locked.resolve("x.pem") + " (AccessDenied)"),
                        "the same reason as Java's own walk: " + check);
                assertEquals(2, run.code(), "an incomplete set is refused: " + run);
                assertTrue(run.err().contains("cannot examine"), run.toString());
                ProcessResult discovered = u.ralon(p, "check");
                assertEquals(2, discovered.code(), "discovery cannot tell whether zlocked/ holds a policy: "
                        + discovered);
                assertTrue(discovered.err().startsWith("ralon: zlocked/x.pem: cannot examine this entry")
                        && discovered.err().lines().count() == 1, discovered.toString());
            }
        }
    }
}
