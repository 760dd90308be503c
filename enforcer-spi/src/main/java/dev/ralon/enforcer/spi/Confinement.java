package dev.ralon.enforcer.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Where the session may write outside the protected set's rules: the writable areas. Everything else is read-only to
 * the command and everything it starts, when the backend declares {@link Guarantee#WRITES_OUTSIDE} and this
 * confinement {@link #confined() is on}. Inside an area, what is protected stays protected.
 *
 * <p>The host builds it ({@code ralon run}: the project, temporary directories, the agents' state, the user's
 * additions) and hands it to {@link Enforcer#prepare(Plan, Command, Confinement)}.
 *
 * <p>With a {@link Copy} (the host asks for one only of a backend whose {@link Enforcer#copiesHome()} says it can),
 * the home directory is not read-only but a copy-on-write view for the session: every write there lands in the copy's
 * store and none reaches the real directory, except beneath the areas, which stay the real places.
 *
 * @param confined whether writes outside the areas are to be refused at all ({@code false}: the user chose
 *                 {@code --write-anywhere}, or the host does not confine)
 * @param areas    absolute, real paths, none beneath another (but one beneath the copy's path, which may lie beneath
 *                 an area outside it: a home directory under /tmp); each an existing directory or file
 * @param copy     the home directory's copy-on-write view, or null: read-only as everything else outside the areas
 *
 * @since 0.1.0
 */
@Experimental("the session's confinement of writes; its shape may change before 1.0")
public record Confinement(boolean confined, List<Area> areas, Copy copy) {
    /** No confinement: the backend's own rules only. */
    public static final Confinement NONE = new Confinement(false, List.of());

    public Confinement {
        areas = List.copyOf(areas);
        for (Area a : areas) {
            for (Area b : areas) {
                // beneath another only across the copy's edge: b outside the copy and holding it, a inside it
                boolean acrossTheCopy = copy != null && a.path().startsWith(copy.path())
                        && !b.path().startsWith(copy.path());
                if (a != b && a.path().startsWith(b.path()) && !acrossTheCopy) {
                    throw new IllegalArgumentException(a.path() + " lies beneath " + b.path());
                }
            }
        }
        if (copy != null && !confined) {
            throw new IllegalArgumentException("a copy of " + copy.path() + " without confinement");
        }
    }

    /** Without a copy: everything outside the areas read-only. */
    public Confinement(boolean confined, List<Area> areas) {
        this(confined, areas, null);
    }

    /**
     * A copy-on-write view of {@code path} (the home directory) for the session: an overlay whose lower layer is the
     * real directory and whose upper layer, {@code upper}, keeps every change (with {@code work}, the overlay's work
     * directory, on the same file system). The backend must make {@code store} (which holds both and lies in or
     * outside {@code path}) unreachable from the session but through the overlay, and keep the areas beneath
     * {@code path} the real places.
     *
     * @param path  absolute and real: the directory seen as a copy
     * @param store absolute and real: the directory holding {@code upper} and {@code work}, hidden from the session
     * @param upper absolute and real, an existing empty or earlier-used directory of the invoker's
     * @param work  absolute and real, beside {@code upper}
     *
     * @since 0.1.0
     */
    @Experimental("the session's copy of the home directory")
    public record Copy(Path path, Path store, Path upper, Path work) {
        public Copy {
            for (Path p : List.of(path, store, upper, work)) {
                if (!p.isAbsolute()) {
                    throw new IllegalArgumentException("not absolute: " + p);
                }
            }
            if (!upper.startsWith(store) || !work.startsWith(store)) {
                throw new IllegalArgumentException("the copy's layers lie outside its store " + store);
            }
        }
    }

    /**
     * One writable area.
     *
     * @param path      absolute and real (no symbolic link on the way)
     * @param directory whether it is a directory (everything beneath it is writable) or one file (written in place
     *                  only: nothing can be created beside it)
     * @param why       for whom it is writable, in a few words ({@code "project"}, {@code "temporary files"},
     *                  {@code "Claude Code's state"})
     *
     * @since 0.1.0
     */
    @Experimental("the session's confinement of writes")
    public record Area(Path path, boolean directory, String why) {
        public Area {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(why, "why");
            if (!path.isAbsolute()) {
                throw new IllegalArgumentException("not absolute: " + path);
            }
            path = path.normalize();
        }
    }
}
