package dev.ralon.testsupport;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The guard against tests that leave files behind, for the whole test JVM (a JUnit Platform launcher session,
 * registered in {@code META-INF/services/org.junit.platform.launcher.LauncherSessionListener}): when the session
 * closes, what this JVM's tests created and did not remove fails the run, one {@code [LEFTOVER] path} line each.
 *
 * <p>Only what is certainly this JVM's is judged, because other builds and processes write /tmp and HOME at the same
 * time (a shared machine, a second test JVM of the same build):
 * <ul>
 *   <li>the JVM's own temporary directory, when the build gave it one and said so ({@code java.io.tmpdir} with
 *       {@code -Dralon.tmpdir.own=true}; never /tmp or /var/tmp themselves): the root pom gives each test JVM
 *       {@code /tmp/ralon-test-BUILDSTART-MODULE} (cli-e2e's two: {@code ...-forkN}, Surefire's fork number). Every entry
 *       made during the session and still there is judged (JUnit's {@code @TempDir} directories,
 *       {@code Files.createTempFile}, JMH's lock). The directory is made here when missing, and removed when the
 *       session ends with it empty;</li>
 *   <li>the directories made through {@link Leftovers#createTempDirectory} (those that must lie outside the build
 *       tree, e.g. in /tmp, so that uid 65534 can reach them), still there.</li>
 * </ul>
 * New entries in HOME ({@code ~}, {@code ~/.cache}, {@code ~/.cache/JNA}, {@code ~/.cache/JNA/temp}) cannot be told
 * from another process's: they are printed, {@code [LEFTOVER?] path}, and do not fail the run. The build keeps the
 * tests out of HOME by construction instead (the root pom's {@code XDG_CACHE_HOME}, where JNA unpacks its library).
 */
public final class LeftoversGuard implements LauncherSessionListener {
    /** The system property by which the build says that {@code java.io.tmpdir} is this JVM's own. */
    public static final String OWN_TMPDIR = "ralon.tmpdir.own";

    private final Path ownTmp; // null: the JVM's temporary directory is a shared one, not judged
    private final Path home; // null: none
    private final PrintStream out;
    private Set<Path> ownBefore = Set.of();
    private boolean made; // the session made ownTmp: it removes it again when empty
    private Set<Path> homeBefore = Set.of();

    /**
     * The listener the launcher finds: this JVM's {@code java.io.tmpdir} (when {@value #OWN_TMPDIR} is true) and
     * {@code user.home}; reports on stdout.
     */
    public LeftoversGuard() {
        this(Boolean.getBoolean(OWN_TMPDIR) ? own(System.getProperty("java.io.tmpdir")) : null,
                home(System.getProperty("user.home")), System.out);
    }

    LeftoversGuard(Path ownTmp, Path home, PrintStream out) {
        this.ownTmp = ownTmp;
        this.home = home;
        this.out = out;
    }

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (ownTmp != null) {
            try {
                made = !Files.isDirectory(ownTmp);
                Files.createDirectories(ownTmp);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the test JVM's temporary directory " + ownTmp, e);
            }
            ownBefore = list(ownTmp);
        }
        homeBefore = homeEntries();
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        List<Path> left = leftovers();
        Set<Path> homeNew = new TreeSet<>(homeEntries());
        homeNew.removeAll(homeBefore);
        homeNew.forEach(p -> out.println("[LEFTOVER?] " + p + " (new in HOME during this test JVM's run; maybe another"
                + " process's)"));
        if (left.isEmpty() && made) {
            try {
                Files.delete(ownTmp);
            } catch (IOException e) {
                // not empty after all (a file that came after the check): judged by nothing, left for the user to see
            }
        }
        if (!left.isEmpty()) {
            left.forEach(p -> out.println("[LEFTOVER] " + p));
            out.flush();
            throw new IllegalStateException("the tests left " + left.size() + " file(s) behind: " + left
                    + " (test-support's LeftoversGuard)");
        }
    }

    /** What this JVM's tests left: new entries of its own temporary directory, and watched directories still there. */
    List<Path> leftovers() {
        Set<Path> left = new TreeSet<>();
        if (ownTmp != null) {
            left.addAll(list(ownTmp));
            left.removeAll(ownBefore);
        }
        left.addAll(Leftovers.stillThere());
        return new ArrayList<>(left);
    }

    private Set<Path> homeEntries() {
        Set<Path> all = new TreeSet<>();
        if (home != null) {
            for (Path dir : List.of(home, home.resolve(".cache"), home.resolve(".cache/JNA"),
                    home.resolve(".cache/JNA/temp"))) {
                all.addAll(list(dir));
            }
        }
        return all;
    }

    private static Set<Path> list(Path dir) {
        Set<Path> names = new TreeSet<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(names::add);
        } catch (IOException e) {
            // missing or unreadable: nothing of ours can be judged there
        }
        return names;
    }

    private static Path own(String tmpdir) {
        if (tmpdir == null || tmpdir.isBlank()) {
            return null;
        }
        Path p = Path.of(tmpdir).toAbsolutePath().normalize();
        // shared by every process of the machine: nothing in them can be told to be this JVM's
        return p.equals(Path.of("/tmp")) || p.equals(Path.of("/var/tmp")) || p.getParent() == null ? null : p;
    }

    private static Path home(String userHome) {
        return userHome == null || userHome.isBlank() || "?".equals(userHome) ? null : Path.of(userHome);
    }
}
