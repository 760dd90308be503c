package dev.ralon.policy.glob;

import java.util.ArrayList;
import java.util.List;

/**
 * The parsing half of a {@link Glob}: validates a raw pattern as written in agent.lock, in the order
 * {@link Glob#compile} documents, and compiles it to {@link Segment}s with its normalised form and, for a literal
 * pattern, the path it names. Every rejection is a {@link PatternException} with the kind, offset and one-line reason
 * (docs/spec-patterns.md). Character classes are parsed exactly as git's wildmatch.c parses them.
 */
final class GlobParser {

    /** Parses {@code raw} (not null) into a {@link Glob}. */
    static Glob parse(String raw) throws PatternException {
        return new GlobParser(raw).parse();
    }

    private static final byte T_LIT = 0;
    private static final byte T_ANY = 1;
    private static final byte T_STAR = 2;
    private static final byte T_CLASS = 3;
    private static final byte T_SLASH = 4;

    /** One lexical element of the raw pattern. */
    private static final class Token {
        final byte type;
        final int start; // raw offsets [start, end)
        final int end;
        final int cp;    // T_LIT: the literal code point; T_STAR: number of stars
        final CharClass cls;

        Token(byte type, int start, int end, int cp, CharClass cls) {
            this.type = type;
            this.start = start;
            this.end = end;
            this.cp = cp;
            this.cls = cls;
        }

        boolean isLit(int c) {
            return type == T_LIT && cp == c;
        }
    }

    private final String raw;
    private final int len;

    private GlobParser(String raw) {
        this.raw = raw;
        this.len = raw.length();
    }

    private PatternException error(PatternError kind, int offset, String reason) {
        return new PatternException(raw, kind, offset, reason);
    }

    private Glob parse() throws PatternException {
        if (raw.codePoints().allMatch(Glob::isWhiteSpace)) {
            throw error(PatternError.EMPTY, 0, raw.isEmpty()
                    ? "the pattern is empty; write a path relative to the directory holding agent.lock, or remove the entry"
                    : "the pattern is only white space; write a path relative to the directory holding agent.lock, or remove the entry");
        }
        for (int i = 0; i < len; i++) {
            char c = raw.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw error(PatternError.CONTROL_CHARACTER, i, String.format(
                        "control character U+%04X is not allowed in a pattern; remove it", (int) c));
            }
        }
        char first = raw.charAt(0);
        if (first == '/' || raw.startsWith("\\/")) {
            throw error(PatternError.ABSOLUTE, 0, "patterns are relative to the directory holding agent.lock;"
                    + " drop the leading '/' (write 'x' to protect '<that directory>/x')");
        }
        if (first == '~') {
            throw error(PatternError.HOME, 0, "'~' is not expanded to a home directory and patterns are relative to"
                    + " the directory holding agent.lock; for a name starting with '~' write '\\~' or './~'");
        }
        if (first == '!') {
            throw error(PatternError.NEGATION, 0, "negation is not supported: agent.lock only adds protection;"
                    + " remove the entry that protects the path instead, or write '\\!' for a name starting with '!'");
        }
        List<Token> tokens = tokenize();

        // split into segments; empty segments (runs of '/', a trailing '/') vanish
        List<List<Token>> segments = new ArrayList<>();
        List<Token> cur = new ArrayList<>();
        for (Token t : tokens) {
            if (t.type == T_SLASH) {
                if (!cur.isEmpty()) {
                    segments.add(cur);
                    cur = new ArrayList<>();
                }
            } else {
                cur.add(t);
            }
        }
        if (!cur.isEmpty()) {
            segments.add(cur);
        }
        List<List<Token>> kept = new ArrayList<>();
        for (List<Token> seg : segments) {
            if (seg.size() == 2 && seg.get(0).isLit('.') && seg.get(1).isLit('.')) {
                throw error(PatternError.PARENT_SEGMENT, seg.get(0).start, "a '..' segment would leave the"
                        + " directory holding agent.lock; write the path without '..' (protect paths outside it"
                        + " from an agent.lock in a directory above them)");
            }
            if (seg.size() == 1 && seg.get(0).isLit('.')) {
                continue; // "." names the directory it is in
            }
            kept.add(seg);
        }
        if (kept.isEmpty()) {
            throw error(PatternError.ROOT, 0, "the pattern names the directory holding agent.lock itself;"
                    + " write '**' to protect everything in it");
        }

