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
    static final int MAX_DEPTH = JsonStream.MAX_DEPTH;
    static final int MAX_KEPT = JsonStream.MAX_KEPT;

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

    private final JsonStream json;

    private HookPayload(Reader in) {
        this.json = new JsonStream(in);
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
        if (json.skipBlanks() != '{') {
            throw json.error("expected a JSON object");
        }
        json.next();
        Set<String> seen = new HashSet<>();
        if (json.skipBlanks() == '}') {
            json.next();
        } else {
            while (true) {
                String key = json.key();
                switch (key) {
                    case "hook_event_name", "cwd", "tool_name" -> {
                        unique(seen, key);
                        String v = json.keptString(key);
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
                    default -> json.skipValue(1);
                }
                if (!json.more('}')) {
                    break;
                }
            }
        }
        if (json.skipBlanks() != -1) {
            throw json.error("unexpected text after the JSON object");
        }
    }

    private void toolInput() throws IOException, Malformed {
        if (json.skipBlanks() != '{') {
            json.skipValue(1); // not an object: no paths in it (a write tool without a path is refused by the hook)
            return;
        }
        json.next();
        if (json.skipBlanks() == '}') {
            json.next();
            return;
        }
        Set<String> seen = new HashSet<>();
        while (true) {
            String key = json.key();
            switch (key) {
                case "file_path", "notebook_path" -> {
                    unique(seen, key);
                    if (json.skipBlanks() == '"') {
                        paths.add(json.keptString("tool_input." + key));
                    } else {
                        json.skipValue(2);
                    }
                }
                case "command", "input", "patch" -> {
                    if (json.skipBlanks() == '"') {
                        json.next();
                        json.string(new PatchLines());
                    } else {
                        json.skipValue(2);
                    }
                }
                default -> json.skipValue(2);
            }
            if (!json.more('}')) {
                return;
            }
        }
    }

    private static void unique(Set<String> seen, String key) throws Malformed {
        if (!seen.add(key)) {
            throw new Malformed("the key \"" + key + "\" is given twice");
        }
    }

    /** Keeps the header lines of patch text (lines starting with "*** " after blanks), drops every other line. */
    private final class PatchLines implements JsonStream.Sink {
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
