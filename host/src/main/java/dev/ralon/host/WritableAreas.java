package dev.ralon.host;

import dev.ralon.enforcer.spi.Confinement;
import dev.ralon.policy.git.GitLayout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a session may write outside the protected set's rules, and why: the {@link Confinement} of {@code ralon run}.
 * Everything else, in {@code $HOME} and the system alike, is read-only to the session under a backend that declares
 * {@link dev.ralon.enforcer.spi.Guarantee#WRITES_OUTSIDE} (docs/security.md, "Writes outside the project").
 *
 * <p>The areas, each only when it exists (nothing is created):
 * <ul>
 *   <li><b>the project</b>: the directory of the nearest agent.lock, and the repository's {@code .git} when it lies
 *       above (a commit writes it), under the conditions of {@link #gitDirectory};</li>
 *   <li><b>temporary files</b>: {@code /tmp}, {@code /var/tmp}, {@code /dev/shm} and {@code $TMPDIR}; or, with
 *       {@code --temp DIR}, that one directory alone;</li>
 *   <li><b>the agents' own state</b>: {@code ~/.claude} (Claude Code), {@code ~/.codex} (Codex) and
 *       {@code ~/.gemini} (Gemini CLI); their configuration inside ({@link #AGENT_CONFIG}: settings with hooks, MCP
 *       servers, plugins, commands, instructions) is in the baseline. Not {@code ~/.claude.json}, which holds Claude
 *       Code's user-scoped MCP servers: a server added there runs in the next {@code claude} started outside;</li>
 *   <li><b>caches whose content is checked before use</b>: npm's content-addressed cache ({@code ~/.npm/_cacache},
 *       verified against its integrity hash on every read) and its logs (when npm is on {@code PATH} and they do not
 *       exist, that is said: the session could not make them). Not Maven's {@code ~/.m2/repository} (a
 *       jar there is not checked again when a build uses it), nor a tool distribution: such a cache written by the
 *       session would be code a later build runs unverified;</li>
 *   <li><b>the user's additions</b>: each line of {@code ~/.config/ralon/writable} (a path, absolute or
 *       {@code ~/…}; {@code #} starts a comment), itself a baseline path, and each {@code --allow-write PATH}.</li>
 * </ul>
 * Paths are taken at their real place, but never through a symbolic link that lies where a session can write
 * ({@link #resolve}); an area beneath another is left out.
 */
public final class WritableAreas {
    /** The per-user file of additions, as shown ({@link #userFile}: under {@code $XDG_CONFIG_HOME} when set). */
    public static final String USER_FILE = "~/.config/ralon/writable";

    /**
     * What in the agents' state directories is configuration, not state ({@link Agents}): never an area; baseline
     * paths too ({@link BaselineItems}).
     */
    public static final List<String> AGENT_CONFIG = Agents.configuration();
    /** Caches whose content is verified when it is used. */
    static final List<String[]> CHECKED_CACHES = List.of(
            new String[] {".npm/_cacache", "npm's cache (content-addressed: checked against its hash on every read)"},
            new String[] {".npm/_logs", "npm's logs"});

    /** How the temporary directories' areas begin their {@link Confinement.Area#why()}. */
    static final String TEMPORARY = "temporary files";

    /** The {@link Confinement.Area#why()} of the project's tool caches ({@link HomeCopy#caches}), when ~ is no copy. */
    public static final String CACHES = "the project's tool caches (~ is read-only, not a copy)";

    private WritableAreas() {
    }

    /** What was asked for and could not be made an area (absent, unreadable), for the report. */
    public record Left(String path, String why) {
    }

    /**
     * The confinement; what was asked for and left out (said at every run's start); and what would be an area but does
     * not exist yet, which a session cannot make (listed by {@code status} and {@code --dry-run}: not an error of the
     * user's, so not repeated at every start). {@code copied}: the same session with a copy of the home directory
     * ({@link HomeCopy}), for a backend that can make one, or null; {@code noCopy}: why there is none, or null.
     */
    public record Outcome(Confinement confinement, List<Left> left, List<Left> absent, Outcome copied, String noCopy) {
        public Outcome {
            left = List.copyOf(left);
            absent = List.copyOf(absent);
        }

        public Outcome(Confinement confinement, List<Left> left, List<Left> absent) {
            this(confinement, left, absent, null, null);
        }

        /** The outcome for a session under {@code e}: the copy's when {@code e} can make it and there is one. */
        public Outcome forEnforcer(dev.ralon.enforcer.spi.Enforcer e) {
            return copied != null && e.copiesHome() ? copied : this;
        }
    }

    /**
     * The areas for a run whose nearest policy lies in {@code projectRoot}, with the user's environment {@code env},
     * the temporary directory {@code temp} ({@code --temp}, or null for the usual ones) and {@code allowWrite}
     * ({@code --allow-write}, relative to {@code cwd}).
     *
     * @throws HostException when the per-user file cannot be read or names a relative path: one line, nothing started
     */
    public static Outcome of(Path projectRoot, Map<String, String> env, Path temp, List<String> allowWrite, Path cwd) {
        Path home = home(env);
        Outcome plain = of(projectRoot, env, temp, allowWrite, cwd, false);
        String noCopy = HomeCopy.unavailable(home);
        // a temporary directory holding the home directory (HOME=/tmp/..., as containers and CI jobs set it) does not
        // make it writable whole: the copy goes over it, the areas beneath it put back. The project, or an area the
        // user added, holding it does: those are live by the user's choice.
        Confinement.Area holder = noCopy != null ? null : plain.confinement().areas().stream()
                .filter(a -> home.startsWith(a.path()) && !a.why().startsWith(TEMPORARY)).findFirst().orElse(null);
        if (holder != null) {
            noCopy = "it is writable whole (it lies in " + holder.why() + ", " + holder.path() + ")";
        }
        if (noCopy != null) {
            return new Outcome(plain.confinement(), plain.left(), plain.absent(), null, noCopy);
        }
        return new Outcome(plain.confinement(), plain.left(), plain.absent(),
                of(projectRoot, env, temp, allowWrite, cwd, true), null);
    }

    /**
     * {@link #of(Path, Map, Path, List, Path)} without ({@code copy} false) or with a copy of the home directory: with
     * one, the agents' history alone is an area of theirs ({@link Agents.Agent#history()}: the rest of their writes go
     * to the copy), the checked caches are no areas (the copy holds them), and the areas beneath the home directory
     * stay areas beneath the copy even when beneath another area (a home under /tmp).
     */
    private static Outcome of(Path projectRoot, Map<String, String> env, Path temp, List<String> allowWrite, Path cwd,
                              boolean copy) {
        Map<Path, Confinement.Area> areas = new LinkedHashMap<>();
        List<Left> left = new ArrayList<>();
        List<Left> absent = new ArrayList<>();
        Path home = home(env);
        add(areas, left, projectRoot, "the project");
        gitDirectory(areas, left, projectRoot);
        if (temp != null) {
            add(areas, left, cwd.resolve(temp), TEMPORARY + " (--temp)");
        } else {
            for (String t : List.of("/tmp", "/var/tmp", "/dev/shm")) {
                add(areas, left, Path.of(t), TEMPORARY);
            }
            String tmpdir = env.get("TMPDIR");
            if (tmpdir != null && tmpdir.startsWith("/")) {
                Path t = Path.of(tmpdir).normalize();
                if (t.getParent() == null || (home != null && home.startsWith(t))) {
                    left.add(new Left(tmpdir, "$TMPDIR is / or holds $HOME: not a temporary directory"));
                } else {
                    add(areas, left, t, TEMPORARY + " ($TMPDIR)");
                }
            }
        }
        if (home != null && copy) {
            for (Agents.Agent a : Agents.ALL) {
                for (String h : a.history()) {
                    addQuietly(areas, home.resolve(a.state()).resolve(h), a.name() + "'s history");
                }
            }
        } else if (home != null) {
            for (Agents.Agent a : Agents.ALL) {
                agentState(areas, home, a.state(), a.name() + "'s state");
            }
            for (String[] s : CHECKED_CACHES) {
                addQuietly(areas, home.resolve(s[0]), s[1]);
            }
            if (Files.isDirectory(home)) { // made at the run's start (HomeCopy.makeCaches), so no existence asked
                Path caches = HomeCopy.caches(home, projectRoot);
                areas.putIfAbsent(caches, new Confinement.Area(caches, true, CACHES));
            }
        }
        if (home != null) {
            Path file = userFile(env, home);
            for (String line : userFile(file)) {
                Path p = line.equals("~") ? home : line.startsWith("~/") ? home.resolve(line.substring(2)) : Path.of(line);
                add(areas, left, p, "your addition (" + file + ")");
            }
        }
        for (String a : allowWrite) {
            add(areas, left, allowed(a, env, cwd), "your addition (--allow-write)");
        }
        if (!copy) {
            return new Outcome(new Confinement(true, outermost(areas)), left, absent);
        }
        // beneath the copy, each area is put back over it: kept even beneath an area outside it (/tmp over a home there)
        Map<Path, Confinement.Area> outside = new LinkedHashMap<>();
        Map<Path, Confinement.Area> inside = new LinkedHashMap<>();
        areas.forEach((p, a) -> (p.startsWith(home) ? inside : outside).put(p, a));
        List<Confinement.Area> all = new ArrayList<>(outermost(outside));
        all.addAll(outermost(inside));
        return new Outcome(new Confinement(true, all, HomeCopy.of(home, projectRoot)), left, absent);
    }

    /** The path an {@code --allow-write} argument names: {@code ~} and {@code ~/…} in the home directory, else from {@code cwd}. */
    public static Path allowed(String a, Map<String, String> env, Path cwd) {
        Path home = home(env);
        return a.equals("~") && home != null ? home
                : a.startsWith("~/") && home != null ? home.resolve(a.substring(2)) : cwd.resolve(a);
    }

    /** {@code $XDG_CONFIG_HOME/ralon/writable}, else {@code ~/.config/ralon/writable}. */
    public static Path userFile(Map<String, String> env, Path home) {
        String x = env.get("XDG_CONFIG_HOME");
        Path config = x != null && x.startsWith("/") ? Path.of(x) : home.resolve(".config");
        return config.resolve("ralon/writable");
    }

    /** The lines of the per-user file that name a path (blank lines and {@code #} comments left out). */
    static List<String> userFile(Path file) {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new HostException("cannot read " + file + ": " + e.getMessage());
        }
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int hash = l.indexOf('#');
            String t = (hash >= 0 ? l.substring(0, hash) : l).strip();
            if (t.isEmpty()) {
                continue;
            }
            if (!t.startsWith("/") && !t.equals("~") && !t.startsWith("~/")) {
                throw new HostException(file + ":" + (i + 1) + ":1: not an absolute path or ~/...: " + t);
            }
            out.add(t);
        }
        return out;
    }

    /**
     * The project's git directory, when it lies outside the project (the policy is in a subdirectory of the work
     * tree): an area only when {@code .git} there is a real directory of the invoker's, neither a link nor a
     * {@code gitdir:} file, with no {@code commondir}. A {@code .git} link or file names any directory, and the session
     * can make one in the project (or another user in a shared directory above it): measured, `ln -s "$HOME" .git` in
     * one session made {@code $HOME} writable in the next. A linked worktree's or submodule's git directory is said
     * instead (a commit there needs {@code --allow-write}). The work tree above the project is never an area: a
     * dotfiles repository in {@code $HOME} would make all of {@code $HOME} one.
     */
    private static void gitDirectory(Map<Path, Confinement.Area> areas, List<Left> left, Path projectRoot) {
        GitLayout git = GitLayout.find(projectRoot);
        if (git == null || git.dotGit().startsWith(projectRoot)) {
            return; // none, or inside the project, which is an area already
        }
        Path g = git.dotGit();
        boolean plain = Files.isDirectory(g, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !git.dotGitIsFile()
                && git.common().equals(git.gitDir());
        boolean ours;
        try {
            ours = plain && ((Integer) Files.getAttribute(g, "unix:uid", java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    == uid();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            ours = false;
        }
        if (ours) {
            add(areas, left, g, "the project's git directory");
        } else {
            left.add(new Left(g.toString(), "the project's git directory outside the project, "
                    + (plain ? "not yours" : "a link, a gitdir: file or a linked worktree's")
                    + ": commits fail; --allow-write its real place if you trust it"));
        }
    }

    /** The invoker's effective uid: the owner of {@code /proc/self} (proc(5)), -1 when unknown; no native call. */
    static int uid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return -1;
        }
    }

    /** {@code $HOME}, absolute and normalized, or null when unset or relative. */
    static Path home(Map<String, String> env) {
        String h = env.get("HOME");
        return h == null || !h.startsWith("/") ? null : Path.of(h).normalize();
    }

    /**
     * Adds {@code p} at its real place, unless a symbolic link on the way to it lies in a place a session can write
     * (an area added before, or a temporary directory): a session could have made it, or swapped a directory of the
     * way for it, and so pointed the area anywhere (measured: {@code TMPDIR=/tmp/u/1000}, replaced by a link to
     * {@code $HOME} in one session, made {@code $HOME} writable in the next). Links elsewhere (in {@code $HOME}, read-only
     * to a session; the system's) are followed.
     */
    private static void add(Map<Path, Confinement.Area> areas, List<Left> left, Path p, String why) {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !Files.exists(p)) {
            left.add(new Left(p.toString(), "does not exist"));
            return;
        }
        Path real;
        try {
            real = resolve(p, areas.keySet());
        } catch (IOException e) {
            left.add(new Left(p.toString(), e.getMessage()));
            return;
        }
        areas.putIfAbsent(real, new Confinement.Area(real, Files.isDirectory(real), why));
    }

    /** Where a session can write besides the areas found so far: the temporary directories. */
    static final List<Path> ALWAYS_WRITABLE = List.of(Path.of("/tmp"), Path.of("/var/tmp"), Path.of("/dev/shm"));

    /**
     * {@code p}'s real path, resolved one name at a time (40 links at most, as the kernel); an IOException when a link
     * on the way lies in {@code writable} or {@link #ALWAYS_WRITABLE}, holds {@code ..}, or a name does not exist.
     */
    static Path resolve(Path p, java.util.Collection<Path> writable) throws IOException {
        Path todo = p.toAbsolutePath().normalize();
        Path cur = Path.of("/");
        int links = 0;
        int i = 0;
        while (i < todo.getNameCount()) {
            Path next = cur.resolve(todo.getName(i));
            if (Files.isSymbolicLink(next)) {
                Path at = cur;
                if (writable.stream().anyMatch(at::startsWith) || ALWAYS_WRITABLE.stream().anyMatch(at::startsWith)) {
                    throw new IOException("reached through the symbolic link " + next + ", in a place a session can"
                            + " write: not writable (name its real place)");
                }
                if (++links > 40) {
                    throw new IOException("too many symbolic links on the way");
                }
                Path target = Files.readSymbolicLink(next);
                for (Path n : target) {
                    if (n.toString().equals("..")) {
                        throw new IOException("reached through the symbolic link " + next + ", which holds ..: not"
                                + " writable (name its real place)");
                    }
                }
                Path rest = i + 1 < todo.getNameCount() ? todo.subpath(i + 1, todo.getNameCount()) : null;
                Path base = target.isAbsolute() ? target : cur.resolve(target);
                todo = (rest == null ? base : base.resolve(rest)).normalize();
                cur = Path.of("/");
                i = 0;
                continue;
            }
            if (!Files.exists(next, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException("does not exist");
            }
            cur = next;
            i++;
        }
        return cur;
    }

    /**
     * An agent's state directory, when it exists, as one area: the agents save their state through temporary files
     * renamed into it (Gemini CLI's {@code projects.json}, Codex's files; measured: with only its existing entries
     * writable, both stopped with EROFS/EACCES). Its configuration ({@link #AGENT_CONFIG}) is in the baseline, so an
     * existing one is protected inside the area by a read-only bind (mount; landlock's contained route, which binds
     * protected paths outside the project instead of making rules for them); an absent one can be created under
     * either (said by the baseline's line).
     */
    private static void agentState(Map<Path, Confinement.Area> areas, Path home, String dir, String why) {
        Path d = home.resolve(dir);
        if (Files.isDirectory(d, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            addQuietly(areas, d, why);
        }
    }

    private static void addQuietly(Map<Path, Confinement.Area> areas, Path p, String why) {
        if (Files.exists(p)) {
            add(areas, new ArrayList<>(), p, why);
        }
    }

    /** The areas with every one beneath another left out, shallowest first. */
    static List<Confinement.Area> outermost(Map<Path, Confinement.Area> areas) {
        List<Confinement.Area> sorted = new ArrayList<>(areas.values());
        sorted.sort(Comparator.comparingInt((Confinement.Area a) -> a.path().getNameCount())
                .thenComparing(Confinement.Area::path));
        List<Confinement.Area> out = new ArrayList<>();
        for (Confinement.Area a : sorted) {
            if (out.stream().noneMatch(o -> o.directory() && a.path().startsWith(o.path()))) {
                out.add(a);
            }
        }
        return out;
    }
}
