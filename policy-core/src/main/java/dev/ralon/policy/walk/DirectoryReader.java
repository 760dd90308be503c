package dev.ralon.policy.walk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Lists a directory with each entry's type when the file system gives it for free, so that the walk reads an entry's
 * type itself ({@code lstat}) only where the listing did not say. policy-core stays pure Java: its own reader
 * ({@link #JAVA}) lists with {@link java.nio.file.DirectoryStream}, which drops the types the kernel returned; a host
 * that can call {@code getdents64(2)} (whose {@code d_type} ext4, xfs, btrfs and tmpfs fill in) installs a faster one
 * with {@link #use}. A reader that cannot list a directory exactly as {@link #JAVA} would (an error, a name it cannot
 * decode as this JVM would) returns null, and the walk lists that directory with {@link #JAVA}: errors and their
 * wording stay those of the one Java path.
 */
public interface DirectoryReader {
    /** What an entry is, as the listing says; {@link #UNKNOWN} when it does not say (then the walk asks lstat). */
    enum Type { FILE, DIRECTORY, SYMLINK, OTHER, UNKNOWN }

    /**
     * One entry: its name, decoded as this JVM decodes file names; its path (null: {@code dir.resolve(name)}); its
     * type.
     */
    record Listed(String name, Path path, Type type) {
    }

    /**
     * The entries of {@code dir} (not "." and ".."), in any order; null when this reader cannot list it exactly (the
     * walk then uses {@link #JAVA}).
     *
     * @throws IOException only from {@link #JAVA}
     */
    List<Listed> list(Path dir) throws IOException;

    /** {@link java.nio.file.DirectoryStream}: every type {@link Type#UNKNOWN}; never null. */
    DirectoryReader JAVA = JavaDirectoryReader.INSTANCE;

    /** Makes {@code reader} the one every later walk of this process uses ({@code null}: back to {@link #JAVA}). */
    static void use(DirectoryReader reader) {
        JavaDirectoryReader.installed = reader == null ? JAVA : reader;
    }

    /** The reader walks use now. */
    static DirectoryReader installed() {
        return JavaDirectoryReader.installed;
    }
}
