package dev.ralon.host;

import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.policy.LinkResolution;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What is in the baseline ({@link Baseline}'s list, with the reason of each) for one project and one user's
 * environment: each path found where git, the shell and the user's tools look for it, with the links on the way.
 * What a backend keeps of it is {@link Baseline#apply}'s job.
 */
final class BaselineItems {
    private BaselineItems() {
    }

    /** The baseline for a project whose policy lies in {@code projectRoot} (real), with the user's environment. */
    static List<Baseline.Item> of(Path projectRoot, Map<String, String> env) {
        List<Baseline.Item> out = new ArrayList<>();
        gitItems(projectRoot, out);
        Path home = absolute(env.get("HOME"));
        // HOME=/ (some service accounts) is nobody's home: ~/bin there would be the system's /bin
        if (home != null && home.getParent() != null) {
            Path config = absoluteOr(env.get("XDG_CONFIG_HOME"), home.resolve(".config"));
            Path data = absoluteOr(env.get("XDG_DATA_HOME"), home.resolve(".local/share"));
            Path zdot = absoluteOr(env.get("ZDOTDIR"), home);
            String shell = "shell start-up or logout file: runs in every later shell";
            for (String f : List.of(".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile")) {
                out.add(item(home, projectRoot, home.resolve(f), shell));
            }
            for (String f : List.of(".zshrc", ".zprofile", ".zshenv", ".zlogin", ".zlogout")) {
                out.add(item(home, projectRoot, zdot.resolve(f), shell));
            }
            out.add(item(home, projectRoot, config.resolve("fish/config.fish"), shell));
            out.add(item(home, projectRoot, config.resolve("fish/conf.d"), shell));
            out.add(item(home, projectRoot, home.resolve(".gitconfig"),
                    "git's global configuration: fsmonitor, hooksPath, pager, drivers run in every repository"));
            out.add(item(home, projectRoot, config.resolve("git"), "git's global configuration (XDG)"));
            String path = "first on PATH in the usual profiles: a planted git, java or ls runs instead of the real one";
            out.add(item(home, projectRoot, home.resolve(".local/bin"), path));
            out.add(item(home, projectRoot, home.resolve("bin"), path));
            out.add(item(home, projectRoot, home.resolve(".mavenrc"), "sourced as shell code by every mvn"));
            out.add(item(home, projectRoot, home.resolve(".npmrc"), "npm's script-shell and node-options run code"));
            out.add(item(home, projectRoot, home.resolve(".ssh/config"), "ssh runs ProxyCommand, LocalCommand, Match exec"));
            out.add(item(home, projectRoot, home.resolve(".ssh/rc"), "sshd runs it at every login"));
            out.add(item(home, projectRoot, home.resolve(".ssh/authorized_keys"), "who can log in as you"));
            out.add(item(home, projectRoot, home.resolve(".ssh/authorized_keys2"), "who can log in as you"));
            out.add(item(home, projectRoot, home.resolve(".gnupg/gpg-agent.conf"), "gpg-agent runs pinentry-program"));
            out.add(item(home, projectRoot, home.resolve(".gnupg/gpg.conf"), "gpg runs photo-viewer, exec-path helpers"));
            out.add(item(home, projectRoot, data.resolve("dbus-1/services"),
                    "the session bus starts the Exec= of a service file on demand"));
            out.add(item(home, projectRoot, config.resolve("systemd/user"), "systemd user units run at login or on demand"));
            out.add(item(home, projectRoot, config.resolve("environment.d"),
                    "environment of user services (LD_PRELOAD)"));
            out.add(item(home, projectRoot, config.resolve("autostart"), "the desktop session runs these at login"));
        }
        // one item per real path (ZDOTDIR = HOME, XDG dirs inside one another...)
        Set<Path> seen = new HashSet<>();
        out.removeIf(i -> !seen.add(i.paths().get(i.paths().size() - 1).path()));
        return out;
    }

    /** The git files of the repository the project belongs to: found as git does, from the project upwards. */
    private static void gitItems(Path projectRoot, List<Baseline.Item> out) {
        Path top = null;
        Path dotGit = null;
        for (Path d = projectRoot; d != null; d = d.getParent()) {
            Path g = d.resolve(".git");
            if (Files.exists(g, LinkOption.NOFOLLOW_LINKS)) {
                top = d;
                dotGit = g;
                break;
            }
        }
        if (dotGit == null) {
            return;
        }
        Path gitDir = dotGit;
        Path common = dotGit;
        String config = "git runs what it names (core.fsmonitor, hooksPath, drivers, pager, sshCommand) in every"
                + " later git command";
        if (Files.isRegularFile(dotGit, LinkOption.NOFOLLOW_LINKS)) {
            // a linked worktree or a submodule: ".git" is a file "gitdir: PATH" (gitrepository-layout(5))
            out.add(item(null, projectRoot, dotGit, "says which git directory (config, hooks) git uses here"));
            String text = firstLine(dotGit);
            if (text == null || !text.startsWith("gitdir:")) {
                return;
            }
            gitDir = top.resolve(text.substring(7).trim()).normalize();
            common = gitDir;
            String commondir = firstLine(gitDir.resolve("commondir"));
            if (commondir != null) {
                out.add(item(null, projectRoot, gitDir.resolve("commondir"),
                        "says where a worktree's shared config and hooks are"));
                common = gitDir.resolve(commondir.trim()).normalize();
            }
            if (!gitDir.equals(common) && (worktreeConfig(common)
                    || Files.exists(gitDir.resolve("config.worktree"), LinkOption.NOFOLLOW_LINKS))) {
                out.add(item(null, projectRoot, gitDir.resolve("config.worktree"), config));
            }
        }
        out.add(item(null, projectRoot, common.resolve("config"), config));
        if (Files.exists(common.resolve("config.worktree"), LinkOption.NOFOLLOW_LINKS) || worktreeConfig(common)) {
            // read only with extensions.worktreeConfig (git-worktree(1), "CONFIGURATION FILE"), set in config
            out.add(item(null, projectRoot, common.resolve("config.worktree"), config));
        }
        out.add(item(null, projectRoot, common.resolve("hooks"), "git runs the hooks in it"));
        submodules(common.resolve("modules"), projectRoot, out, 0);
    }

    private static boolean worktreeConfig(Path common) {
        try {
            Path c = common.resolve("config");
            return Files.isRegularFile(c) && Files.size(c) < 1 << 20
                    && Files.readString(c, StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT)
                    .contains("worktreeconfig");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Every git directory beneath {@code modules/} (names may hold slashes; nested submodules have their own). */
    private static void submodules(Path dir, Path projectRoot, List<Baseline.Item> out, int depth) {
        if (depth > 8 || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var s = Files.newDirectoryStream(dir)) {
            for (Path c : s) {
                if (!Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                if (Files.isRegularFile(c.resolve("HEAD"), LinkOption.NOFOLLOW_LINKS)) {
                    out.add(item(null, projectRoot, c.resolve("config"), "a submodule's git configuration"));
                    out.add(item(null, projectRoot, c.resolve("hooks"), "a submodule's hooks"));
                    submodules(c.resolve("modules"), projectRoot, out, depth + 1);
                } else {
                    submodules(c, projectRoot, out, depth + 1);
                }
            }
        } catch (IOException | RuntimeException e) {
            // an unreadable modules/ directory: nothing of it to protect that git could read either
        }
    }

    private static Baseline.Item item(Path home, Path projectRoot, Path p, String why) {
        LinkResolution r = LinkResolution.resolve(p.getRoot(), p.getRoot().relativize(p).toString());
        List<ProtectedPath> paths = new ArrayList<>();
        String reason = "baseline: " + why + " (--no-baseline leaves it out)";
        for (Path link : r.links()) {
            paths.add(new ProtectedPath(link, ProtectedPath.Kind.SYMLINK,
                    List.of("baseline: symbolic link on the way to " + p + " (--no-baseline leaves it out)")));
        }
        Path real = r.reached() == null ? p : r.reached();
        paths.add(new ProtectedPath(real, kindOf(real), List.of(reason)));
        return new Baseline.Item(display(home, projectRoot, p), why, paths);
    }

    private static ProtectedPath.Kind kindOf(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isDirectory() ? ProtectedPath.Kind.DIRECTORY : a.isRegularFile() ? ProtectedPath.Kind.FILE
                    : a.isSymbolicLink() ? ProtectedPath.Kind.SYMLINK : ProtectedPath.Kind.OTHER;
        } catch (IOException | RuntimeException e) {
            return ProtectedPath.Kind.MISSING;
        }
    }

    private static String display(Path home, Path projectRoot, Path p) {
        if (p.startsWith(projectRoot) && !p.equals(projectRoot)) {
            return projectRoot.relativize(p).toString();
        }
        if (home != null && p.startsWith(home) && !p.equals(home)) {
            return "~/" + home.relativize(p);
        }
        return p.toString();
    }

    private static String firstLine(Path f) {
        try {
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) || Files.size(f) > 4096) {
                return null;
            }
            return Files.readString(f, StandardCharsets.UTF_8).lines().findFirst().orElse(null);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static Path absolute(String s) {
        try {
            return s == null || !s.startsWith("/") ? null : Path.of(s).normalize();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Path absoluteOr(String s, Path dflt) {
        Path p = absolute(s);
        return p == null ? dflt : p;
    }
}
