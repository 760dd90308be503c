package dev.ralon.host;

import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.policy.CodeRunningConfig;
import dev.ralon.policy.git.GitLayout;
import dev.ralon.policy.walk.LinkResolution;

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
 * environment: each path found where git, the shell and the user's tools look for it, with the links on the way;
 * what git's configuration names ({@link GitConfig}, read without running git); the project's
 * {@link CodeRunningConfig} that exists; the writable {@code PATH} directories; what starts the next ralon
 * ({@link Baseline.Start}). Reading never runs anything, and a file that cannot be read adds nothing (git could not
 * read it either). What a backend keeps of it is {@link Baseline#apply}'s job.
 */
final class BaselineItems {
    private BaselineItems() {
    }

    /**
     * The baseline for a project whose policy lies in {@code projectRoot} (real), with the user's environment, for a
     * ralon started as {@code start} says.
     */
    static List<Baseline.Item> of(Path projectRoot, Map<String, String> env, Baseline.Start start) {
        List<Baseline.Item> out = new ArrayList<>();
        Path home = absolute(env.get("HOME"));
        // HOME=/ (some service accounts) is nobody's home: ~/bin there would be the system's /bin
        if (home != null && home.getParent() == null) {
            home = null;
        }
        Path config = home == null ? absolute(env.get("XDG_CONFIG_HOME"))
                : absoluteOr(env.get("XDG_CONFIG_HOME"), home.resolve(".config"));
        GitLayout git = GitLayout.find(projectRoot);
        gitItems(git, projectRoot, home, config, env, out);
        if (home != null) {
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
            // the agents' state directories are writable areas of a confined session (WritableAreas); what in them
            // runs code or instructs a later session is not state
            String agent = "an agent's configuration: hooks, MCP servers, commands or instructions a later session runs";
            for (String f : WritableAreas.AGENT_CONFIG) {
                out.add(item(home, projectRoot, home.resolve(f), agent));
            }
            out.add(item(home, projectRoot, config.resolve("ralon"), "Ralon's per-user settings: where a session may"
                    + " write (" + WritableAreas.USER_FILE + ")"));
        }
        projectConfig(projectRoot, git, home, out);
        pathDirectories(projectRoot, home, env, start, out);
        ownStart(projectRoot, home, env, start, out);
        // one item per real path (ZDOTDIR = HOME, XDG dirs inside one another, hooksPath = .husky...)
        Set<Path> seen = new HashSet<>();
        out.removeIf(i -> !seen.add(i.paths().get(i.paths().size() - 1).path()));
        return out;
    }

    /**
     * The git files of the repository the project belongs to (found as git does, from the project upwards), and what
     * git's configuration points at: the included files, core.hooksPath, core.attributesFile, core.excludesFile, a
     * core.fsmonitor program, and the repository's info/ directory (docs/security.md, "The repository's doors").
     */
    private static void gitItems(GitLayout git, Path projectRoot, Path home, Path xdgConfig, Map<String, String> env,
                                 List<Baseline.Item> out) {
        String config = "git runs what it names (core.fsmonitor, hooksPath, drivers, pager, sshCommand) in every"
                + " later git command";
        List<Path> files = new ArrayList<>();
        Path top = null;
        if (git != null) {
            top = git.top();
            Path gitDir = git.gitDir();
            Path common = git.common();
            if (git.dotGitIsFile()) {
                // a linked worktree or a submodule: ".git" is a file "gitdir: PATH" (gitrepository-layout(5))
                out.add(item(null, projectRoot, git.dotGit(), "says which git directory (config, hooks) git uses here"));
                if (!gitDir.equals(common)) {
                    out.add(item(null, projectRoot, gitDir.resolve("commondir"),
                            "says where a worktree's shared config and hooks are"));
                }
                if (!gitDir.equals(common) && (worktreeConfig(common)
                        || Files.exists(gitDir.resolve("config.worktree"), LinkOption.NOFOLLOW_LINKS))) {
                    out.add(item(null, projectRoot, gitDir.resolve("config.worktree"), config));
                    files.add(gitDir.resolve("config.worktree"));
                }
            }
            if (!Files.isRegularFile(gitDir, LinkOption.NOFOLLOW_LINKS)) { // not a .git file without "gitdir:"
                out.add(item(null, projectRoot, common.resolve("config"), config));
                files.add(0, common.resolve("config"));
                if (Files.exists(common.resolve("config.worktree"), LinkOption.NOFOLLOW_LINKS) || worktreeConfig(common)) {
                    // read only with extensions.worktreeConfig (git-worktree(1), "CONFIGURATION FILE"), set in config
                    out.add(item(null, projectRoot, common.resolve("config.worktree"), config));
                    files.add(common.resolve("config.worktree"));
                }
                out.add(item(null, projectRoot, common.resolve("hooks"), "git runs the hooks in it"));
                if (Files.exists(common.resolve("info"), LinkOption.NOFOLLOW_LINKS)) {
                    out.add(item(null, projectRoot, common.resolve("info"), "git reads exclude (what it hides from"
                            + " review) and attributes (which filter and diff drivers run) from it"));
                }
                submodules(common.resolve("modules"), projectRoot, out, 0);
            }
        }
        // the global and system files, where git reads them (git-config(1), FILES)
        String global = env.get("GIT_CONFIG_GLOBAL");
        if (global != null && !global.isEmpty()) {
            Path g = GitConfig.path(global, null, home);
            if (g != null) {
                files.add(g);
                out.add(item(home, projectRoot, g, "git's global configuration (GIT_CONFIG_GLOBAL)"));
            }
        } else {
            if (xdgConfig != null) {
                files.add(xdgConfig.resolve("git/config"));
            }
            if (home != null) {
                files.add(home.resolve(".gitconfig"));
            }
        }
        if (env.get("GIT_CONFIG_NOSYSTEM") == null) {
            files.add(Path.of("/etc/gitconfig"));
        }
        GitConfig.Result read = GitConfig.read(files, home);
        for (Path inc : read.includes()) {
            out.add(item(home, projectRoot, inc, "included by git's configuration (include.path, includeIf): read as"
                    + " part of it"));
        }
        for (GitConfig.Entry e : read.entries()) {
            Path target = null;
            String why = null;
            switch (e.key()) {
                case "core.hookspath":
                    // relative: to where hooks run, the work tree's top (githooks(5))
                    target = GitConfig.path(e.value(), top, home);
                    why = "core.hooksPath: git runs the hooks in it";
                    break;
                case "core.attributesfile":
                    target = GitConfig.path(e.value(), top, home);
                    why = "core.attributesFile: attributes choose the filter and diff drivers git runs";
                    break;
                case "core.excludesfile":
                    target = GitConfig.path(e.value(), top, home);
                    why = "core.excludesFile: decides what git hides from review";
                    break;
                case "core.fsmonitor":
                    target = fsmonitorProgram(e.value(), top, home);
                    why = "core.fsmonitor's program: every git status runs it";
                    break;
                default:
                    break;
            }
            if (target != null && Files.exists(target)) {
                out.add(item(home, projectRoot, target, why));
            }
        }
    }

    /**
     * The file {@code core.fsmonitor} runs when it is not a boolean (git 2.36+ takes true as the built-in daemon): the
     * value is a shell command (fsmonitor.c runs it with use_shell); its whole text when that names a file, else its
     * first word when that does. A bare program name is found on PATH, whose writable directories are items anyway.
     */
    private static Path fsmonitorProgram(String value, Path top, Path home) {
        if (value == null || GitConfig.bool(value) != null) {
            return null;
        }
        Path whole = GitConfig.path(value, top, home);
        if (whole != null && Files.isRegularFile(whole)) {
            return whole;
        }
        String first = value.trim().split("[ \t]+", 2)[0];
        return first.contains("/") ? GitConfig.path(first, top, home) : null;
    }

    /**
     * Each file or directory of {@link CodeRunningConfig} that exists under the project's root and, when different,
     * the git work tree's top. Absent ones are no items: a bind cannot stop their creation, and check --changed
     * reports them when created.
     */
    private static void projectConfig(Path projectRoot, GitLayout git, Path home, List<Baseline.Item> out) {
        List<Path> roots = new ArrayList<>(List.of(projectRoot));
        if (git != null && !git.top().equals(projectRoot)) {
            roots.add(git.top());
        }
        for (Path root : roots) {
            for (CodeRunningConfig.Entry e : CodeRunningConfig.ENTRIES) {
                Path p = root.resolve(e.bare());
                if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                    out.add(item(home, projectRoot, p, "project configuration: " + e.why()));
                }
            }
        }
    }

    /**
     * Every directory on {@code PATH} that exists and that the invoker can write (access(2) W_OK: a planted
     * {@code git} or {@code java} there runs instead of the real one, the next {@code ralon}'s java included), but
     * not: a relative entry (it names the working directory); one inside the project (the project's own tools,
     * node_modules/.bin, are its work) or inside a temporary directory ($TMPDIR, java.io.tmpdir, /tmp, /var/tmp,
     * /dev/shm, unless that directory holds HOME); nor one that is the project, HOME, a temporary directory or any of
     * their ancestors (locking those would stop all work).
     */
    private static void pathDirectories(Path projectRoot, Path home, Map<String, String> env, Baseline.Start start,
                                        List<Baseline.Item> out) {
        String pathVar = env.get("PATH");
        if (pathVar == null) {
            return;
        }
        for (String entry : pathVar.split(":")) {
            Path d = absolute(entry);
            if (d != null && lockable(d, projectRoot, home, env, start)) {
                out.add(item(home, projectRoot, d, "on PATH and writable by you: a planted git, java or ls runs"
                        + " instead of the real one"));
            }
        }
    }

    /**
     * Whether the directory {@code d} (absolute, normalized) can be a baseline item of its own: it exists, the invoker
     * can write it (access(2) W_OK), it is neither inside the project nor inside a temporary directory ($TMPDIR,
     * java.io.tmpdir, /tmp, /var/tmp, /dev/shm, unless that directory holds HOME), and it is not the project, HOME, a
     * temporary directory or an ancestor of one.
     */
    private static boolean lockable(Path d, Path projectRoot, Path home, Map<String, String> env, Baseline.Start start) {
        if (d.startsWith(projectRoot) || !Files.isDirectory(d) || !changeable(d)) {
            return false;
        }
        if (projectRoot.startsWith(d) || home != null && home.startsWith(d)) {
            return false;
        }
        for (String t : new String[] {env.get("TMPDIR"), start.tmpdir(), "/tmp", "/var/tmp", "/dev/shm"}) {
            Path temp = absolute(t);
            if (temp != null && (temp.startsWith(d) || d.startsWith(temp) && !(home != null && home.startsWith(temp)))) {
                return false;
            }
        }
        return true;
    }

    /**
     * What runs the next {@code ralon} before anything is enforced, when the invoker can write it: the JDK running
     * this JVM ({@code java.home}), the {@code java} the launcher ran and its directory (with the links on the way),
     * the launcher itself with the links on the way, and the class-data archives beside it ({@code .ralon-cds},
     * mapped into the next start: in the launcher's directory as invoked, and in its real directory), and those two
     * directories themselves where {@link #lockable} (a {@code .ralon-cds} missing there could otherwise be created);
     * for a release, its {@code lib/} and {@code share/} ({@link #release}). "Can write" is {@link #changeable}: the
     * owner of a read-only file can make it writable.
     */
    private static void ownStart(Path projectRoot, Path home, Map<String, String> env, Baseline.Start start,
                                 List<Baseline.Item> out) {
        String jdk = "the JDK that runs ralon: a file planted there runs in the next ralon, before anything is enforced";
        Path javaHome = absolute(start.javaHome());
        if (javaHome != null && lockable(javaHome, projectRoot, home, env, start)) {
            out.add(item(home, projectRoot, javaHome, jdk));
        }
        Path java = absolute(start.launcherJava());
        if (java != null && Files.exists(java)) {
            Baseline.Item i = item(home, projectRoot, java, "the java the launcher runs: replaced, it runs as the next"
                    + " ralon, before anything is enforced");
            if (writable(i)) {
                out.add(i);
            }
            Path bin = java.getParent();
            if (bin != null && lockable(bin, projectRoot, home, env, start)) {
                out.add(item(home, projectRoot, bin, jdk));
            }
        }
        Path launcher = absolute(start.launcher());
        if (launcher != null && Files.isRegularFile(launcher)) {
            Baseline.Item i = item(home, projectRoot, launcher, "ralon's launcher: replaced, it runs instead of ralon");
            if (writable(i)) {
                out.add(i);
            }
            String cds = "ralon's class-data archives: mapped into the next ralon before anything is enforced";
            Path real = i.paths().get(i.paths().size() - 1).path();
            // the directory itself, where it may be locked: a .ralon-cds created there (a bind cannot stop creation)
            // would be mapped into the next start
            for (Path dir : new Path[] {launcher.getParent(), real.getParent()}) {
                if (dir != null && lockable(dir, projectRoot, home, env, start)) {
                    out.add(item(home, projectRoot, dir, "ralon's launcher's directory: a .ralon-cds created there is"
                            + " mapped into the next ralon before anything is enforced"));
                }
            }
            for (Path dir : new Path[] {launcher.getParent(), real.getParent()}) {
                Path c = dir == null ? null : dir.resolve(".ralon-cds");
                if (c != null && Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS) && changeable(c)) {
                    out.add(item(home, projectRoot, c, cds));
                }
            }
            release(real, projectRoot, home, out);
        }
    }

    /**
     * A release's tree (docs/publishing.md): the launcher {@code ROOT/bin/ralon} beside {@code ROOT/lib/ralon.release}.
     * The launcher maps {@code lib/ralon.jsa} and hands JNA {@code lib/jna/} before anything is enforced, and a shell
     * sources {@code share/}'s completion: each of those directories, where the invoker can write it, is protected
     * whole (its files, and what may be created in it). The runtime is {@code java.home}, covered above.
     */
    private static void release(Path realLauncher, Path projectRoot, Path home, List<Baseline.Item> out) {
        Path bin = realLauncher.getParent();
        Path root = bin == null ? null : bin.getParent();
        if (root == null || !"bin".equals(String.valueOf(bin.getFileName()))
                || !Files.isRegularFile(root.resolve("lib/ralon.release"), LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        String[][] parts = {
            {"lib", "ralon's release: its class-data archive and JNA's native library are loaded into the next ralon"
                    + " before anything is enforced"},
            {"share", "ralon's release: its shell completion is sourced by a later shell, its man page read"}};
        for (String[] part : parts) {
            Path d = root.resolve(part[0]);
            if (Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS) && changeable(d)) {
                out.add(item(home, projectRoot, d, part[1]));
            }
        }
    }

    /**
     * Whether the invoker can write {@code p}, or make it writable: its owner may {@code chmod u+w} a read-only file
     * or directory and then write it (chmod(2): the caller's effective uid must match the owner's, or be privileged).
     * The invoker's uid: {@link WritableAreas#uid}.
     */
    static boolean changeable(Path p) {
        if (Files.isWritable(p)) {
            return true;
        }
        try {
            return Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS).equals(WritableAreas.uid());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Whether the invoker can change what {@code i} reaches: its real file, or a link or directory on the way. */
    private static boolean writable(Baseline.Item i) {
        for (ProtectedPath p : i.paths()) {
            Path dir = p.path().getParent();
            if (p.kind() != ProtectedPath.Kind.SYMLINK && changeable(p.path()) || dir != null && changeable(dir)) {
                return true;
            }
        }
        return false;
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
            paths.add(ProtectedPath.of(link, ProtectedPath.Kind.SYMLINK,
                    List.of("baseline: symbolic link on the way to " + p + " (--no-baseline leaves it out)")));
        }
        Path real = r.reached() == null ? p : r.reached();
        paths.add(ProtectedPath.of(real, kindOf(real), List.of(reason)));
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