        StringBuilder norm = new StringBuilder(len);
        StringBuilder lit = new StringBuilder(len);
        boolean literal = true;
        List<Segment> compiled = new ArrayList<>(kept.size());
        for (int s = 0; s < kept.size(); s++) {
            List<Token> seg = kept.get(s);
            if (s > 0) {
                norm.append('/');
                lit.append('/');
            }
            for (int k = 0; k < seg.size(); k++) {
                Token t = seg.get(k);
                if (s == 0 && k == 0 && t.type == T_LIT && t.end - t.start == 1 && (t.cp == '~' || t.cp == '!')) {
                    norm.append('\\'); // exposed by removing a leading "./": keep it meaning a literal
                }
                norm.append(raw, t.start, t.end);
                if (t.type == T_LIT) {
                    lit.appendCodePoint(t.cp);
                } else {
                    literal = false;
                }
            }
            Segment c = compileSegment(seg);
            if (c == Segment.GLOBSTAR && !compiled.isEmpty()
                    && compiled.get(compiled.size() - 1) == Segment.GLOBSTAR) {
                continue; // "**/**" is "**"
            }
            compiled.add(c);
        }
        return new Glob(raw, norm.toString(), literal ? lit.toString() : null,
                compiled.toArray(new Segment[0]));
    }

    private List<Token> tokenize() throws PatternException {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < len) {
            int c = raw.codePointAt(i);
            int w = Character.charCount(c);
            switch (c) {
                case '\\': {
                    if (i + 1 >= len) {
                        throw error(PatternError.TRAILING_BACKSLASH, i, "the pattern ends with an unescaped '\\';"
                                + " write '\\\\' for a literal backslash");
                    }
                    int e = raw.codePointAt(i + 1);
                    int end = i + 1 + Character.charCount(e);
                    out.add(e == '/' ? new Token(T_SLASH, i, end, '/', null) : new Token(T_LIT, i, end, e, null));
                    i = end;
                    break;
                }
                case '*': {
                    int j = i;
                    while (j < len && raw.charAt(j) == '*') {
                        j++;
                    }
                    out.add(new Token(T_STAR, i, j, j - i, null));
                    i = j;
                    break;
                }
                case '?':
                    out.add(new Token(T_ANY, i, i + 1, 0, null));
                    i++;
                    break;
                case '[': {
                    CharClass[] cls = new CharClass[1];
                    int end = parseClass(i, cls);
                    out.add(new Token(T_CLASS, i, end, 0, cls[0]));
                    i = end;
                    break;
                }
                case '/':
                    out.add(new Token(T_SLASH, i, i + 1, '/', null));
                    i++;
                    break;
                default:
                    out.add(new Token(T_LIT, i, i + w, c, null));
                    i += w;
            }
        }
        return out;
    }

    private PatternException unterminated(int open) {
        return error(PatternError.INVALID_CLASS, open, "'[' opens a character class that is never closed"
                + " (git would silently match nothing); close it with ']' or write '\\[' for a literal '['");
    }

    /**
     * Parses the class opened at {@code open}, following git's wildmatch.c: a first {@code ]} (after the optional
     * {@code !} or {@code ^}) is literal; {@code \} escapes; {@code a-z} is a range unless the {@code -} comes
     * first, right after a range or [:class:], or right before the closing {@code ]}; {@code [:name:]} must be a
     * known name; {@code [:} without a closing {@code :]} is a literal {@code [}. Returns the index after the
     * closing {@code ]}.
     */
    private int parseClass(int open, CharClass[] out) throws PatternException {
        int p = open + 1;
        if (p >= len) {
            throw unterminated(open);
        }
        char c0 = raw.charAt(p);
        boolean negated = c0 == '!' || c0 == '^';
        if (negated) {
            p++;
        }
        CharClass.Builder b = new CharClass.Builder(negated);
        int prev = -1; // git's prev_ch; -1 = none (after a range or [:class:], or at the start)
        while (true) {
            if (p >= len) {
                throw unterminated(open);
            }
            int c = raw.codePointAt(p);
            int cur;
            if (c == '\\') {
                p++;
                if (p >= len) {
                    throw unterminated(open);
                }
                cur = raw.codePointAt(p);
                b.single(cur);
            } else if (c == '-' && prev >= 0 && p + 1 < len && raw.charAt(p + 1) != ']') {
                p++;
                int hi = raw.codePointAt(p);
                if (hi == '\\') {
                    p++;
                    if (p >= len) {
                        throw unterminated(open);
                    }
                    hi = raw.codePointAt(p);
                }
                b.range(prev, hi);
                cur = -1;
            } else if (c == '[' && p + 1 < len && raw.charAt(p + 1) == ':') {
                int s = p + 2;
                int q = raw.indexOf(']', s);
                if (q < 0) {
                    throw unterminated(open);
                }
                if (q - s - 1 < 0 || raw.charAt(q - 1) != ':') {
                    // no ":]" before the next ']': the '[' is an ordinary member (git does the same)
                    b.single('[');
                    cur = '[';
                } else {
                    String name = raw.substring(s, q - 1);
                    if (!CharClass.isPosixName(name)) {
                        throw error(PatternError.INVALID_CLASS, p, "unknown character class '[:"
                                + PatternException.printable(name) + ":]' (git would silently match nothing);"
                                + " use one of " + String.join(" ", CharClass.POSIX_NAMES)
                                + ", or write '\\[' for a literal '['");
                    }
                    b.posix(name);
                    cur = -1;
                    p = q;
                }
            } else {
                cur = c;
                b.single(c);
            }
            prev = cur;
            p += Character.charCount(raw.codePointAt(p));
            if (p >= len) {
                throw unterminated(open);
            }
            if (raw.charAt(p) == ']') {
                out[0] = b.build();
                return p + 1;
            }
        }
    }

    private static Segment compileSegment(List<Token> seg) {
        if (seg.size() == 1 && seg.get(0).type == T_STAR && seg.get(0).cp >= 2) {
            return Segment.GLOBSTAR;
        }
        int stars = 0;
        int starAt = -1;
        boolean simple = true;
        for (int k = 0; k < seg.size(); k++) {
            byte t = seg.get(k).type;
            if (t == T_STAR) {
                stars++;
                starAt = k;
            } else if (t != T_LIT) {
                simple = false;
            }
        }
        if (simple && stars == 0) {
            return new Segment.Literal(lits(seg, 0, seg.size()));
        }
        if (simple && stars == 1) {
            return new Segment.PrefixSuffix(lits(seg, 0, starAt), lits(seg, starAt + 1, seg.size()));
        }
        List<Byte> kinds = new ArrayList<>();
        List<String> strs = new ArrayList<>();
        List<CharClass> classes = new ArrayList<>();
        StringBuilder run = new StringBuilder();
        for (Token t : seg) {
            if (t.type == T_LIT) {
                run.appendCodePoint(t.cp);
                continue;
            }
            if (run.length() > 0) {
                kinds.add(Segment.General.LIT);
                strs.add(run.toString());
                classes.add(null);
                run.setLength(0);
            }
            kinds.add(t.type == T_ANY ? Segment.General.ANY
                    : t.type == T_CLASS ? Segment.General.CLASS : Segment.General.STAR);
            strs.add(null);
            classes.add(t.cls);
        }
        if (run.length() > 0) {
            kinds.add(Segment.General.LIT);
            strs.add(run.toString());
            classes.add(null);
        }
        byte[] k = new byte[kinds.size()];
        for (int i = 0; i < k.length; i++) {
            k[i] = kinds.get(i);
        }
        return new Segment.General(k, strs.toArray(new String[0]), classes.toArray(new CharClass[0]));
    }

    private static String lits(List<Token> seg, int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int k = from; k < to; k++) {
            b.appendCodePoint(seg.get(k).cp);
        }
        return b.toString();
    }
}
