package dev.ralon.policy;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Locale;

/**
 * File names as Ralon reads them: UTF-8, whatever the locale (docs/spec.md §7 matches code points of the name).
 *
 * <p>The JVM decodes and encodes file names with {@code sun.jnu.encoding}, fixed at start from
 * LC_ALL/LC_CTYPE/LANG (under C, POSIX or no locale: ASCII, and {@code -Dsun.jnu.encoding} is ignored). A name it
 * cannot decode comes back from a directory listing with U+FFFD (or {@code ?}) in place of the bytes, and resolving that
 * string again does not reach the entry: matching it would silently leave the real entry unprotected. This class says
 * whether the JVM reads names as UTF-8 and whether a listed name round-trips, and renders names with their bytes
 * escaped for messages.
 */
public final class FileNames {
    private FileNames() {
    }

    /** The JVM's file-name encoding ({@code sun.jnu.encoding}). */
    public static String encoding() {
        return System.getProperty("sun.jnu.encoding", "unknown");
    }

    /** Whether the JVM decodes and encodes file names as UTF-8. */
    public static boolean jvmReadsUtf8() {
        String e = encoding().toUpperCase(Locale.ROOT);
        return e.equals("UTF-8") || e.equals("UTF8");
    }

    /**
     * One line saying that this JVM cannot read file names as UTF-8 and what to do, or null when it can.
     */
    public static String notUtf8Reason() {
        if (jvmReadsUtf8()) {
            return null;
        }
        return "this JVM reads file names as " + encoding() + ", not UTF-8, so names with non-ASCII characters "
                + "would be mangled and their protection could silently fail; run it with a UTF-8 locale "
                + "(LC_ALL=C.UTF-8, or any installed *.UTF-8 locale: see `locale -a`)";
    }

    /**
     * Whether {@code child}, an entry listed from {@code dir}, has a name this JVM could not decode: its decoded name
     * {@code name} does not lead back to it. Only names holding a replacement character are examined (one stat).
     */
    public static boolean undecodable(Path dir, Path child, String name) {
        if (name.indexOf('\uFFFD') < 0 && (jvmReadsUtf8() || name.indexOf('?') < 0)) {
            return false;
        }
        try {
            Path again = dir.resolve(name);
            return !Files.exists(again, LinkOption.NOFOLLOW_LINKS) || !Files.isSameFile(again, child);
        } catch (InvalidPathException | java.io.IOException | SecurityException e) {
            return true;
        }
    }

    /**
     * The path with every byte that is not printable ASCII shown as {@code \xHH} (its bytes on disk, from
     * {@link Path#toUri()}, which keeps them): a name that is not valid UTF-8 named exactly, in one line.
     */
    public static String escaped(Path path) {
        String raw = path.toAbsolutePath().toUri().getRawPath();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%' && i + 2 < raw.length()) {
                bytes.write(Integer.parseInt(raw.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes.toByteArray()) {
            int v = b & 0xff;
            if (v >= 0x20 && v < 0x7f && v != '\\') {
                sb.append((char) v);
            } else {
                sb.append(String.format("\\x%02X", v));
            }
        }
        String s = sb.toString();
        return s.endsWith("/") && s.length() > 1 ? s.substring(0, s.length() - 1) : s; // toUri adds '/' to directories
    }

    /** Whether a string taken from outside (an argument, a line of input) was not valid UTF-8 when decoded. */
    public static boolean hasReplacement(String s) {
        return s.indexOf('\uFFFD') >= 0;
    }
}
