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
 * @param confined whether writes outside the areas are to be refused at all ({@code false}: the user chose
 *                 {@code --write-anywhere}, or the host does not confine)
 * @param areas    absolute, real paths, none beneath another; each an existing directory or file
 *
 * @since 0.1.0
 */
@Experimental("the session's confinement of writes; its shape may change before 1.0")
public record Confinement(boolean confined, List<Area> areas) {
    /** No confinement: the backend's own rules only. */
    public static final Confinement NONE = new Confinement(false, List.of());

    public Confinement {
        areas = List.copyOf(areas);
        for (Area a : areas) {
            for (Area b : areas) {
                if (a != b && a.path().startsWith(b.path())) {
                    throw new IllegalArgumentException(a.path() + " lies beneath " + b.path());
                }
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
