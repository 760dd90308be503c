package dev.ralon.policy.git;

import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.PolicySet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ralon never runs code from the repository it checks: each helper git can be made to execute is planted the way an
 * agent would plant it (with git itself, in the repository), plain git is shown to run it (so the plant is real), and
 * then {@link ChangedPaths} is shown to answer correctly without running it.
 */
class HardenedGitTest {
    @TempDir
    Path tmp;

    GitRepo repo;
    Path marker;
    PolicySet policy;

    @BeforeEach
    void setUp() throws Exception {
        Path dir = Files.createDirectories(tmp.toRealPath().resolve("repo"));
        marker = tmp.toRealPath().resolve("PWNED");
        repo = GitRepo.init(dir)
                .write("agent.lock", "version: 1\nprotect:\n  - secret.txt\n")
                .write("secret.txt", "secret\n")
                .write("notes.txt", "notes\n")
                .commitAll("base");
        policy = PolicySet.explicit(PolicyLoader.load(dir.resolve("agent.lock")));
        agentTouchesFiles();
    }

    /** A shell command that leaves the marker; {@code tail} is what it does next (a filter must copy stdin). */
    String plant(String tail) {
        return "sh -c 'echo ran >> " + marker + "; " + tail + "'";
    }

    /**
     * The agent's edits, before it plants (staging after planting would run the plant): an unprotected tracked change
     * (stat-dirty, so git compares content) and a staged protected one.
     */
    void agentTouchesFiles() throws Exception {
        Thread.sleep(1100); // a later mtime second, so the index entry is stat-dirty whatever the file system
        repo.write("notes.txt", "notes changed by the agent\n");
        repo.write("secret.txt", "secret changed\n");
        repo.git("add", "secret.txt");
    }

    void assertPlainGitRunsItThenRalonDoesNot(String... plainGitArgs) throws Exception {
        if (plainGitArgs.length > 0) {
            try {
                repo.git(plainGitArgs);
            } catch (IOException e) {
                // a planted process filter that exits breaks git; what matters is whether it ran
            }
            assertTrue(Files.exists(marker), "the plant is not real: plain git did not run it");
            Files.delete(marker);
        }
        ChangedPaths.Result worktree = ChangedPaths.find(policy, repo.dir, "HEAD", false, false, "--changed ");
        ChangedPaths.Result staged = ChangedPaths.find(policy, repo.dir, null, true, false, "--changed ");
        ChangedPaths.Result branch = ChangedPaths.find(policy, repo.dir, "HEAD...HEAD", false, false, "--changed ");
        assertFalse(Files.exists(marker), "Ralon's git ran a planted command");
        assertEquals(List.of("secret.txt"), worktree.findings().stream().map(ChangedPaths.Finding::path).toList());
        assertEquals(List.of("secret.txt"), staged.findings().stream().map(ChangedPaths.Finding::path).toList());
        assertTrue(branch.findings().isEmpty());
    }

    @Test
    void fsmonitor() throws Exception {
        repo.git("config", "core.fsmonitor", plant("exit 1"));
        assertPlainGitRunsItThenRalonDoesNot("diff", "--name-status", "HEAD");
    }

    @Test
    void cleanFilterSelectedByGitattributes() throws Exception {
        repo.write(".gitattributes", "* filter=x\n");
        repo.git("config", "filter.x.clean", plant("cat"));
        repo.git("config", "filter.x.smudge", plant("cat"));
        assertPlainGitRunsItThenRalonDoesNot("diff", "--name-status", "HEAD");
    }

    @Test
    void requiredProcessFilterSelectedByInfoAttributes() throws Exception {
        repo.write(".git/info/attributes", "*.txt filter=long-running\n");
        repo.git("config", "filter.long-running.process", plant("exit 0"));
        repo.git("config", "filter.long-running.required", "true");
        assertPlainGitRunsItThenRalonDoesNot("diff", "--name-status", "HEAD");
    }

    @Test
    void externalDiffTextconvAndDiffDriverCommand() throws Exception {
        repo.write(".gitattributes", "* diff=d\n");
        repo.git("config", "diff.external", plant("true"));
        repo.git("config", "diff.d.textconv", plant("cat \"$0\""));
        repo.git("config", "diff.d.command", plant("true"));
        assertPlainGitRunsItThenRalonDoesNot("diff", "HEAD");
        repo.git("config", "--unset", "diff.external");
        repo.git("config", "--unset", "diff.d.command");
        assertPlainGitRunsItThenRalonDoesNot("diff", "HEAD"); // now textconv alone
    }

