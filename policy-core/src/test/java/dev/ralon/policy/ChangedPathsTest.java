package dev.ralon.policy;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a branch changed, judged in real repositories: merge base, {@code A...B}, CI and shallow clones. */
class ChangedPathsTest {
    @TempDir
    Path tmp;

    GitRepo upstream;
    PolicySet policy;

    @BeforeEach
    void setUp() throws Exception {
        Path dir = Files.createDirectories(tmp.toRealPath().resolve("upstream"));
        upstream = GitRepo.init(dir)
                .write("agent.lock", "version: 1\nprotect:\n  - .mvn/\n  - build.properties\n")
                .write(".mvn/jvm.config", "-Xmx1g\n")
                .write("build.properties", "v=1\n")
                .write("docs/readme.md", "docs\n")
                .commitAll("base");
        upstream.git("checkout", "-qb", "docs-branch");
        upstream.write("docs/readme.md", "better docs\n").commitAll("docs only");
        upstream.git("checkout", "-q", "main");
        upstream.write(".mvn/jvm.config", "-Xmx2g\n").commitAll("main moves on: a protected change");
        upstream.git("checkout", "-q", "docs-branch");
        policy = PolicySet.explicit(PolicyLoader.load(dir.resolve("agent.lock")));
    }

    List<String> paths(ChangedPaths.Result r) {
        return r.findings().stream().map(ChangedPaths.Finding::path).toList();
    }

    @Test
    void aDocsOnlyBranchIsNotBlamedForWhatMainDidSinceItLeft() throws Exception {
        assertEquals(List.of(), paths(ChangedPaths.find(policy, upstream.dir, "main", false, true, "--changed ")));
        assertEquals(List.of(), paths(ChangedPaths.find(policy, upstream.dir, "main...HEAD", false, true, "--changed ")));
        assertEquals(List.of(), paths(ChangedPaths.find(policy, upstream.dir, "main...", false, true, "--changed ")));
        ChangedPaths.Result r = ChangedPaths.find(policy, upstream.dir, "main...docs-branch", false, true, "--changed ");
        assertTrue(r.against().startsWith("docs-branch against main (merge base "), r.against());
        // the other way round, main changed a protected path since it left the branch
        assertEquals(List.of(".mvn/jvm.config"),
                paths(ChangedPaths.find(policy, upstream.dir, "docs-branch...main", false, true, "--changed ")));
    }

    @Test
    void aProtectedChangeOnTheBranchFailsInTheWorkTreeAndInCommits() throws Exception {
        upstream.write("build.properties", "v=2\n");
        assertEquals(List.of("build.properties"),
                paths(ChangedPaths.find(policy, upstream.dir, "main", false, true, "--changed ")));
        upstream.commitAll("protected change");
        assertEquals(List.of("build.properties"),
                paths(ChangedPaths.find(policy, upstream.dir, "main...HEAD", false, true, "--changed ")));
    }

    @Test
    void twoDotsAreRefusedWithTheThreeDotForm() {
        GitException e = assertThrows(GitException.class,
                () -> ChangedPaths.find(policy, upstream.dir, "main..HEAD", false, false, "--changed "));
        assertTrue(e.getMessage().contains("write main...HEAD"), e.getMessage());
    }

    @Test
    void noBaseUnderCiIsRefusedAndSaysWhatToPass() throws Exception {
        GitException e = assertThrows(GitException.class,
                () -> ChangedPaths.find(policy, upstream.dir, null, false, true, "-Dagentlock.base="));
        assertTrue(e.getMessage().startsWith("no base revision given and CI=true"), e.getMessage());
        assertTrue(e.getMessage().contains("-Dagentlock.base=origin/main"), e.getMessage());
        assertEquals("the work tree against HEAD",
                ChangedPaths.find(policy, upstream.dir, null, false, false, "--changed ").against());
        assertTrue(ChangedPaths.underCi(java.util.Map.of("CI", "true")));
        assertTrue(!ChangedPaths.underCi(java.util.Map.of("CI", "false")) && !ChangedPaths.underCi(java.util.Map.of()));
    }

    @Test
    void anUnknownRevisionSaysWhatToDoNotWhatGitExited() {
        GitException e = assertThrows(GitException.class,
                () -> ChangedPaths.find(policy, upstream.dir, "nosuchref", false, false, "--changed "));
        assertEquals("unknown revision \"nosuchref\": fetch it first (git fetch origin BRANCH) or name a branch, tag "
                + "or commit that exists in this repository", e.getMessage());
        GitException option = assertThrows(GitException.class,
                () -> ChangedPaths.find(policy, upstream.dir, "--output=/tmp/x", false, false, "--changed "));
        assertTrue(option.getMessage().contains("is not a revision"), option.getMessage());
    }

    /** The checkout CI makes: shallow, detached, only the commit under test fetched. */
    @Test
    void shallowDetachedCheckoutSaysWhatToFetch() throws Exception {
        Path ci = Files.createDirectories(tmp.toRealPath().resolve("ci"));
        GitRepo clone = GitRepo.init(ci);
        clone.git("remote", "add", "origin", upstream.dir.toUri().toString());
        clone.git("fetch", "-q", "--no-tags", "--depth=1", "origin", "+refs/heads/docs-branch:refs/remotes/pull/1/head");
        clone.git("checkout", "-q", "--detach", "refs/remotes/pull/1/head");
        PolicySet p = PolicySet.explicit(PolicyLoader.load(ci.resolve("agent.lock")));
        GitException unknown = assertThrows(GitException.class,
                () -> ChangedPaths.find(p, ci, "origin/main", false, true, "--changed "));
        assertTrue(unknown.getMessage().startsWith("unknown revision \"origin/main\" in this shallow clone: fetch it"),
                unknown.getMessage());
        clone.git("fetch", "-q", "--no-tags", "--depth=1", "origin", "+refs/heads/main:refs/remotes/origin/main");
        GitException noBase = assertThrows(GitException.class,
                () -> ChangedPaths.find(p, ci, "origin/main", false, true, "--changed "));
        assertTrue(noBase.getMessage().startsWith("no merge base of origin/main and HEAD in this shallow clone"),
                noBase.getMessage());
        clone.git("fetch", "-q", "--unshallow", "origin");
        assertEquals(List.of(), paths(ChangedPaths.find(p, ci, "origin/main", false, true, "--changed ")));
    }

    @Test
    void aWorkTreeRedirectedElsewhereIsRefused() throws Exception {
        Path elsewhere = Files.createDirectories(tmp.toRealPath().resolve("elsewhere"));
        upstream.git("config", "core.worktree", elsewhere.toString());
        GitException e = assertThrows(GitException.class,
                () -> ChangedPaths.find(policy, upstream.dir, "main", false, false, "--changed "));
        assertTrue(e.getMessage().contains("does not contain"), e.getMessage());
    }
}
