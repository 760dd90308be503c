package dev.ralon.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What can be seen of a path from OUTSIDE the sandbox: for itself and, for a directory, every entry beneath it:
 * type, inode, mode, mtime, size and content hash (files), link target (symbolic links). Never follows a link.
 */
final class Snapshot {
    private Snapshot() {
    }

    /** The state of {@code p} and everything beneath it, keyed by path relative to {@code p} ("." for itself). */
    static SortedMap<String, String> of(Path p) {
        SortedMap<String, String> m = new TreeMap<>();
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            m.put(".", "absent");
            return m;
        }
        if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            m.put(".", entry(p));
            return m;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path e : (Iterable<Path>) s::iterator) {
                String key = p.equals(e) ? "." : p.relativize(e).toString();
                m.put(key, entry(e));
            }
        } catch (IOException | RuntimeException e) {
            m.put("!", "unreadable: " + e.getMessage());
        }
        return m;
    }

    /** Only whether {@code p} is there and which inode it is (for directories on the way). */
    static SortedMap<String, String> identity(Path p) {
        SortedMap<String, String> m = new TreeMap<>();
        try {
            m.put(".", Files.exists(p, LinkOption.NOFOLLOW_LINKS)
                    ? (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "dir" : "not a dir")
                    + " ino=" + Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS) : "absent");
        } catch (IOException e) {
            m.put(".", "unreadable: " + e.getMessage());
        }
        return m;
    }

    private static String entry(Path p) {
        try {
            Map<String, Object> a = Files.readAttributes(p, "unix:ino,mode,uid,lastModifiedTime,size",
                    LinkOption.NOFOLLOW_LINKS);
            int mode = (Integer) a.get("mode");
            String common = "ino=" + a.get("ino") + " mode=" + PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS)) + " uid=" + a.get("uid");
            if (Files.isSymbolicLink(p)) {
                return "symlink " + common + " -> " + Files.readSymbolicLink(p);
            }
            common += " xattrs=" + xattrs(p);
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                TreeSet<String> names = new TreeSet<>();
                try (Stream<Path> s = Files.list(p)) {
                    s.forEach(c -> names.add(c.getFileName().toString()));
                }
                return "dir " + common + " mtime=" + a.get("lastModifiedTime") + " entries=" + names;
            }
            if ((mode & 0170000) != 0100000) {
                return "special " + common;
            }
            return "file " + common + " mtime=" + a.get("lastModifiedTime") + " size=" + a.get("size") + " sha256="
                    + sha256(Files.readAllBytes(p));
        } catch (IOException | RuntimeException e) {
            return "unreadable: " + e;
        }
    }

    /** The names of the user.* extended attributes (xattr(7)), comma-separated; "-" when there are none. */
    private static String xattrs(Path p) {
        try {
            var view = Files.getFileAttributeView(p, java.nio.file.attribute.UserDefinedFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (view == null) {
                return "?";
            }
            List<String> names = new ArrayList<>(view.list());
            java.util.Collections.sort(names);
            return names.isEmpty() ? "-" : String.join(",", names);
        } catch (IOException | UnsupportedOperationException e) {
            return "?";
        }
    }

    /** Every difference between two snapshots, one string each: {@code key: before -> after} (fields that differ). */
    static List<String> diff(String label, SortedMap<String, String> before, SortedMap<String, String> after) {
        TreeSet<String> keys = new TreeSet<>(before.keySet());
        keys.addAll(after.keySet());
        List<String> out = new ArrayList<>();
        for (String k : keys) {
            String b = before.getOrDefault(k, "absent");
            String a = after.getOrDefault(k, "absent");
            if (!b.equals(a)) {
                out.add((k.equals(".") ? label : label + "/" + k) + ": " + changedFields(b, a));
            }
        }
        return out;
    }

    private static String changedFields(String before, String after) {
        String[] b = before.split(" ");
        String[] a = after.split(" ");
        if (b.length != a.length || !b[0].equals(a[0])) {
            return before + " -> " + after;
        }
        List<String> parts = new ArrayList<>();
        parts.add(b[0]);
        for (int i = 1; i < b.length; i++) {
            if (!b[i].equals(a[i])) {
                int eq = b[i].indexOf('=');
                parts.add(eq > 0 ? b[i] + " -> " + a[i].substring(eq + 1) : b[i] + " -> " + a[i]);
            }
        }
        return String.join(", ", parts);
    }

    private static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b)).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
