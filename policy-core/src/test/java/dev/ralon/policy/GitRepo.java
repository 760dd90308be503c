package dev.ralon.policy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A real git repository for tests, driven by the real git (plainly: what a user or an agent would type). */
final class GitRepo {
    final Path dir;

    GitRepo(Path dir) {
        this.dir = dir;
    }

    static GitRepo init(Path dir) throws IOException, InterruptedException {
        GitRepo r = new GitRepo(dir);
        r.git("init", "-q", "-b", "main");
        r.git("config", "user.email", "t@example.org");
        r.git("config", "user.name", "t");
        r.git("config", "commit.gpgsign", "false");
        return r;
    }

    GitRepo write(String rel, String text) throws IOException {
        Path p = dir.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return this;
    }

    GitRepo commitAll(String message) throws IOException, InterruptedException {
        git("add", "-A");
        git("commit", "-qm", message);
        return this;
    }

    /** Runs git in the repository; fails on a non-zero exit. Returns stdout. */
    String git(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("git", ".out");
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("git did not finish: " + cmd);
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException(cmd + " failed: " + text);
            }
            return text;
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
