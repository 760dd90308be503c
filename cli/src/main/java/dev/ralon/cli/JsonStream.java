package dev.ralon.cli;

import dev.ralon.cli.HookPayload.Malformed;

import java.io.IOException;
import java.io.Reader;

/**
 * The JSON syntax under {@link HookPayload}: a streaming reader of RFC 8259 text that checks every value it passes and
 * keeps only the strings it is asked to keep ({@link Sink}), so an input of any size is read in constant memory. Each
 * failure is a {@link Malformed} naming what was expected and the character offset.
 */
final class JsonStream {
    /** How deep a skipped value may nest. */
    static final int MAX_DEPTH = 512;
    /** The longest string kept (a key, a kept value, a patch header line). */
    static final int MAX_KEPT = 1 << 20;

    private final Reader in;
    private final char[] buf = new char[8192];
    private int pos;
    private int len;
    private long offset;

    JsonStream(Reader in) {
        this.in = in;
    }

    /** After a member or element: true if a comma follows (another one comes), false at {@code close}. */
    boolean more(char close) throws IOException, Malformed {
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

    String key() throws IOException, Malformed {
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

    String keptString(String what) throws IOException, Malformed {
        if (skipBlanks() != '"') {
            throw error(what + " is not a string");
        }
        next();
        Kept k = new Kept(MAX_KEPT, what);
        string(k);
        return k.text.toString();
    }

    void skipValue(int depth) throws IOException, Malformed {
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
    void string(Sink sink) throws IOException, Malformed {
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

    int skipBlanks() throws IOException {
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

    void next() {
        pos++;
        offset++;
    }

    Malformed error(String what) {
        return new Malformed(what + " at character " + offset);
    }

    /** Where a string's characters go as they are read. */
    interface Sink {
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
}
