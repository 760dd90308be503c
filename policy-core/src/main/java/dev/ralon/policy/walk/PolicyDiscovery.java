package dev.ralon.policy.walk;

import dev.ralon.policy.ErrorKind;
import dev.ralon.policy.PolicyException;

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
 * Enforcement ({@code ralon run}, the hooks) always uses {@link #inForce} or {@link #inTree}: policies only add.
 *
 * <p>A tool acting for a working directory ({@code ralon run}, {@code check}, {@code status}) uses {@link #inTree}:
 * the files in force there and every {@value #FILE_NAME} below the <em>tree</em>'s top (the directory of the
 * outermost file found upwards, or the directory itself when none is), so that a policy nested anywhere in the tree it
 * works on is in force, as git reads every {@code .gitignore}.
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
     * The files in force for a tool working in {@code dir} (docs/spec.md §2.1): every file {@link #inForce} at
     * {@code dir} and every {@value #FILE_NAME} below the tree's top ({@link Tree#files} says in which order). The tree's top is the
     * directory of the outermost file in force at {@code dir} that holds {@code dir}'s real path, or that real path
     * itself when none does.
     *
     * <p>The walk below the top skips nothing (not {@code .git}, not {@code node_modules}: a skipped directory would be
     * a place to hide a policy from the run while the hook, which judges a file by the policies above it, sees it). It
     * never follows a symbolic link (a directory inside the tree is reached by its real path anyway; one outside is
     * not part of the tree), so it lists each directory of the tree once and is bounded by the tree's size. Anything
     * named agent.lock counts, as upwards: a link, a directory or a fifo named so is found and then refused by the
     * loader. A directory that cannot be listed, or an entry whose type cannot be told, is an error, never a skipped
     * policy.
     *
     * @param dir absolute, or relative to the working directory; when it does not exist, nothing below it is searched
     * @throws PolicyException (kind {@link ErrorKind#UNREADABLE}) when whether the tree holds an agent.lock somewhere
     *                         cannot be told
     */
    public static Tree inTree(Path dir) throws PolicyException {
        return inTree(dir, DirectoryReader.installed());
    }

    static Tree inTree(Path dir, DirectoryReader reader) throws PolicyException {
        return tree(dir, (top, lexical) -> below(top, reader));
    }

    /** The files below a tree's top that count, given the top (real) and the working directory (lexical). */
    private interface Below {
        List<Path> find(Path top, Path lexical) throws PolicyException;
    }

    /**
     * The order of the files of a tree (and of the rules a check lists, spec §12.2): shallowest directory first, equal
     * depths by path compared code point by code point (not by UTF-16 unit, which puts U+E000–U+FFFF after astral
     * characters).
     */
    static final java.util.Comparator<Path> ORDER = java.util.Comparator.comparingInt(Path::getNameCount)
            .thenComparing(p -> p.toString(), PolicyDiscovery::byCodePoints);

    private static int byCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /**
     * The tree of {@code dir}: its top (the outermost policy's directory that holds dir's real path, or that path),
     * and the files in force at dir plus those {@code below} finds, in the same order whatever the directory in the
     * tree: the files at or above the top (farthest first), then every file strictly inside the top, shallowest first,
     * then by path ({@link #ORDER}, which orders both).
     */
    private static Tree tree(Path dir, Below below) throws PolicyException {
        List<Path> above = inForce(dir);
        Path lexical = dir.toAbsolutePath().normalize();
        Path real = realOrNull(lexical);
        Path nearest = above.isEmpty() ? null : above.get(above.size() - 1);
        if (real == null) {
            return new Tree(lexical, above, nearest);
        }
        Path top = real;
        for (Path f : above) {
            Path d = f.getParent();
            if (real.startsWith(d) && d.getNameCount() < top.getNameCount()) {
                top = d;
            }
        }
        List<Path> outer = new ArrayList<>();
        Set<Path> inside = new java.util.TreeSet<>(ORDER);
        for (Path f : above) {
            (f.getParent().startsWith(top) && !f.getParent().equals(top) ? inside : outer).add(f);
        }
        inside.addAll(below.find(top, lexical));
        inside.removeAll(outer);
        outer.sort(ORDER); // one chain of ancestors: farthest first already; two (through a link): still one order
        List<Path> files = new ArrayList<>(outer);
        files.addAll(inside);
        return new Tree(top, List.copyOf(files), nearest);
    }

    /** Every entry named agent.lock below {@code top} (a real directory), in walk order. */
    private static List<Path> below(Path top, DirectoryReader reader) throws PolicyException {
        PolicyFinder finder = new PolicyFinder();
        new TreeWalker(top, reader).with(finder).walk();
        if (finder.failure != null) {
            throw finder.failure;
        }
        return finder.found;
    }

    /**
     * {@link #inRepository}, with the tree of {@link #inTree} cut at the repository: {@code inside} also holds every
     * agent.lock below the directory of the outermost file inside the repository that holds {@code dir}'s real path
     * (or below {@code dir} itself when there is none), shallowest first; {@code outside} is as
     * {@link #inRepository} says. For a build-time checker of one project: the tree above the repository is another
     * project's.
     *
     * @throws PolicyException as {@link #inTree}
     */
    public static InRepository inRepositoryTree(Path dir) throws PolicyException {
        InRepository split = inRepository(dir);
        Path real = realOrNull(dir.toAbsolutePath().normalize());
        if (real == null) {
            return split;
        }
        Path top = real;
        for (Path f : split.inside()) {
            Path d = f.getParent();
            if (real.startsWith(d) && d.getNameCount() < top.getNameCount()) {
                top = d;
            }
        }
        List<Path> outer = new ArrayList<>();
        Set<Path> inside = new java.util.TreeSet<>(ORDER);
        for (Path f : split.inside()) {
            (f.getParent().startsWith(top) && !f.getParent().equals(top) ? inside : outer).add(f);
        }
        inside.addAll(below(top, DirectoryReader.installed()));
        inside.removeAll(outer);
        outer.sort(ORDER);
        List<Path> files = new ArrayList<>(outer);
        files.addAll(inside);
        return new InRepository(split.repositoryRoot(), List.copyOf(files), split.outside());
    }

    /**
     * The files in force for a tool working in a directory ({@link #inTree}).
     *
     * @param top   the tree's top directory (a real path; the directory as given when it does not exist)
     * @param files   every file in force: those at or above {@code top} (farthest first), then those inside the
     *                tree (shallowest first, then by path), the same list from any directory of the tree
     * @param nearest the file in force at the directory nearest to it (the last of {@link #inForce}), one of
     *                {@code files}; null when no file is in force at the directory itself (only below it)
     */
    public record Tree(Path top, List<Path> files, Path nearest) {
    }

    /** The walk's visitor for {@link #inTree}: every entry named agent.lock; enters directories, never links. */
    private static final class PolicyFinder implements WalkVisitor<Boolean> {
        final List<Path> found = new ArrayList<>();
        PolicyException failure;

        @Override
        public Boolean atRoot() {
            return Boolean.TRUE;
        }

        @Override
        public Boolean visit(Boolean state, WalkEntry child) {
            if (failure != null) {
                return null;
            }
            if (child.name().equals(FILE_NAME)) {
                found.add(child.path()); // whatever it is: the loader refuses what is not a regular file
                return null; // a directory named agent.lock is refused; what it holds does not matter
            }
            DirectoryReader.Type type = child.type();
            if (type == null) {
                if (!child.vanished()) {
                    Exception e = child.failure();
                    String why = e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                            : e instanceof FileSystemException f && f.getReason() != null ? f.getReason()
                            : String.valueOf(e == null ? null : e.getMessage());
                    failure = new PolicyException(ErrorKind.UNREADABLE, child.path(), 0, 0, "cannot examine this entry ("
                            + why + "): whether it is a directory that holds an agent.lock cannot be told; a policy"
                            + " that may be in force is never skipped");
                }
                return null;
            }
            return type == DirectoryReader.Type.DIRECTORY ? Boolean.TRUE : null; // never through a link
        }

        @Override
        public void cannotList(Boolean state, Path dir, Throwable why) {
            if (failure == null) {
                failure = cannotTell(dir.resolve(FILE_NAME), why instanceof Exception e ? e : new IOException(why));
            }
        }
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
