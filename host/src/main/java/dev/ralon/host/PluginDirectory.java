package dev.ralon.host;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The plugin directory of the single executable: {@code ralon-plugins/} beside the {@code ralon} file. Every
 * {@code *.jar} in it is a third-party enforcer, loaded by {@code ralon run} and {@code ralon status} in a class loader
 * of its own, in the same JVM the launcher started: so the command gets the same exec hygiene as the built-in
 * backends (RLIMIT_NOFILE, signal mask, descriptors; {@link dev.ralon.linux.Exec}), and the launcher's
 * start-up archive is untouched (the archive is keyed to the application class path, which plugins are not on).
 *
 * <p>Trust (the same rules as the launcher's {@code .ralon-cds}, docs/security.md): the directory and each jar must be
 * owned by the user running ralon or by root (all of them root's when the directory is root's: a shared install),
 * none may be a symbolic link, and none may be writable by group or others. Otherwise another user who can create
 * entries beside the executable without being able to replace it (a sticky directory such as {@code /tmp}) could plant
 * code that runs before anything is enforced. What fails a check is refused with one line and not loaded; the rest
 * loads.
 *
 * <p>There is no per-user plugin directory: an agent sandboxed by {@code ralon run} can usually write the home
 * directory, and a jar it plants there would run inside the user's next {@code ralon}, before anything is enforced,
 * with the power to report any plan as enforced. Whoever can write the executable's directory can already replace the
 * executable.
 */
public final class PluginDirectory {
    /** Its name, beside the executable. */
    public static final String NAME = "ralon-plugins";

    private final Path dir;
    private final List<Path> jars;
    private final List<String> refused;

    private PluginDirectory(Path dir, List<Path> jars, List<String> refused) {
        this.dir = dir;
        this.jars = List.copyOf(jars);
        this.refused = List.copyOf(refused);
    }

    /** The directory beside the executable this JVM was started from, or null when not started from one file. */
    public static Path location() {
        try {
            var cs = PluginDirectory.class.getProtectionDomain().getCodeSource();
            if (cs == null || cs.getLocation() == null) {
                return null;
            }
            Path exe = Path.of(cs.getLocation().toURI());
            return Files.isRegularFile(exe) ? exe.toAbsolutePath().getParent().resolve(NAME) : null;
        } catch (Exception e) { // a class path this is not a file of: no plugin directory
            return null;
        }
    }

    /**
     * The system property that makes {@link #find()} see no plugin directory: set by the start-up archive's training
     * run, so that the archive holds Ralon's own classes only, whatever plugins happen to be installed when it is made
     * (on JDK 25 a dynamic archive also stores classes of other class loaders). Setting it only takes plugins away.
     */
    public static final String IGNORED_PROPERTY = "ralon.plugins.ignored";

    /**
     * Reads the plugin directory beside the executable (none when absent, when not started from the executable, or
     * when {@link #IGNORED_PROPERTY} is {@code true}).
     */
    public static PluginDirectory find() {
        Path d = Boolean.getBoolean(IGNORED_PROPERTY) ? null : location();
        return d == null ? new PluginDirectory(null, List.of(), List.of()) : read(d, currentUid());
    }

    /** Reads {@code dir} for a process running as {@code uid}. */
    public static PluginDirectory read(Path dir, int uid) {
        List<Path> jars = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        Map<String, Object> d;
        try {
            d = Files.readAttributes(dir, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
        } catch (java.nio.file.NoSuchFileException e) {
            return new PluginDirectory(dir, jars, refused);
        } catch (IOException | UnsupportedOperationException e) {
            refused.add("plugin directory " + dir + " cannot be read (" + e.getMessage() + "); no plugin is loaded");
            return new PluginDirectory(dir, jars, refused);
        }
        String why = untrusted(d, uid, -1, true);
        if (why != null) {
            refused.add("plugin directory " + dir + " " + why + "; no plugin is loaded");
            return new PluginDirectory(dir, jars, refused);
        }
        int dirOwner = (Integer) d.get("uid");
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.jar")) {
            ds.forEach(entries::add);
        } catch (IOException | java.nio.file.DirectoryIteratorException e) {
            refused.add("plugin directory " + dir + " cannot be listed (" + e.getMessage() + "); no plugin is loaded");
            return new PluginDirectory(dir, jars, refused);
        }
        entries.sort(null);
        for (Path jar : entries) {
            try {
                why = untrusted(Files.readAttributes(jar, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS), uid,
                        dirOwner, false);
            } catch (IOException | UnsupportedOperationException e) {
                why = "cannot be read (" + e.getMessage() + ")";
            }
            if (why == null) {
                jars.add(jar);
            } else {
                refused.add("plugin " + jar + " " + why + "; not loaded");
            }
        }
        return new PluginDirectory(dir, jars, refused);
    }

    private static final int S_IFMT = 0170000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFLNK = 0120000;

    /** Why an entry is not trusted, or null. {@code dirOwner} is -1 for the directory itself. */
    private static String untrusted(Map<String, Object> attrs, int uid, int dirOwner, boolean directory) {
        int mode = (Integer) attrs.get("mode");
        int owner = (Integer) attrs.get("uid");
        int type = mode & S_IFMT;
        if (type == S_IFLNK) {
            return "is a symbolic link";
        }
        if (type != (directory ? S_IFDIR : S_IFREG)) {
            return directory ? "is not a directory" : "is not a regular file";
        }
        if ((mode & 022) != 0) {
            return "is writable by " + ((mode & 020) != 0 ? "its group" : "others") + " (mode "
                    + Integer.toOctalString(mode & 07777) + ")";
        }
        if (owner != uid && owner != 0) {
            return "belongs to uid " + owner + ", neither you (uid " + uid + ") nor root";
        }
        if (dirOwner == 0 && owner != 0) {
            return "belongs to uid " + owner + " in a directory of root's (a shared install's plugins must all be root's)";
        }
        return null;
    }

    /** The real uid of this process, from /proc/self/status (no JNA on this path). */
    public static int currentUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return Integer.parseInt(line.substring(4).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through: trust nothing but root's
        }
        return 0;
    }

    /** The directory, or null when ralon does not run from its single executable. */
    public Path dir() {
        return dir;
    }

    /** The jars that passed the checks, sorted by name. */
    public List<Path> jars() {
        return jars;
    }

    /** One line per entry refused. */
    public List<String> refused() {
        return refused;
    }
}
