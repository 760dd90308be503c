package dev.ralon.policy.git;

import dev.ralon.policy.walk.IgnoredDirectories;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The directories git ignores in a work tree, as {@link IgnoredDirectories} for the "would match deeper" advice: one
 * {@code git ls-files --others --ignored --exclude-standard --directory} (through {@link HardenedGit}), which lists
 * each wholly ignored directory once with a trailing '/' without entering it. Only the advice uses it: git's answer is
 * written by whoever can write {@code .gitignore}, which is fine for a count in a warning and never for protection.
 */
public final class GitIgnoredDirectories implements IgnoredDirectories {
    private final Set<String> directories;

    private GitIgnoredDirectories(Set<String> directories) {
        this.directories = directories;
    }

    /**
     * The directories git ignores beneath {@code root} (a policy's root), relative to it; {@link IgnoredDirectories#NONE}
     * when {@code root} is in no work tree or git cannot be run (the advice then counts everywhere, as without a hook).
     */
    public static IgnoredDirectories of(Path root) {
        HardenedGit.Output out;
        try {
            out = HardenedGit.in(root).attempt("ls-files", "-z", "--others", "--ignored", "--exclude-standard",
                    "--directory");
        } catch (GitException e) {
            return NONE;
        }
        if (out.exit() != 0) {
            return NONE;
        }
        Set<String> dirs = new HashSet<>();
        // paths are relative to the directory git runs in (ls-files' default), the root here
        for (String p : new String(out.out(), StandardCharsets.UTF_8).split("\0")) {
            if (p.endsWith("/") && !p.startsWith("../")) {
                dirs.add(p.substring(0, p.length() - 1));
            }
        }
        return dirs.isEmpty() ? NONE : new GitIgnoredDirectories(Set.copyOf(dirs));
    }

    @Override
    public boolean ignored(String relPath) {
        return directories.contains(relPath);
    }

    @Override
    public String toString() {
        return "git-ignored " + directories;
    }
}
