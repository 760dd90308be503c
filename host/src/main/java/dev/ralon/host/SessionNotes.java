package dev.ralon.host;

import dev.ralon.enforcer.spi.Confinement;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.policy.Policy;
import dev.ralon.policy.Rule;
import dev.ralon.policy.walk.PolicySet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The session's notes: a short plain-text file that {@code ralon run} names to the command in {@value #ENV_NOTES}, so an
 * agent can be pointed at it ("read $RALON_NOTES"): the backend, the policy files and their patterns, the paths locked
 * now, where the session may write, and what the backend's refusals (EROFS, EACCES, EBUSY, EXDEV) mean in this run.
 *
 * <p>Where it lives, and why there: {@code $XDG_CACHE_HOME/ralon/sessions/} (else {@code ~/.cache/ralon/sessions/}),
 * named by the SHA-256 of its text, mode 0444. The agent can read it (a session reads everything); under a backend that
 * confines writes ({@link WritableAreas}: {@code ~/.cache} is not a writable area) the session cannot change it; and,
 * whatever the backend, nothing reads it back: it is a report written from the policy, never an input, so changing it
 * cannot change what is enforced. Named by its content, the same notes are one file for every session that says the
 * same (no file per run piles up), and a file whose bytes differ from its name's is rewritten at the next start. The
 * two directories must not be symbolic links; when the file cannot be written, the variable is not set (and one
 * inherited from an outer session is removed) and the run says so in one line.
 *
 * <p>Bounded: each start that reuses a file sets its modification time to now (its last use), and each start that
 * writes a new one removes the notes not used for {@value #KEPT_DAYS} days and all but the {@value #KEPT} last used
 * (and temporary files of a start that died, over an hour old). A session that runs longer than that while as many
 * others start with other notes may find its file gone: the variable then names a missing file, and nothing else
 * changes (nothing reads it back).
 */
public final class SessionNotes {
    /** The variable naming the notes file. */
    public static final String ENV_NOTES = "RALON_NOTES";
    /** Most locked paths listed by name; the rest are counted ({@code ralon check} lists them all). */
    static final int LISTED = 100;
    /** At most this many notes files are kept: the most recently used. */
    static final int KEPT = 64;
    /** Notes files not used for this many days are removed. */
    static final int KEPT_DAYS = 14;
    private static final java.util.regex.Pattern NOTES_NAME = java.util.regex.Pattern.compile("[0-9a-f]{32}\\.txt");
    private static final java.util.regex.Pattern TEMP_NAME = java.util.regex.Pattern.compile("\\.[0-9a-z]+\\.tmp");

    private SessionNotes() {
    }

    /** The notes' text for a run with {@code enforcer}, {@code planned}, {@code policies} and {@code confinement}. */
    public static String text(Enforcer enforcer, ProtectedSet planned, PolicySet policies, Confinement confinement) {
        StringBuilder b = new StringBuilder();
        b.append("Ralon session notes, written by `ralon run` when this session started. Nothing reads this file back:"
                + " changing it changes nothing.\n\n");
        boolean enforces = !enforcer.guarantees().isEmpty();
        b.append("Backend: ").append(enforcer.name()).append(enforces ? "" : " (it enforces nothing: no path is locked in"
                + " this session)").append('\n');
        b.append("\nRead-only in this session, as agent.lock says (git-style patterns relative to the directory of"
                + " their agent.lock; a directory protects everything beneath it):\n");
        for (Policy p : policies.policies()) {
            b.append("  ").append(p.file().toAbsolutePath().normalize()).append(":\n");
            Set<String> seen = new LinkedHashSet<>();
            for (Rule r : p.rules()) {
                if (seen.add(r.pattern())) {
                    b.append("    ").append(oneLine(r.pattern())).append('\n');
                }
            }
        }
        List<ProtectedPath> locked = planned.paths();
        int n = enforces ? locked.size() : 0;
        b.append("\nLocked now: ").append(n).append(n == 1 ? " path" : " paths").append(n == 0 ? "\n" : ":\n");
        for (int i = 0; i < Math.min(n, LISTED); i++) {
            b.append("  ").append(oneLine(locked.get(i).path().toString())).append('\n');
        }
        if (n > LISTED) {
            b.append("  and ").append(n - LISTED).append(" more (`ralon check` lists them)\n");
        }
        if (enforces && confinement.confined()) {
            b.append("\nThis session may write only here (besides what agent.lock protects in them):\n");
            for (Confinement.Area a : confinement.areas()) {
                b.append("  ").append(oneLine(a.path().toString())).append(" (").append(oneLine(a.why())).append(")\n");
            }
        }
        if (enforces && !enforcer.deniedErrors().isEmpty()) {
            b.append("\nWhat the errors mean here: ");
            List<String> named = enforcer.deniedErrors().stream().map(StartReport::describe).toList();
            b.append(String.join(", ", named)).append(" on one of these paths (or on a path outside the places"
                    + " this session may write) means it is protected by agent.lock. Do not retry another way (another"
                    + " tool, a copy and rename, a script, a change of permissions): the kernel refuses every way."
                    + " Continue with the rest of the task, or ask the user to make the change.\n");
        }
        return b.toString();
    }

    private static String oneLine(String s) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(c -> b.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return b.toString();
    }

    /** The notes' directory for {@code env} ({@code XDG_CACHE_HOME} when absolute, else {@code HOME/.cache}), or null. */
    static Path directory(Map<String, String> env) {
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && xdg.startsWith("/")) {
            return Path.of(xdg, "ralon", "sessions");
        }
        String home = env.get("HOME");
        return home != null && home.startsWith("/") ? Path.of(home, ".cache", "ralon", "sessions") : null;
    }

    /**
     * Writes {@code text} (when not already there) and sets {@value #ENV_NOTES} in {@code env} to its file; when that
     * cannot be done, removes the variable from {@code env} and returns why (one line), else null.
     */
    public static String putEnv(Map<String, String> env, String text) {
        try {
            env.put(ENV_NOTES, write(directory(env), text).toString());
            return null;
        } catch (IOException | RuntimeException e) {
            env.remove(ENV_NOTES);
            return "the session notes were not written (" + e.getMessage() + "): " + ENV_NOTES + " is not set";
        }
    }

    /** Writes {@code text} in {@code dir} under its hash, unless a file with the same bytes is there; its path. */
    static Path write(Path dir, String text) throws IOException {
        if (dir == null) {
            throw new IOException("no HOME or XDG_CACHE_HOME");
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Path file = dir.resolve(hash(bytes) + ".txt");
        // never through a link: checked before the directories are made (createDirectories would follow one) and after
        for (boolean made : new boolean[] {false, true}) {
            if (made) {
                Files.createDirectories(dir);
            }
            for (Path d : List.of(dir.getParent(), dir)) {
                if (Files.isSymbolicLink(d) || (made || Files.exists(d, LinkOption.NOFOLLOW_LINKS))
                        && !Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) {
                    throw new IOException(d + " is a symbolic link or not a directory");
                }
            }
        }
        if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                && Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                .size() == bytes.length && Arrays.equals(Files.readAllBytes(file), bytes)) {
            // the size first: a planted large file is not read. Its last use, for pruning (best effort: a nested
            // session's ~/.cache is read-only, and the file is there all the same)
            try {
                Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()));
            } catch (IOException e) {
                // kept as it is
            }
            return file;
        }
        long nonce = java.util.concurrent.ThreadLocalRandom.current().nextLong();
        Path tmp = dir.resolve("." + Long.toUnsignedString(nonce, 36) + ".tmp");
        try {
            // 0444 from creation (O_CREAT|O_EXCL with the mode): no later chmod that a link swapped in could redirect
            try (java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(tmp, java.util.Set.of(
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), java.nio.file.attribute.PosixFilePermissions
                    .asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("r--r--r--")))) {
                java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        prune(dir, file, System.currentTimeMillis());
        return file;
    }

    /**
     * Removes from {@code dir} the notes files not used for {@value #KEPT_DAYS} days, all but the {@value #KEPT} last
     * used, and temporary files over an hour old; never {@code keep}, never anything but a regular file of those two
     * names (no link is followed: a link is an entry, removed or not by its name like any other, never its target).
     * Best effort: what cannot be listed or removed stays.
     */
    static void prune(Path dir, Path keep, long now) {
        record Entry(Path path, long used) {
        }
        List<Entry> notes = new java.util.ArrayList<>();
        try (java.nio.file.DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = String.valueOf(p.getFileName());
                boolean isNotes = NOTES_NAME.matcher(name).matches();
                if (p.equals(keep) || !isNotes && !TEMP_NAME.matcher(name).matches()) {
                    continue;
                }
                java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(p,
                        java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                long used = a.lastModifiedTime().toMillis();
                if (!a.isRegularFile()) {
                    continue;
                }
                if (isNotes) {
                    notes.add(new Entry(p, used));
                } else if (now - used > java.util.concurrent.TimeUnit.HOURS.toMillis(1)) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException | RuntimeException e) {
            return;
        }
        notes.sort(java.util.Comparator.comparingLong(Entry::used).reversed());
        long oldest = now - java.util.concurrent.TimeUnit.DAYS.toMillis(KEPT_DAYS);
        for (int i = 0; i < notes.size(); i++) {
            // the file just written counts as the most recent: KEPT - 1 others
            if (i >= KEPT - 1 || notes.get(i).used() < oldest) {
                try {
                    Files.deleteIfExists(notes.get(i).path());
                } catch (IOException e) {
                    // stays
                }
            }
        }
    }

    private static String hash(byte[] bytes) {
        // not MessageDigest: its first use starts the JCA providers, 25-30 ms of every start (Sha256)
        return HexFormat.of().formatHex(dev.ralon.linux.Sha256.digest(bytes), 0, 16);
    }
}
