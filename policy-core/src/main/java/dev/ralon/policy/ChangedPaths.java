package dev.ralon.policy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Protected paths that git says changed: between a base revision and the work tree (tracked changes plus untracked,
 * not ignored files), or between HEAD and the index (what the next commit records). Rename detection is on, and both
 * sides of a rename are judged. Each path is judged by the work tree's policy <em>and</em> the policy as it was at the
 * base, so a change cannot un-protect what it then changes. Used by {@code ralon check --changed/--staged} and by the
 * Maven plugin's {@code changed} goal.
 */
public final class ChangedPaths {
    /**
     * One protected change.
     *
     * @param status git's letter: A, M, D, R, C, T
     * @param path   the path (the destination of a rename), relative to the repository's top level
     * @param from   the source of a rename or copy, else null
     * @param rules  the rules that protect either side, each pattern once
     */
    public record Finding(String status, String path, String from, List<Rule> rules) {
    }

    /** What was compared, and what was found. */
    public record Result(Path top, String base, boolean staged, List<Finding> findings) {
    }

    /** git could not answer (not a repository, unknown revision, git missing). The message is one line. */
    public static final class GitException extends Exception {
        private static final long serialVersionUID = 1L;

        public GitException(String message) {
            super(message);
        }
    }

    private ChangedPaths() {
    }

    /**
     * Protected paths changed in the repository holding {@code dir}.
     *
     * <p>Each path is judged by every policy of {@code policies} as it is on disk, and by every agent.lock as it was at
     * the base revision: for a discovered set, the agent.lock of each directory from {@code dir} up to the
     * repository's top level (so a change that deletes or weakens any policy in force still has its changes judged
     * by the policy it replaced); for an explicit set, the base version of the named file.
     *
     * @param policies the policies in force for {@code dir} in the work tree
     * @param base     the revision to compare the work tree with; ignored when {@code staged}
     * @param staged   compare the index with HEAD instead
     * @throws PolicyException when a policy at the base revision exists but is not valid
     */
    public static Result find(PolicySet policies, Path dir, String base, boolean staged) throws GitException, PolicyException {
        Path top = Path.of(new String(git(dir, "rev-parse", "--show-toplevel"), StandardCharsets.UTF_8).trim());
        try {
            top = top.toRealPath();
        } catch (IOException e) {
            // keep git's answer
        }
        String rev = staged ? "HEAD" : base;
        List<String[]> changes;
        if (staged) {
            changes = parse(git(top, "diff", "--cached", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv", "--"));
        } else {
            git(top, "rev-parse", "--verify", "--quiet", base + "^{commit}");
            changes = parse(git(top, "diff", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv", base, "--"));
            for (String p : split(git(top, "ls-files", "-z", "--others", "--exclude-standard"))) {
                changes.add(new String[] {"A", p, null});
            }
        }
        List<Policy> judges = new ArrayList<>(policies.policies());
        for (Path file : policyFilesAtBase(policies, dir, top)) {
            String rel = top.relativize(file).toString();
            Optional<byte[]> old = show(top, rev, rel);
            if (old.isPresent()) {
                judges.add(PolicyLoader.parse(old.get(), Path.of(rev + ":" + rel), file, file.getParent()));
            }
        }
        List<Finding> findings = new ArrayList<>();
        for (String[] c : changes) {
            List<String> sides = c[2] == null ? List.of(c[1]) : List.of(c[2], c[1]);
            Map<String, Rule> byPattern = new LinkedHashMap<>();
            for (String side : sides) {
                Path changed;
                try {
                    changed = top.resolve(side);
                } catch (java.nio.file.InvalidPathException e) {
                    String why = FileNames.notUtf8Reason();
                    throw new GitException("cannot judge " + side + ": " + (why != null ? why : e.getMessage()));
                }
                for (Policy p : judges) {
                    for (Rule r : p.check(changed)) {
                        byPattern.putIfAbsent(r.file() + "\0" + r.pattern() + "\0" + r.line(), r);
                    }
                }
            }
            if (!byPattern.isEmpty()) {
                findings.add(new Finding(c[0], c[1], c[2], List.copyOf(byPattern.values())));
            }
        }
        return new Result(top, rev, staged, findings);
    }

    /** The work-tree paths whose version at the base revision also judges the changes (see {@link #find}). */
    private static List<Path> policyFilesAtBase(PolicySet policies, Path dir, Path top) {
        java.util.Set<Path> files = new java.util.LinkedHashSet<>();
        for (Policy p : policies.policies()) {
            if (p.file().startsWith(top)) {
                files.add(p.file());
            }
        }
        if (!policies.isExplicit()) {
            Path d = dir.toAbsolutePath().normalize();
            try {
                d = d.toRealPath();
            } catch (IOException e) {
                // keep the lexical path
            }
            for (; d != null && d.startsWith(top); d = d.getParent()) {
                files.add(d.resolve(PolicyDiscovery.FILE_NAME));
            }
        }
        return List.copyOf(files);
    }

    private static Optional<byte[]> show(Path top, String rev, String relPath) {
        try {
            return Optional.of(git(top, "show", rev + ":" + relPath));
        } catch (GitException e) {
            return Optional.empty(); // no policy at that revision (or no such revision yet: first commit)
        }
    }

    /** {status, path, from} triples from {@code git diff --name-status -z}. */
    static List<String[]> parse(byte[] z) {
        List<String> f = split(z);
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < f.size(); ) {
            String status = f.get(i++);
            if (status.startsWith("R") || status.startsWith("C")) {
                String from = f.get(i++);
                String to = f.get(i++);
                out.add(new String[] {status.substring(0, 1), to, from});
            } else {
                out.add(new String[] {status.substring(0, 1), f.get(i++), null});
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

    private static byte[] git(Path dir, String... args) throws GitException {
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "core.quotepath=off"));
        cmd.addAll(List.of(args));
        Path errFile = null;
        try {
            errFile = Files.createTempFile("ralon-git", ".err");
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(errFile.toFile()).start();
            p.getOutputStream().close();
            byte[] out = readAll(p.getInputStream());
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new GitException("git " + args[0] + " did not finish within 120 s");
            }
            if (p.exitValue() != 0) {
                String first = Files.readString(errFile).lines().findFirst().orElse("exit status " + p.exitValue());
                throw new GitException("git " + String.join(" ", args) + ": " + first);
            }
            return out;
        } catch (IOException e) {
            throw new GitException("cannot run git: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GitException("interrupted while waiting for git");
        } finally {
            if (errFile != null) {
                try {
                    Files.deleteIfExists(errFile);
                } catch (IOException ignored) {
                    // a temporary file left behind is harmless
                }
            }
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        in.transferTo(buf);
        return buf.toByteArray();
    }
}
