package dev.ralon.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a pre-tool hook needs from an agent's hook JSON, read in one streaming pass: the event name, {@code cwd}, the
 * tool's name, the paths named by {@code tool_input.file_path} / {@code tool_input.notebook_path}, and the files an
 * {@code apply_patch} patch names. Every other value (a Write's {@code content}, an Edit's strings, a patch's hunks) is
 * read, checked for JSON syntax and dropped as it streams by, so the input may be of any size and only the short
 * strings above are held.
 *
 * <p>Contract: {@link #read} accepts exactly one JSON object (RFC 8259, UTF-8, whitespace around it) and nothing
 * else; anything else (bad syntax, invalid UTF-8, a value nested deeper than {@value #MAX_DEPTH}, a kept string longer
 * than {@value #MAX_KEPT} characters, a kept key given twice) is a {@link Malformed} with a one-line reason. The
 * agents write this JSON with a standard serializer, so the refusals never meet a real payload; a hook refuses the
 * tool call on any of them (fail closed).
 *
 * <p>Patch text ({@code tool_input.command}, {@code .input} or {@code .patch}, whatever the tool): only lines that
 * begin with {@code "*** "} (after blanks) are looked at; {@code Add File}, {@code Update File}, {@code Delete File}
 * and {@code Move to} headers give the files (Codex's apply_patch grammar), {@code Begin Patch} marks the text as a
 * patch. A hunk line starting with a blank and then {@code ***} is taken as a header too: it can only add a path to
 * check, never hide one.
 */
final class HookPayload {
    static final int MAX_DEPTH = 512;
    static final int MAX_KEPT = 1 << 20;

    /** The input is not one well-formed JSON object of the shape described above. */
    static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    String event;
    String cwd;
    String tool;
    /** {@code tool_input.file_path} and {@code tool_input.notebook_path}, in input order. */
    final List<String> paths = new ArrayList<>();
    /** Files named by patch headers in {@code tool_input} strings, the move's source and destination both. */
    final List<String> patchPaths = new ArrayList<>();
    /** Whether some {@code tool_input} string held a {@code *** Begin Patch} line. */
    boolean patch;

    private final Reader in;
    private final char[] buf = new char[8192];
    private int pos;
    private int len;
    private long offset;

    private HookPayload(Reader in) {
        this.in = in;
    }

    static HookPayload read(InputStream bytes) throws IOException, Malformed {
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        HookPayload p = new HookPayload(new InputStreamReader(bytes, utf8));
        try {
            p.document();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new Malformed("the input is not valid UTF-8");
        }
        return p;
    }

    private void document() throws IOException, Malformed {
        if (skipBlanks() != '{') {
            throw error("expected a JSON object");
        }
        next();
        Set<String> seen = new HashSet<>();
        if (skipBlanks() == '}') {
            next();
        } else {
            while (true) {
                String key = key();
                switch (key) {
                    case "hook_event_name", "cwd", "tool_name" -> {
                        unique(seen, key);
                        String v = keptString(key);
                        if (key.equals("cwd")) {
                            cwd = v;
                        } else if (key.equals("tool_name")) {
                            tool = v;
                        } else {
                            event = v;
                        }
                    }
                    case "tool_input" -> {
                        unique(seen, key);
                        toolInput();
                    }
                    default -> skipValue(1);
                }
                if (!more('}')) {
                    break;
                }
            }
        }
        if (skipBlanks() != -1) {
            throw error("unexpected text after the JSON object");
        }
    }

    private void toolInput() throws IOException, Malformed {
        if (skipBlanks() != '{') {
            skipValue(1); // not an object: no paths in it (a write tool without a path is refused by the hook)
            return;
        }
        next();
        if (skipBlanks() == '}') {
            next();
            return;
        }
        Set<String> seen = new HashSet<>();
        while (true) {
            String key = key();
            switch (key) {
                case "file_path", "notebook_path" -> {
                    unique(seen, key);
                    if (skipBlanks() == '"') {
                        paths.add(keptString("tool_input." + key));
                    } else {
                        skipValue(2);
                    }
                }
                case "command", "input", "patch" -> {
                    if (skipBlanks() == '"') {
                        next();
                        string(new PatchLines());
                    } else {
                        skipValue(2);
                    }
                }
                default -> skipValue(2);
            }
            if (!more('}')) {
                return;
            }
        }
    }

    private static void unique(Set<String> seen, String key) throws Malformed {
        if (!seen.add(key)) {
            throw new Malformed("the key \"" + key + "\" is given twice");
        }
    }

    /** After a member or element: true if a comma follows (another one comes), false at {@code close}. */
    private boolean more(char close) throws IOException, Malformed {
        int c = skipBlanks();
        next();
        if (c == ',') {
            return true;
        }
        if (c == close) {
            return false;
        }
        throw error("expected ',' or '" + close + "'");
    }

    private String key() throws IOException, Malformed {
        if (skipBlanks() != '"') {
            throw error("expected a string key");
        }
        next();
        Kept k = new Kept(MAX_KEPT, "a key");
        string(k);
        if (skipBlanks() != ':') {
            throw error("expected ':'");
        }
        next();
        return k.text.toString();
    }

    private String keptString(String what) throws IOException, Malformed {
        if (skipBlanks() != '"') {
            throw error(what + " is not a string");
        }
        next();
        Kept k = new Kept(MAX_KEPT, what);
        string(k);
        return k.text.toString();
    }

    private void skipValue(int depth) throws IOException, Malformed {
        if (depth > MAX_DEPTH) {
            throw error("nested deeper than " + MAX_DEPTH + " levels");
        }
        int c = skipBlanks();
        switch (c) {
            case '"' -> {
                next();
                string(Sink.DROP);
            }
            case '{' -> {
                next();
                if (skipBlanks() == '}') {
                    next();
                    return;
                }
                do {
                    key();
                    skipValue(depth + 1);
                } while (more('}'));
            }
            case '[' -> {
                next();
                if (skipBlanks() == ']') {
                    next();
                    return;
                }
                do {
                    skipValue(depth + 1);
                } while (more(']'));
            }
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    number();
                } else {
                    throw error(c == -1 ? "unexpected end of input" : "unexpected character");
                }
            }
        }
    }

    private void literal(String word) throws IOException, Malformed {
        for (int i = 0; i < word.length(); i++) {
            if (peek() != word.charAt(i)) {
                throw error("unexpected character");
            }
            next();
        }
    }

    private void number() throws IOException, Malformed {
        if (peek() == '-') {
            next();
        }
        if (peek() == '0') {
            next();
        } else {
            digits();
        }
        if (peek() == '.') {
            next();
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            next();
            if (peek() == '+' || peek() == '-') {
                next();
            }
            digits();
        }
    }

    private void digits() throws IOException, Malformed {
        if (peek() < '0' || peek() > '9') {
            throw error("malformed number");
        }
        while (peek() >= '0' && peek() <= '9') {
            next();
        }
    }

    /** Reads a string's characters after its opening quote, up to and including the closing one, into {@code sink}. */
    private void string(Sink sink) throws IOException, Malformed {
        while (true) {
            int c = peek();
            if (c == -1) {
                throw error("unterminated string");
            }
            next();
            if (c == '"') {
                sink.end();
                return;
            }
            if (c < 0x20) {
                throw error("control character in a string");
            }
            if (c == '\\') {
                int e = peek();
                next();
                switch (e) {
                    case '"', '\\', '/' -> c = e;
                    case 'b' -> c = '\b';
                    case 'f' -> c = '\f';
                    case 'n' -> c = '\n';
                    case 'r' -> c = '\r';
                    case 't' -> c = '\t';
                    case 'u' -> {
                        c = 0;
                        for (int i = 0; i < 4; i++) {
                            int h = Character.digit(peek(), 16);
                            if (h < 0 || peek() > 'f') {
                                throw error("malformed \\u escape");
                            }
                            next();
                            c = c * 16 + h;
                        }
                    }
                    default -> throw error("malformed escape");
                }
            }
            sink.put((char) c);
        }
    }

    private int skipBlanks() throws IOException {
        while (true) {
            int c = peek();
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return c;
            }
            next();
        }
    }

    private int peek() throws IOException {
        if (pos == len) {
            len = in.read(buf, 0, buf.length);
            pos = 0;
            if (len <= 0) {
                len = 0;
                return -1;
            }
        }
        return buf[pos];
    }

    private void next() {
        pos++;
        offset++;
    }

    private Malformed error(String what) {
        return new Malformed(what + " at character " + offset);
    }

    /** Where a string's characters go as they are read. */
    private interface Sink {
        Sink DROP = new Sink() {
            @Override
            public void put(char c) {
            }

            @Override
            public void end() {
            }
        };

        void put(char c) throws Malformed;

        void end() throws Malformed;
    }

    /** Keeps the string, up to a bound. */
    private static final class Kept implements Sink {
        final StringBuilder text = new StringBuilder();
        private final int max;
        private final String what;

        Kept(int max, String what) {
            this.max = max;
            this.what = what;
        }

        @Override
        public void put(char c) throws Malformed {
            if (text.length() == max) {
                throw new Malformed(what + " is longer than " + max + " characters");
            }
            text.append(c);
        }

        @Override
        public void end() {
        }
    }

    /** Keeps the header lines of patch text (lines starting with "*** " after blanks), drops every other line. */
    private final class PatchLines implements Sink {
        private final StringBuilder line = new StringBuilder();
        private boolean header = true; // until the line's first non-blank characters say otherwise

        @Override
        public void put(char c) throws Malformed {
            if (c == '\n') {
                end();
                return;
            }
            if (!header) {
                return;
            }
            if (line.length() == 0 && (c == ' ' || c == '\t')) {
                return;
            }
            if (line.length() < 4 && c != "*** ".charAt(line.length())) {
                header = false;
                return;
            }
            if (line.length() == MAX_KEPT) {
                throw new Malformed("a patch header line is longer than " + MAX_KEPT + " characters");
            }
            line.append(c);
        }

        @Override
        public void end() {
            if (header && line.length() >= 4) {
                String l = line.toString();
                if (l.endsWith("\r")) {
                    l = l.substring(0, l.length() - 1);
                }
                if (l.strip().equals("*** Begin Patch")) {
                    patch = true;
                }
                for (String h : new String[] {"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"}) {
                    if (l.startsWith(h)) {
                        patchPaths.add(l.substring(h.length()).strip());
                    }
                }
            }
            line.setLength(0);
            header = true;
        }
    }
}
