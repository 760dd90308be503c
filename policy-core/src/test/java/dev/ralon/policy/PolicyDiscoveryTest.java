package dev.ralon.policy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class PolicyDiscoveryTest {
    @TempDir
    Path tmp;

    @Test
    void walksUpAndTheNearestWins() throws Exception {
        Path top = tmp.toRealPath();
        Path mid = Files.createDirectories(top.resolve("a/b"));
        Path deep = Files.createDirectories(mid.resolve("c/d"));
        Files.writeString(top.resolve("agent.lock"), "version: 1\n");
        assertEquals(Optional.of(top.resolve("agent.lock")), PolicyDiscovery.find(deep));
        assertEquals(Optional.of(top.resolve("agent.lock")), PolicyDiscovery.find(top));
        Files.writeString(mid.resolve("agent.lock"), "version: 1\n");
        assertEquals(Optional.of(mid.resolve("agent.lock")), PolicyDiscovery.find(deep), "the nearest wins");
        assertEquals(Optional.of(mid.resolve("agent.lock")), PolicyDiscovery.find(mid));
        assertEquals(Optional.of(top.resolve("agent.lock")), PolicyDiscovery.find(top.resolve("a")));
    }

    @Test
    void relativeStartIsResolvedAgainstTheWorkingDirectory() {
        Path cwd = Path.of("").toAbsolutePath();
        assertEquals(PolicyDiscovery.find(cwd), PolicyDiscovery.find(Path.of("")));
    }

    /** Anything named agent.lock stops the walk (the loader then refuses it with a clear message). */
    @Test
    void aDirectoryOrDanglingLinkNamedAgentLockIsFoundNotSkipped() throws Exception {
        Path top = tmp.toRealPath();
        Files.writeString(top.resolve("agent.lock"), "version: 1\n");
        Path sub = Files.createDirectories(top.resolve("sub"));
        Files.createDirectory(sub.resolve("agent.lock"));
        assertEquals(Optional.of(sub.resolve("agent.lock")), PolicyDiscovery.find(sub));
        Path sub2 = Files.createDirectories(top.resolve("sub2"));
        Files.createSymbolicLink(sub2.resolve("agent.lock"), Path.of("nowhere"));
        assertEquals(Optional.of(sub2.resolve("agent.lock")), PolicyDiscovery.find(sub2));
    }

    @Test
    void nothingUpTheTree() throws Exception {
        // the temp dir's ancestors (/tmp, /) hold no agent.lock on a sane machine; check that first
        for (Path p = tmp.toRealPath().getParent(); p != null; p = p.getParent()) {
            assertFalse(Files.exists(p.resolve("agent.lock")),
                    "an agent.lock exists in " + p + ": this machine cannot show 'nothing found'");
        }
        assertFalse(PolicyDiscovery.find(tmp).isPresent());
        assertFalse(PolicyDiscovery.find(tmp.resolve("not/yet/created")).isPresent());
    }
}