    @Test
    void pagerAndHooksPath() throws Exception {
        repo.git("config", "core.pager", plant("cat"));
        repo.git("config", "pager.diff", plant("cat"));
        Path hooks = Files.createDirectories(tmp.resolve("hooks"));
        for (String hook : List.of("pre-commit", "post-checkout", "post-index-change", "reference-transaction",
                "fsmonitor-watchman")) {
            Path h = hooks.resolve(hook);
            Files.writeString(h, "#!/bin/sh\necho ran >> " + marker + "\n");
            Files.setPosixFilePermissions(h, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        repo.git("config", "core.hooksPath", hooks.toString());
        repo.git("config", "core.fsmonitor", hooks.resolve("fsmonitor-watchman").toString());
        // without a terminal git starts no pager, so there is no plain-git control for the pager
        assertPlainGitRunsItThenRalonDoesNot("diff", "--name-status", "HEAD");
    }

    @Test
    void includedConfigFileAndConditionalInclude() throws Exception {
        Path evil = tmp.resolve("evil.cfg");
        // double quotes: ';' starts a comment in a git config file
        Files.writeString(evil, "[core]\n\tfsmonitor = \"" + plant("exit 1") + "\"\n[filter \"y\"]\n\tclean = \""
                + plant("cat") + "\"\n");
        Path evil2 = tmp.resolve("evil2.cfg");
        Files.writeString(evil2, "[filter \"Weird.Name\"]\n\tclean = \"" + plant("cat") + "\"\n");
        repo.write(".gitattributes", "*.txt filter=y\nnotes.txt filter=Weird.Name\n");
        repo.git("config", "include.path", evil.toString());
        repo.git("config", "includeIf.gitdir:" + repo.dir + "/.git.path", evil2.toString());
        assertPlainGitRunsItThenRalonDoesNot("diff", "--name-status", "HEAD");
    }

    @Test
    void theCallersGitEnvironmentIsDroppedButAHooksIndexFileIsKeptAbsolute() {
        Map<String, String> env = new HashMap<>(Map.of("GIT_DIR", "/elsewhere/.git", "GIT_WORK_TREE", "/elsewhere",
                "GIT_CONFIG_COUNT", "1", "GIT_CONFIG_KEY_0", "core.fsmonitor", "GIT_CONFIG_VALUE_0", "x",
                "GIT_EXTERNAL_DIFF", "x", "GIT_EXEC_PATH", "/tmp/x", "GIT_INDEX_FILE", ".git/next-index-1.lock",
                "PATH", "/usr/bin", "HOME", "/home/u"));
        HardenedGit.environment(env, Path.of("/work/p"));
        assertEquals(Map.of("GIT_INDEX_FILE", "/work/p/.git/next-index-1.lock", "PATH", "/usr/bin", "HOME", "/home/u",
                "GIT_PAGER", "cat", "PAGER", "cat", "GIT_TERMINAL_PROMPT", "0", "GIT_OPTIONAL_LOCKS", "0"), env);
    }

    @Test
    void gitIsNeverLookedUpInPath() throws Exception {
        Path planted = tmp.resolve("bin/git");
        Files.createDirectories(planted.getParent());
        Files.writeString(planted, "#!/bin/sh\necho ran >> " + marker + "\n");
        Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals(HardenedGit.SYSTEM_LOCATIONS.stream().filter(c -> Files.isExecutable(Path.of(c))).findFirst()
                .orElseThrow(), HardenedGit.locate(null, HardenedGit.SYSTEM_LOCATIONS));
        assertEquals(planted.toString(), HardenedGit.locate(planted.toString(), HardenedGit.SYSTEM_LOCATIONS),
                "RALON_GIT is the explicit choice");
        GitException relative = assertThrows(GitException.class,
                () -> HardenedGit.locate("bin/git", HardenedGit.SYSTEM_LOCATIONS));
        assertTrue(relative.getMessage().contains("not an absolute path"), relative.getMessage());
        GitException none = assertThrows(GitException.class,
                () -> HardenedGit.locate(null, List.of(tmp.resolve("nothing/git").toString())));
        assertTrue(none.getMessage().contains("set RALON_GIT"), none.getMessage());
    }
}
