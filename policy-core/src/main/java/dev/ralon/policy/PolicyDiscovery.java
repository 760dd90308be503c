package dev.ralon.policy;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds the policy files in force for a directory (docs/spec.md §2): {@value #FILE_NAME} in the directory and in
 * every directory above it, up to the file system root. Policies only add: a nearer file never replaces a farther
 * one, so a file an agent plants in a subdirectory can add protection but never remove any.
 *
 * <p>Anything named agent.lock counts (a directory or a link named agent.lock is found, and then refused by the
 * loader with a clear message, rather than skipped). A directory on the way whose entry cannot be examined (no search
 * permission, an I/O error) is an error, never a skipped policy.
 *
 * <p>Tools that check a project rather than enforce on it (the Maven plugin) may stop at the project's repository:
 * {@link #inRepository} splits the files in force into those inside the repository and those above it, so that a
 * project nested under a directory with an agent.lock of its own neither walks nor judges that directory's tree.
 * Enforcement ({@code ralon run}, the hooks) always uses {@link #inForce}: policies only add.
 */
public final class PolicyDiscovery {
    public static final String FILE_NAME = "agent.lock";

    private PolicyDiscovery() {
    }

    /**
     * Every {@value #FILE_NAME} in force for {@code dir}: the directory's own and each ancestor's, farthest (nearest
     * the file system root) first. When {@code dir} exists and its real path differs from its lexical path (a symbolic
     * link on the way), the ancestors of both count: a policy cannot be escaped by naming the same directory another
     * way. The directory need not exist (its existing ancestors are searched).
     *
     * @param dir absolute, or relative to the working directory
     * @return absolute paths, each file once, farthest first; empty when none is in force
     * @throws PolicyException (kind {@link ErrorKind#UNREADABLE}) when whether a directory on the way holds an
     *                         agent.lock cannot be told
     */
    public static List<Path> inForce(Path dir) throws PolicyException {
        Path lexical = dir.toAbsolutePath().normalize();
        Set<Path> found = new LinkedHashSet<>(chain(lexical));
        Path real = realOrNull(lexical);
        if (real != null && !real.equals(lexical)) {
            found.addAll(chain(real));
        }
        return List.copyOf(found);
    }

    /**
     * The files in force at {@code dir} ({@link #inForce}), split at the root of the git repository that holds
     * {@code dir} ({@link #repositoryRoot}). Without a repository every file is inside.
     *
     * @param dir absolute, or relative to the working directory; need not exist
     * @throws PolicyException as {@link #inForce}
     */
    public static InRepository inRepository(Path dir) throws PolicyException {
        List<Path> all = inForce(dir);
        Path root = repositoryRoot(dir);
        if (root == null) {
            return new InRepository(null, all, List.of());
        }
        List<Path> inside = new ArrayList<>();
        List<Path> outside = new ArrayList<>();
        for (Path f : all) { // each file is named by its directory's real path, as root is
            (f.getParent().startsWith(root) ? inside : outside).add(f);
        }
        return new InRepository(root, List.copyOf(inside), List.copyOf(outside));
    }

    /**
     * The policy files in force at a directory, split at its repository's root.
     *
     * @param repositoryRoot the real path of the repository's top directory; {@code null} when there is none
     * @param inside         the files at or below {@code repositoryRoot} (every file when there is no repository),
     *                       farthest first
     * @param outside        the files above it, farthest first
     */
    public record InRepository(Path repositoryRoot, List<Path> inside, List<Path> outside) {
    }

    /**
     * The top directory of the git work tree that holds {@code dir}: the nearest of its real path and that path's
     * ancestors holding an entry named {@code .git} (a directory in a clone; a file in a linked work tree or a
     * submodule, gitrepository-layout(5)), found the way git finds it without {@code GIT_DIR}, and without running git.
     * git never checks out a path with a {@code .git} component ({@code verify_path} in git's read-cache.c), so a
     * commit cannot plant a nested one; a submodule is a repository of its own. An entry that cannot be examined
     * counts as absent (the search goes on upwards: more is checked, never less).
     *
     * @param dir absolute, or relative to the working directory; need not exist
     * @return the real path of that directory, or {@code null} when no ancestor holds {@code .git}
     */
    public static Path repositoryRoot(Path dir) {
        Path lexical = dir.toAbsolutePath().normalize();
        Path start = realOrNull(lexical);
        for (Path d = start != null ? start : lexical; d != null; d = d.getParent()) {
            if (Files.exists(d.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) {
                Path real = realOrNull(d);
                return real != null ? real : d;
            }
        }
        return null;
    }

    /**
     * The agent.lock files of {@code dir} and its ancestors, farthest first, each named by its directory's real path
     * (so that one file reached two ways is found once).
     */
    private static List<Path> chain(Path dir) throws PolicyException {
        List<Path> nearestFirst = new ArrayList<>();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (!isDirectory(d)) {
                continue; // does not exist (yet), or is not a directory: it holds no agent.lock
            }
            Path candidate = d.resolve(FILE_NAME);
            try {
                Files.readAttributes(candidate, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                nearestFirst.add(d.toRealPath().resolve(FILE_NAME));
            } catch (NoSuchFileException e) {
                // none here
            } catch (IOException | SecurityException e) {
                throw cannotTell(candidate, e);
            }
        }
        List<Path> out = new ArrayList<>(nearestFirst.size());
        for (int i = nearestFirst.size() - 1; i >= 0; i--) {
            out.add(nearestFirst.get(i));
        }
        return out;
    }

    private static boolean isDirectory(Path d) throws PolicyException {
        try {
            return Files.readAttributes(d, BasicFileAttributes.class).isDirectory();
        } catch (NoSuchFileException e) {
            return false;
        } catch (FileSystemException e) {
            if ("Not a directory".equals(e.getReason())) {
                return false; // ENOTDIR: a leading part is a file
            }
            throw cannotTell(d.resolve(FILE_NAME), e);
        } catch (IOException | SecurityException e) {
            throw cannotTell(d.resolve(FILE_NAME), e);
        }
    }

    private static PolicyException cannotTell(Path candidate, Exception e) {
        String why = e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : String.valueOf(e.getMessage());
        return new PolicyException(ErrorKind.UNREADABLE, candidate, 0, 0,
                "cannot tell whether this policy file exists (" + why + "); a policy that may be in force is never skipped");
    }

    private static Path realOrNull(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | SecurityException e) {
            return null;
        }
    }
}
