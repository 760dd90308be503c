package dev.ralon.host;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * What Landlock's create-restricted directories mean for a coding agent, said once at the start of {@code ralon run},
 * and the one remedy Ralon can apply itself ({@code --create-agent-state}).
 *
 * <p>Landlock rules only grant (docs/backend-landlock.md): every directory on the way to a protected path keeps its
 * entries but gets no right to create, remove or rename one. When that directory is {@code $HOME}, an agent's first
 * run cannot create its state directory ({@code ~/.claude}, {@code ~/.codex}, {@code ~/.gemini}) and Claude Code
 * cannot save {@code ~/.claude.json}, which it replaces through a temporary file beside it; when it is the project
 * root, no new file can appear there ({@code .mcp.json}, {@code .gemini/}, {@code NOTES.md}). And a process under a
 * Landlock domain cannot change the mount topology (landlock(7): sandboxed processes may not mount, unmount or
 * pivot_root), so a bubblewrap sandbox the agent starts inside fails ("Failed to make / slave"). The mount backend
 * has none of these costs.
 */
public final class AgentsUnderLandlock {
    /** The agents' state directories in {@code $HOME}: their own state, never a protected path of a project. */
    public static final List<String> STATE_DIRECTORIES = Agents.ALL.stream().map(Agents.Agent::state).toList();
    /** Executable names that start a coding agent this note is for. */
    public static final Set<String> AGENTS = Agents.ALL.stream().map(Agents.Agent::executable)
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private AgentsUnderLandlock() {
    }

    /**
     * The note for {@code command} run under {@code backend}, whose plan makes {@code createRestricted} directories
     * create-restricted ({@link dev.ralon.enforcer.spi.Plan#createRestricted()}) and which refuses mount(2) when
     * {@code deniesMount} ({@link dev.ralon.enforcer.spi.Enforcer#deniesMount()}); an empty list when the command is
     * not a known agent (other commands get the general create-restricted summary only). Read from the plan and the
     * backend's declarations, never from its name: a third party's backend with the same costs gets the same note.
     */
    public static List<String> note(String command, String backend, Collection<Path> createRestricted,
                                    boolean deniesMount, Path home, Path projectRoot) {
        Path fileName = Path.of(command).getFileName(); // null for "/": no agent (`ralon run -- /` fails at exec)
        if (fileName == null || !AGENTS.contains(fileName.toString())) {
            return List.of();
        }
        String prefix = "agents under " + backend + ": ";
        List<String> lines = new ArrayList<>();
        home = real(home);
        projectRoot = real(projectRoot);
        boolean homeRestricted = home != null && createRestricted.contains(home);
        boolean rootRestricted = projectRoot != null && createRestricted.contains(projectRoot);
        if (homeRestricted) {
            List<String> missing = missingStateDirectories(home);
            lines.add(prefix + "nothing can be created in " + home + " during this run, so "
                    + (missing.isEmpty() ? "" : "the missing state directories (" + String.join(", ", missing)
                    + ") cannot be made and ")
                    + "Claude Code cannot save ~/.claude.json (it writes a temporary file beside it); use the mount "
                    + "backend where user namespaces work, or --create-agent-state (and CLAUDE_CONFIG_DIR=~/.claude), "
                    + "docs/integrations.md, \"Agents under Landlock\"");
        }
        if (rootRestricted) {
            lines.add(prefix + "no new file can appear in the project root " + projectRoot
                    + " (.mcp.json, .gemini/, NOTES.md); create what the agent needs there before the run");
        }
        if (deniesMount) {
            lines.add(prefix + "a sandbox the agent starts itself cannot (bubblewrap needs mount, which " + backend
                    + " refuses): run Codex with --sandbox danger-full-access and Claude Code without its sandbox, "
                    + "Ralon is the boundary; or use the mount backend");
        }
        return lines;
    }

    /** {@code p} with links resolved when it exists (the plan lists real paths), else as given. */
    public static Path real(Path p) {
        try {
            return p == null ? null : p.toRealPath();
        } catch (IOException e) {
            return p;
        }
    }

    public static List<String> missingStateDirectories(Path home) {
        List<String> missing = new ArrayList<>();
        for (String d : STATE_DIRECTORIES) {
            if (!Files.exists(home.resolve(d), LinkOption.NOFOLLOW_LINKS)) {
                missing.add("~/" + d);
            }
        }
        return missing;
    }

    /**
     * {@code --create-agent-state}: creates each missing state directory in {@code home} (mode 0700, the user's own),
     * before the plan is made, so that under Landlock they exist as writable siblings. Never follows or replaces a link;
     * an entry that exists is left as it is. Returns the directories created.
     */
    public static List<Path> createStateDirectories(Path home) throws IOException {
        List<Path> created = new ArrayList<>();
        for (String d : STATE_DIRECTORIES) {
            Path p = home.resolve(d);
            try {
                Files.createDirectory(p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                created.add(p);
            } catch (FileAlreadyExistsException e) {
                // there already (a directory, a file or a link): the user's, left alone
            }
        }
        return created;
    }
}
