package dev.ralon.policy.git;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link GitLayout}: the layouts real git makes (a main repository, a linked worktree from {@code git worktree add}, a
 * submodule) are found and accepted; a {@code commondir} planted in a main repository's git directory is refused.
 */
class GitLayoutTest {
    @TempDir
    Path tmp;

    @Test
    void whatGitMakesIsAccepted() throws Exception {
        Path base = tmp.toRealPath();
        GitRepo main = GitRepo.init(Files.createDirectories(base.resolve("main"))).write("a", "a\n").commitAll("a");
        main.git("worktree", "add", "-q", "../wt", "-b", "wt");
        Path sub = Files.createDirectories(main.dir.resolve("sub"));
        GitLayout l = GitLayout.find(sub);
        assertEquals(main.dir, l.top());
        assertEquals(main.dir.resolve(".git"), l.common());
        assertNull(l.redirectRefusal());
        GitLayout wt = GitLayout.find(base.resolve("wt"));
        assertTrue(wt.dotGitIsFile());
        assertEquals(main.dir.resolve(".git/worktrees/wt"), wt.gitDir());
        assertEquals(main.dir.resolve(".git"), wt.common());
        assertNull(wt.redirectRefusal());
        assertNull(GitLayout.find(Files.createDirectories(base.resolve("none"))), "no repository above");
    }

    @Test
    void aCommondirPlantedInAMainRepositoryIsRefused() throws Exception {
        Path base = tmp.toRealPath();
        GitRepo main = GitRepo.init(Files.createDirectories(base.resolve("main"))).write("a", "a\n").commitAll("a");
        main.git("worktree", "add", "-q", "../wt", "-b", "wt");
        Path evil = Files.createDirectories(base.resolve("evil"));
        Files.writeString(main.dir.resolve(".git/commondir"), evil + "\n");
        assertEquals(main.dir.resolve(".git/commondir") + " redirects git's configuration and hooks to " + evil
                + "; git never writes it in a main repository: remove it", GitLayout.redirectRefusal(main.dir));
        // seen from the linked worktree too: git reads it whenever it runs in the main checkout
        assertEquals(main.dir.resolve(".git/commondir") + " redirects git's configuration and hooks to " + evil
                + "; git never writes it in a main repository: remove it", GitLayout.redirectRefusal(base.resolve("wt")));
        // a linked worktree's commondir pointing anywhere but its common directory
        Files.delete(main.dir.resolve(".git/commondir"));
        Files.writeString(main.dir.resolve(".git/worktrees/wt/commondir"), evil + "\n");
        assertTrue(GitLayout.redirectRefusal(base.resolve("wt")).startsWith(main.dir.resolve(".git/worktrees/wt/commondir")
                + " redirects"));
    }
}
