package dev.ralon.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What git says changed: between a base revision and the work tree (tracked changes plus untracked, not ignored
 * files), or between HEAD and the index (what a commit would record). Rename detection is on, so a rename reports
 * both its source and its destination.
 */
final class GitChanges {
    /** One changed path; {@code from} is the source of a rename or copy, else null. Paths relative to the top level. */
    record Change(String status, String path, String from) {
    }

    private final Path top;

    private GitChanges(Path top) {
        this.top = top;
    }

    /** The repository containing {@code dir}; exit 2 when there is none or git is missing. */
    static GitChanges at(Path dir) {
        String out = new String(git(dir, "rev-parse", "--show-toplevel"), StandardCharsets.UTF_8).trim();
        return new GitChanges(Path.of(out));
    }

    Path top() {
        return top;
    }

    /** Changes between {@code base} and the work tree, untracked files included. */
    List<Change> sinceBase(String base) {
        git(top, "rev-parse", "--verify", "--quiet", base + "^{commit}");
        List<Change> out = parse(git(top, "diff", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv", base, "--"));
        for (String p : split(git(top, "ls-files", "-z", "--others", "--exclude-standard"))) {
            out.add(new Change("A", p, null));
        }
        return out;
    }

    /** Changes a commit would record: the index against HEAD (against nothing before the first commit). */
    List<Change> staged() {
        return parse(git(top, "diff", "--cached", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv", "--"));
    }

    /** The bytes of {@code relPath} at {@code rev}, if it exists there. */
    Optional<byte[]> show(String rev, String relPath) {
        try {
            return Optional.of(git(top, "show", rev + ":" + relPath));
        } catch (CliException e) {
            return Optional.empty();
        }
    }

    static List<Change> parse(byte[] z) {
        List<String> f = split(z);
        List<Change> out = new ArrayList<>();
        for (int i = 0; i < f.size(); ) {
            String status = f.get(i++);
            if (status.startsWith("R") || status.startsWith("C")) {
                String from = f.get(i++);
                String to = f.get(i++);
                out.add(new Change(status.substring(0, 1), to, from));
            } else {
                out.add(new Change(status.substring(0, 1), f.get(i++), null));
            }
        }
        return out;
    }

    private static List<String> split(byte[] z) {
        List<String> out = new ArrayList<>();
        for (String s : new String(z, StandardCharsets.UTF_8).split("\0")) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }

    static byte[] git(Path dir, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.add("-c");
        cmd.add("core.quotepath=off");
        cmd.addAll(List.of(args));
        Process p;
        Path errFile;
        try {
            errFile = java.nio.file.Files.createTempFile("ralon-git", ".err");
            p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(errFile.toFile()).start();
        } catch (IOException e) {
            throw CliException.error("cannot run git: " + e.getMessage());
        }
        try {
            p.getOutputStream().close();
            byte[] out = readAll(p.getInputStream());
            String err = java.nio.file.Files.readString(errFile);
            java.nio.file.Files.deleteIfExists(errFile);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw CliException.error("git " + args[0] + " did not finish");
            }
            if (p.exitValue() != 0) {
                String first = err.lines().findFirst().orElse("exit " + p.exitValue());
                throw CliException.error("git " + String.join(" ", args).replace("\0", "") + ": " + first);
            }
            return out;
        } catch (IOException e) {
            throw CliException.error("git failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.error("interrupted");
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        in.transferTo(buf);
        return buf.toByteArray();
    }
}
