package dev.ralon.policy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class PolicyDiscoveryTest {
    @TempDir
    Path tmp;

    @Test
    void everyFileFromTheDirectoryUpIsInForceFarthestFirst() throws Exception {
        Path top = tmp.toRealPath();
        Path mid = Files.createDirectories(top.resolve("a/b"));
        Path deep = Files.createDirectories(mid.resolve("c/d"));
        Files.writeString(top.resolve("agent.lock"), "version: 1\n");
        assertEquals(List.of(top.resolve("agent.lock")), PolicyDiscovery.inForce(deep));
        assertEquals(List.of(top.resolve("agent.lock")), PolicyDiscovery.inForce(top));
        Files.writeString(mid.resolve("agent.lock"), "version: 1\n");
        assertEquals(List.of(top.resolve("agent.lock"), mid.resolve("agent.lock")), PolicyDiscovery.inForce(deep),
                "a nearer file is added, never instead");
        assertEquals(List.of(top.resolve("agent.lock"), mid.resolve("agent.lock")), PolicyDiscovery.inForce(mid));
        assertEquals(List.of(top.resolve("agent.lock")), PolicyDiscovery.inForce(top.resolve("a")),
                "a file below the directory is not in force there");
    }

    @Test
    void relativeStartIsResolvedAgainstTheWorkingDirectory() throws Exception {
        Path cwd = Path.of("").toAbsolutePath();
        assertEquals(PolicyDiscovery.inForce(cwd), PolicyDiscovery.inForce(Path.of("")));
    }

    /** Anything named agent.lock is in force (the loader then refuses it with a clear message), never skipped. */
    @Test
    void aDirectoryOrDanglingLinkNamedAgentLockIsFoundNotSkipped() throws Exception {
        Path top = tmp.toRealPath();
        Files.writeString(top.resolve("agent.lock"), "version: 1\n");
        Path sub = Files.createDirectories(top.resolve("sub"));
        Files.createDirectory(sub.resolve("agent.lock"));
        assertEquals(List.of(top.resolve("agent.lock"), sub.resolve("agent.lock")), PolicyDiscovery.inForce(sub));
        Path sub2 = Files.createDirectories(top.resolve("sub2"));
        Files.createSymbolicLink(sub2.resolve("agent.lock"), Path.of("nowhere"));
        assertEquals(List.of(top.resolve("agent.lock"), sub2.resolve("agent.lock")), PolicyDiscovery.inForce(sub2));
    }

    /** A directory reached through a symbolic link: the files above its real location are in force too. */
    @Test
    void bothTheLexicalAndTheRealAncestorsCount() throws Exception {
        Path top = tmp.toRealPath();
        Path real = Files.createDirectories(top.resolve("real/inner"));
        Files.writeString(top.resolve("real/agent.lock"), "version: 1\n");
        Path elsewhere = Files.createDirectories(top.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("agent.lock"), "version: 1\n");
        Path link = Files.createSymbolicLink(elsewhere.resolve("door"), real.getParent());
        assertEquals(List.of(elsewhere.resolve("agent.lock"), top.resolve("real/agent.lock")),
                PolicyDiscovery.inForce(link.resolve("inner")));
    }

    @Test
    void aFileInPlaceOfADirectoryOnTheWayIsNoError() throws Exception {
        Path top = tmp.toRealPath();
        Files.writeString(top.resolve("agent.lock"), "version: 1\n");
        Files.writeString(top.resolve("plain"), "x");
        assertEquals(List.of(top.resolve("agent.lock")), PolicyDiscovery.inForce(top.resolve("plain/sub")));
    }

    @Test
    void nothingUpTheTree() throws Exception {
        // the temp dir's ancestors (/tmp, /) hold no agent.lock on a sane machine; check that first
        for (Path p = tmp.toRealPath().getParent(); p != null; p = p.getParent()) {
            assertFalse(Files.exists(p.resolve("agent.lock")),
                    "an agent.lock exists in " + p + ": this machine cannot show 'nothing found'");
        }
        assertEquals(List.of(), PolicyDiscovery.inForce(tmp));
        assertEquals(List.of(), PolicyDiscovery.inForce(tmp.resolve("not/yet/created")));
    }
}
