package dev.ralon.policy.walk;

import dev.ralon.policy.Paths2;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * One entry of a directory listing, as the walker hands it to each {@link WalkVisitor}. Its type comes from the
 * listing when the {@link DirectoryReader} gave it; otherwise it is read ({@code lstat}, never following a final
 * symbolic link) the first time a visitor asks, and at most once.
 */
final class WalkEntry {
    private final Path root;
    private final Path dir;
    private final String name;
    private final String rel;
    private final boolean throughLink;
    private Path path;
    private DirectoryReader.Type type;
    private Exception failure;
    private String realRel;
    private boolean skipped;

    /**
     * @param throughLink whether {@code dir} was reached through a symbolic link: then {@code rel} is the entry's
     *                    lexical path (through the link) and its real path differs
     */
    WalkEntry(Path root, Path dir, String rel, boolean throughLink, DirectoryReader.Listed listed) {
        this.root = root;
        this.dir = dir;
        this.name = listed.name();
        this.rel = rel;
        this.throughLink = throughLink;
        this.path = listed.path();
        this.type = listed.type() == DirectoryReader.Type.UNKNOWN ? null : listed.type();
    }

    /** The entry's name, as this JVM decoded it. */
    String name() {
        return name;
    }

    /** The directory it was listed from (the real directory, beneath a symbolic link). */
    Path dir() {
        return dir;
    }

    /** Its lexical path relative to the root, '/'-separated (through a linked directory: the link's path). */
    String rel() {
        return rel;
    }

    /** Its absolute path (beneath a linked directory: beneath the link's real target). */
    Path path() {
        if (path == null) {
            path = dir.resolve(name);
        }
        return path;
    }

    /** Whether it was reached through a symbolic link to a directory (its real path is not {@link #rel()}). */
    boolean throughLink() {
        return throughLink;
    }

    /**
     * What it is, not following a final symbolic link: from the listing, or read once; null when it cannot be read
     * ({@link #failure()} says why).
     */
    DirectoryReader.Type type() {
        if (type == null && failure == null) {
            try {
                type = typeOf(Files.readAttributes(path(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
            } catch (IOException | SecurityException e) {
                failure = e;
            }
        }
        return type;
    }

    /** Whether it is known already (from the listing, or read) to be neither a directory nor a symbolic link. */
    boolean knownLeaf() {
        return type == DirectoryReader.Type.FILE || type == DirectoryReader.Type.OTHER;
    }

    static DirectoryReader.Type typeOf(BasicFileAttributes a) {
        if (a.isSymbolicLink()) {
            return DirectoryReader.Type.SYMLINK;
        }
        if (a.isDirectory()) {
            return DirectoryReader.Type.DIRECTORY;
        }
        return a.isRegularFile() ? DirectoryReader.Type.FILE : DirectoryReader.Type.OTHER;
    }

    /**
     * Why {@link #type()} is null: a {@link java.nio.file.NoSuchFileException} when the entry was removed since
     * it was listed, another exception when it cannot be examined (in a directory that can be listed but not searched,
     * names are known, not what they are); null before the attributes were asked for or when they were read.
     */
    Exception failure() {
        return failure;
    }

    /** Whether the entry was removed since it was listed (found when its type was read). */
    boolean vanished() {
        return failure instanceof java.nio.file.NoSuchFileException;
    }

    /** Its real path relative to the root ({@link #rel()} unless reached through a link); null when outside it. */
    String realRel() {
        if (realRel == null) {
            realRel = !throughLink ? rel : Paths2.relativeBeneath(root, path());
        }
        return realRel;
    }

    /** Hides the entry from the visitors after the current one, and keeps the walker out of it. */
    void skip() {
        skipped = true;
    }

    boolean skipped() {
        return skipped;
    }
}
