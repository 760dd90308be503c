package dev.ralon.policy.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Where git finds a repository's files from a directory, read as git does without running it
 * (gitrepository-layout(5)): the nearest {@code .git} upwards, a directory (a main repository) or a file
 * {@code gitdir: PATH} (a linked worktree, a submodule, {@code --separate-git-dir}); and, in a git directory, a
 * {@code commondir} file naming the directory whose {@code config} and {@code hooks/} git uses instead.
 *
 * <p>One place for what every command that looks at the repository needs: the baseline (host) protects what this names,
 * and {@code run}, {@code status} and {@code check --changed/--staged} refuse a {@link #redirectRefusal() planted
 * commondir} (docs/security.md, "The repository's doors").
 *
 * @param top    the work tree's top: the directory holding {@code .git}
 * @param dotGit {@code top/.git}
 * @param gitDir the git directory: {@code dotGit} itself, or where its {@code gitdir:} line points (normalized)
 * @param common the common directory (config, hooks, info): {@code gitDir}, or where {@code gitDir/commondir} points
 */
public record GitLayout(Path top, Path dotGit, Path gitDir, Path common) {
    /** Whether {@code .git} is a file ({@code gitdir: PATH}) rather than the git directory itself. */
    public boolean dotGitIsFile() {
        return !dotGit.equals(gitDir);
    }

    /**
     * The repository {@code dir} (absolute) belongs to, found from {@code dir} upwards as git does (no
     * {@code GIT_DIR}, no ceiling), or null when there is none. A {@code .git} file whose first line is not
     * {@code gitdir: PATH} gives a layout whose git directory is the file itself (git refuses such a repository).
     */
    public static GitLayout find(Path dir) {
        for (Path d = dir; d != null; d = d.getParent()) {
            Path g = d.resolve(".git");
            if (!Files.exists(g, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            Path gitDir = g;
            if (Files.isRegularFile(g, LinkOption.NOFOLLOW_LINKS)) {
                String text = firstLine(g);
                if (text != null && text.startsWith("gitdir:")) {
                    gitDir = d.resolve(text.substring(7).trim()).normalize();
                }
            }
            Path common = gitDir;
            String commondir = Files.isRegularFile(gitDir, LinkOption.NOFOLLOW_LINKS) ? null // a .git file without gitdir:
                    : firstLine(gitDir.resolve("commondir"));
            if (commondir != null && !commondir.isBlank()) {
                common = gitDir.resolve(commondir.trim()).normalize();
            }
            return new GitLayout(d, g, gitDir, common);
        }
        return null;
    }

    /**
     * Null when git's {@code commondir} files here are the ones git itself writes; otherwise the one line that
     * {@code ralon} refuses with (the caller prefixes {@code ralon: } and exits 2).
     *
     * <p>git writes {@code commondir} only in a linked worktree's git directory, {@code COMMON/worktrees/NAME/commondir}
     * (git-worktree(1), gitrepository-layout(5)), pointing back at {@code COMMON}. In a main repository's git directory
     * it has no business: git would still read it there and take config and hooks (so {@code core.fsmonitor}, run by
     * the next {@code git status}) from wherever it points. A missing name cannot be protected without breaking git
     * (docs/security.md, "The repository's doors"), so a planted one is refused here instead, before anything starts.
     */
    public String redirectRefusal() {
        Path own = gitDir.resolve("commondir");
        if (exists(own)) {
            boolean linked = dotGitIsFile() && gitDir.getParent() != null && gitDir.getParent().getFileName() != null
                    && gitDir.getParent().getFileName().toString().equals("worktrees")
                    && common.equals(gitDir.getParent().getParent());
            if (!linked) {
                return refusal(own, common);
            }
        }
        if (!common.equals(gitDir)) {
            // the main repository's own git directory, shared by this linked worktree: git reads its commondir when
            // run in the main checkout
            Path main = common.resolve("commondir");
            if (exists(main)) {
                String to = firstLine(main);
                return refusal(main, to == null ? common : common.resolve(to.trim()).normalize());
            }
        }
        return null;
    }

    /** {@link #find}, then {@link #redirectRefusal}: null when there is no repository or nothing to refuse. */
    public static String redirectRefusal(Path dir) {
        GitLayout l = find(dir);
        return l == null ? null : l.redirectRefusal();
    }

    /**
     * The check every command that looks at the repository makes first ({@code run} at start, {@code status},
     * {@code check --changed/--staged}): {@link #redirectRefusal(Path)} from the working directory {@code cwd}, then
     * from the nearest policy's root {@code policyRoot} (null: none) when that is another directory. Null when
     * nothing is planted; otherwise the refusal's text (without {@code ralon: }).
     */
    public static String redirectRefusal(Path cwd, Path policyRoot) {
        String r = redirectRefusal(cwd);
        return r != null || policyRoot == null || cwd.equals(policyRoot) ? r : redirectRefusal(policyRoot);
    }

    private static String refusal(Path file, Path to) {
        return file + " redirects git's configuration and hooks to " + to + "; git never writes it in a main"
                + " repository: remove it";
    }

    private static boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }

    /** The first line of a small regular file (not through a link), or null. */
    static String firstLine(Path f) {
        try {
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) || Files.size(f) > 4096) {
                return null;
            }
            return Files.readString(f, StandardCharsets.UTF_8).lines().findFirst().orElse("");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
