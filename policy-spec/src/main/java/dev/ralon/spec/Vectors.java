package dev.ralon.spec;

import org.json.JSONObject;
import org.json.JSONTokener;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The vector files on the class path, and the policy texts and paths the runner builds from them. */
final class Vectors {
    private Vectors() {
    }

    /** A vector file (under {@link VectorRunner#BASE}) read as JSON. */
    static JSONObject resource(String name) {
        return new JSONObject(new JSONTokener(new String(resourceBytes(name), StandardCharsets.UTF_8)));
    }

    /** A vector file's bytes (the policy vectors are read byte for byte). */
    static byte[] resourceBytes(String name) {
        try (InputStream in = Vectors.class.getResourceAsStream(VectorRunner.BASE + name)) {
            if (in == null) {
                throw new IllegalStateException("vector resource missing: " + VectorRunner.BASE + name);
            }
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            in.transferTo(b);
            return b.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + VectorRunner.BASE + name, e);
        }
    }

    /** A policy listing {@code patterns}, one per line from line 3, double-quoted. */
    static String policyOf(List<String> patterns) {
        StringBuilder b = new StringBuilder("version: 1\nprotect:\n");
        for (String p : patterns) {
            b.append("  - ").append(yamlQuoted(p)).append('\n');
        }
        return b.toString();
    }

    /** A path the protocol can ask about: not empty, no empty, {@code .} or {@code ..} segment, no NUL. */
    static boolean nameable(String p) {
        if (p.isEmpty() || p.indexOf('\0') >= 0) {
            return false;
        }
        for (String s : p.split("/", -1)) {
            if (s.isEmpty() || s.equals(".") || s.equals("..")) {
                return false;
            }
        }
        return true;
    }

    /** A YAML double-quoted scalar holding exactly {@code s}. */
    static String yamlQuoted(String s) {
        StringBuilder b = new StringBuilder("\"");
        s.codePoints().forEach(c -> {
            if (c == '"' || c == '\\') {
                b.append('\\').appendCodePoint(c);
            } else if (escaped(c)) {
                b.append(String.format("\\u%04X", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.append('"').toString();
    }

    /** Whether {@link #yamlQuoted} writes code point {@code c} as an escape. */
    private static boolean escaped(int c) {
        return c == '"' || c == '\\' || c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029
                || c == 0xFEFF;
    }

    /**
     * The column at which a pattern error at {@code offset} (code points) of {@code pattern} is reported when the
     * pattern is an item of {@link #policyOf} ({@code "  - "} then the quoted scalar at column 5), by spec §10.3: the
     * scalar's column plus 1 plus the offset when the text between the quotes is the pattern exactly, else (an escape
     * anywhere in it) the scalar's column; an empty pattern is the item's own error (§5.2), at the item.
     */
    static int errorColumn(String pattern, int offset) {
        if (pattern.isEmpty() || pattern.codePoints().anyMatch(Vectors::escaped)) {
            return 5;
        }
        return 6 + offset;
    }
}
