package dev.ralon.policy.git;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A real git repository for tests, driven by the real git (plainly: what a user or an agent would type). */
public final class GitRepo {
    final Path dir;

    public GitRepo(Path dir) {
        this.dir = dir;
    }

    public static GitRepo init(Path dir) throws IOException, InterruptedException {
        GitRepo r = new GitRepo(dir);
        r.git("init", "-q", "-b", "main");
        r.git("config", "user.email", "t@example.org");
        r.git("config", "user.name", "t");
        r.git("config", "commit.gpgsign", "false");
        return r;
    }

    public GitRepo write(String rel, String text) throws IOException {
        Path p = dir.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return this;
    }

    public GitRepo commitAll(String message) throws IOException, InterruptedException {
        git("add", "-A");
        git("commit", "-qm", message);
        return this;
    }

    /** Runs git in the repository; fails on a non-zero exit. Returns stdout. */
    public String git(String... args) throws IOException, InterruptedException {
        return gitWith(java.util.Map.of(), args);
    }

    /** {@link #git} with variables added to the environment ({@code GIT_INDEX_FILE}). */
    public String gitWith(java.util.Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.addAll(List.of(args));
        ProcessResult r = TestProcess.of(cmd).in(dir).env(env).run();
        if (r.code() != 0) {
            throw new IOException(cmd + " failed: " + r.out() + r.err());
        }
        return r.out();
    }
}
