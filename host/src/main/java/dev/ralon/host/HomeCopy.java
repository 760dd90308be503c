package dev.ralon.host;

import dev.ralon.enforcer.spi.Confinement;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * The session's copy of the home directory (docs/security.md, "The copy of the home directory"): under a backend that
 * {@linkplain dev.ralon.enforcer.spi.Enforcer#copiesHome() can make one}, {@code $HOME} is a copy-on-write view for the
 * session, so that every write there succeeds (caches are made, tools install, agents save their settings) and none
 * reaches the real directory, which a later program outside would read. Its changes are kept per project between that
 * project's sessions, in a store of the invoker's: {@code ~/.local/state/ralon/homes/<id>/} ({@code upper/}, the
 * changes; {@code work/}, the overlay's work directory; {@code project}, the project's path), which the backend hides
 * from the session.
 *
 * <p>Guaranteed: a store that is not what Ralon made (a symbolic link on the way, not the invoker's, writable by
 * others, a layer that is not a directory) is refused in one line and never used; nothing of the real home directory
 * is changed by making, using or refusing a store. Not copied (read-only to the session as before, said by
 * {@link #unavailable}): a home directory that is not a plain directory of the invoker's, whose path the overlay's
 * options cannot carry, or with a file system mounted beneath it.
 */
public final class HomeCopy {
    /** Where the stores live, relative to the home directory. */
    public static final String STORES = ".local/state/ralon/homes";
    /** The file in a store naming its project. */
    static final String PROJECT_FILE = "project";
    private static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rwx------");

    private HomeCopy() {
    }

    /**
     * Why {@code home} cannot be given a copy here, in a few words, or null when it can. Reads the mount table and the
     * kernel's file system list; changes nothing.
     */
    public static String unavailable(Path home) {
        if (home == null || home.getParent() == null) {
            return "no home directory ($HOME unset, relative or /)";
        }
        String s = home.toString();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ',' || c == ':' || c == '\\' || Character.isISOControl(c)) {
                return "its path holds a character an overlay's options cannot carry (',', ':', '\\')";
            }
        }
        try {
            if (!Files.isDirectory(home, LinkOption.NOFOLLOW_LINKS)
                    || (Integer) Files.getAttribute(home, "unix:uid", LinkOption.NOFOLLOW_LINKS) != WritableAreas.uid()) {
                return "it is not a directory of yours (a symbolic link, or another user's)";
            }
            if (Files.readAllLines(Path.of("/proc/filesystems")).stream().noneMatch(l -> l.endsWith("\toverlay"))) {
                return "this kernel has no overlayfs";
            }
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
                String[] f = line.split(" ");
                // proc(5), /proc/PID/mountinfo: the 5th field is the mount point, octal-escaped
                if (f.length > 4 && f[4].startsWith(s + "/")) {
                    return "a file system is mounted beneath it (" + f[4] + "), which a copy cannot hold";
                }
            }
        } catch (IOException | RuntimeException e) {
            return "cannot examine it: " + e.getMessage();
        }
        return null;
    }

    /** The store for the project at {@code project} (absolute, real), beneath {@code home}; nothing is made. */
    public static Path store(Path home, Path project) {
        byte[] id = dev.ralon.linux.Sha256.digest(project.toString().getBytes(StandardCharsets.UTF_8));
        String name = String.valueOf(project.getFileName()).replaceAll("[^A-Za-z0-9._-]", "_");
        if (name.length() > 32) {
            name = name.substring(0, 32);
        }
        return home.resolve(STORES).resolve(HexFormat.of().formatHex(id, 0, 8) + "-" + name);
    }

    /**
     * Where the tools' caches of the project's sessions go when there is no copy ({@link #CACHE_VARIABLES}; the
     * landlock route, a home that cannot be copied): {@code caches/} in the project's store, so that {@code ralon home}
     * shows and drops it with the copy; nothing is made.
     */
    public static Path caches(Path home, Path project) {
        return store(home, project).resolve("caches");
    }

    /**
     * The standard variables that point the tools' caches into {@link #caches} (each only when the user has not set
     * it): the XDG cache (pip, Go's build cache, node-gyp, yarn and most others), npm's cache, Go's module cache.
     * Maven's and Gradle's homes also hold settings and credentials, so they are not moved (docs/security.md).
     */
    public static final List<String[]> CACHE_VARIABLES = List.of(new String[] {"XDG_CACHE_HOME", "xdg"},
            new String[] {"npm_config_cache", "npm"}, new String[] {"GOMODCACHE", "go-mod"});

    /** Makes {@link #caches} (each missing directory from {@code ~/.local} down, mode 0700) and checks it, as {@link #make}. */
    public static void makeCaches(Path home, Path project) {
        Path store = store(home, project);
        Path caches = caches(home, project);
        try {
            makeStore(home, store);
            if (!Files.exists(caches, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(caches, PosixFilePermissions.asFileAttribute(PRIVATE));
            }
            check(caches, true);
            writeProject(store, project);
        } catch (IOException | RuntimeException e) {
            throw new HostException("the tool caches of this project (" + caches + ") cannot be used: "
                    + e.getMessage() + "; remove " + store + " to start afresh (nothing was started)");
        }
    }

    /** The copy of {@code home} for the project at {@code project}, as the backend is given it; nothing is made. */
    public static Confinement.Copy of(Path home, Path project) {
        Path store = store(home, project);
        return new Confinement.Copy(home, store, store.resolve("upper"), store.resolve("work"));
    }

    /**
     * Makes the store of {@code copy} for the project at {@code project} (each missing directory from
     * {@code ~/.local} down, mode 0700) and checks it: every directory on the way from the home directory down is a
     * directory of the invoker's, not a link; the store and its layers are the invoker's, mode 0700.
     *
     * @throws HostException when it is damaged or foreign (one line naming it and the fix); nothing was started
     */
    public static void make(Confinement.Copy copy, Path project) {
        Path home = copy.path();
        try {
            makeStore(home, copy.store());
            for (Path layer : List.of(copy.upper(), copy.work())) {
                if (!Files.exists(layer, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectory(layer, PosixFilePermissions.asFileAttribute(PRIVATE));
                }
                check(layer, true);
            }
            writeProject(copy.store(), project);
        } catch (IOException | RuntimeException e) {
            throw new HostException("the copy of your home directory for this project (" + copy.store() + ") cannot"
                    + " be used: " + e.getMessage() + "; remove it (its changes are lost) to start a fresh one, or run"
                    + " with --write-anywhere (nothing was started)");
        }
    }

    /** Each missing directory from the home directory down to {@code store} made (0700) and every one checked. */
    private static void makeStore(Path home, Path store) throws IOException {
        Path at = home;
        for (Path name : home.relativize(store)) {
            at = at.resolve(name);
            boolean ours = at.startsWith(home.resolve(STORES));
            if (!Files.exists(at, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(at, PosixFilePermissions.asFileAttribute(PRIVATE));
            }
            check(at, ours);
        }
    }

    /** The store's {@code project} file, naming the project it belongs to, written once. */
    private static void writeProject(Path store, Path project) throws IOException {
        Path named = store.resolve(PROJECT_FILE);
        if (!Files.isRegularFile(named, LinkOption.NOFOLLOW_LINKS)) {
            if (Files.exists(named, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(named + " is not a file");
            }
            Files.writeString(named, project + "\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE_NEW,
                    java.nio.file.StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        }
    }

    // ------------------------------------------------------------------ seeing and managing the copies (ralon home)

    /** What a session changed in the copy, as the real home directory would see it. */
    public enum Change {
        /** A file, link or directory the real home directory does not have. */
        NEW,
        /** A file or link the copy holds instead of the real one (changed, or replaced). */
        CHANGED,
        /** A name the session removed in the copy (an overlay whiteout). */
        REMOVED
    }

    /** One path changed in a copy, relative to the home directory. */
    public record Changed(Path path, Change change) {
    }

    /** One store: the project it belongs to (as its {@code project} file says), its size on disk, its last change. */
    public record Store(Path path, String project, long bytes, java.time.Instant changed) {
    }

    /** The stores beneath {@code home}, by project; none when there are none. Follows no link. */
    public static List<Store> stores(Path home) throws IOException {
        Path dir = home.resolve(STORES);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        List<Store> out = new java.util.ArrayList<>();
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    out.add(describe(p));
                }
            }
        }
        return out;
    }

    /** The store {@code p} (a directory): its project, the size of its upper layer, its last change. */
    public static Store describe(Path p) throws IOException {
        Path named = p.resolve(PROJECT_FILE);
        String project = Files.isRegularFile(named, LinkOption.NOFOLLOW_LINKS)
                ? Files.readString(named, StandardCharsets.UTF_8).strip() : "?";
        long[] bytes = {0};
        java.time.Instant[] last = {Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toInstant()};
        for (String part : List.of("upper", "caches")) { // the copy's changes, and the tool caches of sessions without one
            walk(p.resolve(part), (f, a) -> {
                bytes[0] += a.isRegularFile() ? a.size() : 0;
                if (a.lastModifiedTime().toInstant().isAfter(last[0])) {
                    last[0] = a.lastModifiedTime().toInstant();
                }
            });
        }
        return new Store(p, project, bytes[0], last[0]);
    }

    /**
     * What the copy in {@code store} changed, against the real {@code home}, in name order: every file and link of its
     * upper layer (new or changed), every whiteout (removed: overlayfs's character device 0:0), and every directory
     * the real home lacks (new). Follows no link.
     */
    public static List<Changed> changes(Path home, Path store) throws IOException {
        Path upper = store.resolve("upper");
        List<Changed> out = new java.util.ArrayList<>();
        walk(upper, (f, a) -> {
            Path rel = upper.relativize(f);
            if (rel.toString().isEmpty()) {
                return;
            }
            boolean inHome = Files.exists(home.resolve(rel), LinkOption.NOFOLLOW_LINKS);
            if (a.isOther()) {
                out.add(new Changed(rel, Change.REMOVED)); // a whiteout (a character device 0:0)
            } else if (a.isDirectory()) {
                if (!inHome) {
                    out.add(new Changed(rel, Change.NEW));
                }
            } else {
                out.add(new Changed(rel, inHome ? Change.CHANGED : Change.NEW));
            }
        });
        out.sort(java.util.Comparator.comparing(Changed::path));
        return out;
    }

    /**
     * Copies {@code rel} (a regular file of the copy in {@code store}, relative to the home directory) out to the real
     * home directory, on purpose: the one way something of a copy reaches it. Refused (IOException, one line) for a
     * path that is not a regular file of the copy, leaves the home directory, lies beneath a link in either, or names an
     * existing file unless {@code replace}.
     */
    public static Path keep(Path home, Path store, Path rel, boolean replace) throws IOException {
        Path r = rel.normalize();
        if (r.isAbsolute() || r.toString().isEmpty() || r.startsWith("..")) {
            throw new IOException(rel + ": not a path inside the home directory (give it relative to ~)");
        }
        Path upper = store.resolve("upper");
        Path from = upper.resolve(r);
        Path to = home.resolve(r);
        for (Path p = r.getParent(); p != null; p = p.getParent()) {
            if (Files.isSymbolicLink(upper.resolve(p)) || Files.isSymbolicLink(home.resolve(p))) {
                throw new IOException(rel + ": a symbolic link is on the way (" + p + ")");
            }
        }
        if (!Files.isRegularFile(from, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(rel + ": not a file of this project's copy (`ralon home` lists them)");
        }
        if (Files.exists(to, LinkOption.NOFOLLOW_LINKS) && !replace) {
            throw new IOException("~/" + r + " exists: --replace to replace it with the copy's");
        }
        Path parent = to.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Path tmp = to.resolveSibling("." + to.getFileName() + ".ralon-keep");
        Files.copy(from, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING, LinkOption.NOFOLLOW_LINKS);
        Files.move(tmp, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return to;
    }

    /** Removes {@code store} whole, following no link; what is left of the real home directory is untouched. */
    public static void drop(Path home, Path store) throws IOException {
        if (!store.startsWith(home.resolve(STORES)) || store.equals(home.resolve(STORES))) {
            throw new IOException(store + " is not a store of " + home.resolve(STORES));
        }
        if (!Files.exists(store, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        deleteTree(store);
    }

    /**
     * Removes {@code p} and everything beneath it. The overlay's {@code work/work} is made mode 0000 and a tool's
     * directories may be read-only (Go's module cache): each directory is made the owner's before it is listed. A link
     * is removed as itself, never followed.
     */
    private static void deleteTree(Path p) throws IOException {
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            Files.setPosixFilePermissions(p, PRIVATE);
            try (java.nio.file.DirectoryStream<Path> entries = Files.newDirectoryStream(p)) {
                for (Path e : entries) {
                    deleteTree(e);
                }
            }
        }
        Files.delete(p);
    }

    private interface Visitor {
        void visit(Path p, java.nio.file.attribute.BasicFileAttributes a) throws IOException;
    }

    private static void walk(Path dir, Visitor v) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(dir, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(Path d, java.nio.file.attribute.BasicFileAttributes a)
                    throws IOException {
                v.visit(d, a);
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes a)
                    throws IOException {
                v.visit(f, a);
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path f, IOException e) {
                return java.nio.file.FileVisitResult.CONTINUE; // unreadable (a tool's mode 000 file): not listed
            }
        });
    }

    /** A directory of the invoker's, no link; {@code private} also: mode 0700 exactly. */
    private static void check(Path p, boolean privateDir) throws IOException {
        if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(p + " is a symbolic link or not a directory");
        }
        if ((Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS) != WritableAreas.uid()) {
            throw new IOException(p + " is not yours");
        }
        if (privateDir && !Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS).equals(PRIVATE)) {
            throw new IOException(p + " is not private to you (mode 0700)");
        }
    }
}
