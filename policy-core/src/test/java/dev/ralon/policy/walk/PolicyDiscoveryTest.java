package dev.ralon.policy.walk;

import dev.ralon.policy.git.GitRepo;
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

    /**
     * A project nested under a directory with an agent.lock of its own: the files above its repository are outside,
     * and the repository's root is the one git names (a clone, a linked work tree), compared with the real git.
     */
    @Test
    void filesAboveTheRepositoryAreOutsideIt() throws Exception {
        Path top = tmp.toRealPath();
        Files.writeString(top.resolve("agent.lock"), "version: 1\n");
        Path repo = Files.createDirectories(top.resolve("work/repo"));
        GitRepo git = GitRepo.init(repo).write("agent.lock", "version: 1\n").write("app/pom.xml", "<project/>\n");
        git.commitAll("base");
        Files.writeString(repo.resolve("app/agent.lock"), "version: 1\n");
        Path app = repo.resolve("app");

        assertEquals(Path.of(git.git("-C", "app", "rev-parse", "--show-toplevel").trim()), PolicyDiscovery.repositoryRoot(app));
        PolicyDiscovery.InRepository split = PolicyDiscovery.inRepository(app);
        assertEquals(repo, split.repositoryRoot());
        assertEquals(List.of(repo.resolve("agent.lock"), app.resolve("agent.lock")), split.inside());
        assertEquals(List.of(top.resolve("agent.lock")), split.outside());
        assertEquals(PolicyDiscovery.inForce(app).size(), split.inside().size() + split.outside().size(),
                "every file in force is on one side");

        // a linked work tree has a .git file, not a directory
        Path linked = top.resolve("work/linked");
        git.git("worktree", "add", "-q", linked.toString());
        assertEquals(Path.of(git.git("-C", linked.toString(), "rev-parse", "--show-toplevel").trim()),
                PolicyDiscovery.repositoryRoot(linked.resolve("app")));
        assertEquals(List.of(linked.resolve("agent.lock")), PolicyDiscovery.inRepository(linked.resolve("app")).inside());
        assertEquals(List.of(top.resolve("agent.lock")), PolicyDiscovery.inRepository(linked.resolve("app")).outside());
    }

    /** Reached through a link from outside, the repository is still the real directory's. */
    @Test
    void theRepositoryOfADirectoryReachedThroughALinkIsItsRealOne() throws Exception {
        Path top = tmp.toRealPath();
        Path repo = Files.createDirectories(top.resolve("repo"));
        GitRepo.init(repo).write("agent.lock", "version: 1\n");
        Path elsewhere = Files.createDirectories(top.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("agent.lock"), "version: 1\n");
        Path door = Files.createSymbolicLink(elsewhere.resolve("door"), repo);
        PolicyDiscovery.InRepository split = PolicyDiscovery.inRepository(door);
        assertEquals(repo, split.repositoryRoot());
        assertEquals(List.of(repo.resolve("agent.lock")), split.inside());
        assertEquals(List.of(elsewhere.resolve("agent.lock")), split.outside());
    }

    /** Not in a repository: nothing is outside (every file in force up to the file system root is judged). */
    @Test
    void withoutARepositoryEveryFileIsInside() throws Exception {
        Path top = tmp.toRealPath();
        for (Path p = top; p != null; p = p.getParent()) {
            assertFalse(Files.exists(p.resolve(".git")), p + " holds .git: this machine cannot show 'no repository'");
        }
        Files.writeString(top.resolve("agent.lock"), "version: 1\n");
        Path sub = Files.createDirectories(top.resolve("a/b"));
        PolicyDiscovery.InRepository split = PolicyDiscovery.inRepository(sub);
        assertEquals(null, split.repositoryRoot());
        assertEquals(PolicyDiscovery.inForce(sub), split.inside());
        assertEquals(List.of(), split.outside());
    }
}
