package dev.ralon.policy.glob;

import java.util.ArrayList;
import java.util.List;

/**
 * A compiled {@code agent.lock} pattern: git's wildmatch with {@code WM_PATHNAME}, anchored at the directory holding
 * agent.lock. The normative description is {@code docs/spec-patterns.md}; in short:
 *
 * <ul>
 *   <li>{@code *} matches any run of characters except {@code /}, {@code ?} one code point except {@code /};</li>
 *   <li>{@code **} as a whole segment ({@code **}/x, x/{@code **}, x/{@code **}/y, or the whole pattern) matches zero
 *       or more segments (a trailing one: one or more, since it follows a {@code /}); any other {@code **} acts like
 *       {@code *};</li>
 *   <li>{@code [...]}, {@code [!...]}, {@code [^...]} classes with ranges and {@code [:alpha:]}-style names, exactly
 *       as git's wildmatch.c parses them; {@code \} makes the next character literal;</li>
 *   <li>a pattern without {@code /} does not float: {@code *.pem} names top-level files only;</li>
 *   <li>matching is case-sensitive, on UTF-16 strings, one code point per {@code ?} or class;</li>
 *   <li>a pattern that matches a directory covers everything beneath it ({@link #matches(String)}).</li>
 * </ul>
 *
 * <p>Instances are immutable and thread-safe. Matching does not recurse and does not allocate for patterns of up
 * to 63 segments; its cost is polynomial (segments x pattern segments x segment-pattern length) for every input.
 *
 * <p>Path arguments are relative to the policy root, {@code /}-separated, without leading or trailing {@code /},
 * and never empty ({@link #couldMatchBeneath(String)} also takes {@code ""} for the root). An empty path argument
 * (except that one) or one with a leading or trailing {@code /} gives {@link IllegalArgumentException}; other
 * malformations (an empty or {@code .} segment) are not detected and simply match as written.
 */
public final class Glob {

    private static final int EXACT = 0;
    private static final int COVERS = 1;
    private static final int BENEATH = 2;

    private final String source;
    private final String normalized;
    private final String literalPath; // null unless literal
    private final Segment[] segs;     // consecutive ** collapsed
    private final int n;
    private final boolean hasGlobstar;
    private final boolean trailingGlobstar;
    private final long innerGlobstars; // bit i: segs[i] is ** and i < n - 1
    private final boolean leadingGlobstarOnly; // "**/t1/.../tk", k >= 1, no other **
    private final int prefixSegs;     // number of leading literal segments
    private final String prefix;      // those segments joined, with a trailing '/'

    private Glob(String source, String normalized, String literalPath, Segment[] segs) {
        this.source = source;
        this.normalized = normalized;
        this.literalPath = literalPath;
        this.segs = segs;
        this.n = segs.length;
        boolean any = false;
        long inner = 0;
        for (int i = 0; i < n; i++) {
            if (segs[i] == Segment.GLOBSTAR) {
                any = true;
                if (i < n - 1 && i < 64) {
                    inner |= 1L << i;
                }
            }
        }
        this.hasGlobstar = any;
        this.trailingGlobstar = segs[n - 1] == Segment.GLOBSTAR;
        this.innerGlobstars = inner;
        boolean lead = n >= 2 && segs[0] == Segment.GLOBSTAR;
        for (int i = 1; i < n && lead; i++) {
            lead = segs[i] != Segment.GLOBSTAR;
        }
        this.leadingGlobstarOnly = lead;
        int ps = 0;
        StringBuilder pre = new StringBuilder();
        while (ps < n - 1 && segs[ps] instanceof Segment.Literal) {
            pre.append(((Segment.Literal) segs[ps]).text()).append('/');
            ps++;
        }
        this.prefixSegs = ps;
        this.prefix = pre.toString();
    }

    /**
     * Validates and normalises a raw pattern as written in agent.lock.
     *
     * <p>Checks, in this order: {@link PatternError#EMPTY}, {@link PatternError#CONTROL_CHARACTER},
     * {@link PatternError#ABSOLUTE}, {@link PatternError#HOME}, {@link PatternError#NEGATION}, then left to right
     * {@link PatternError#TRAILING_BACKSLASH} and {@link PatternError#INVALID_CLASS}, then
     * {@link PatternError#PARENT_SEGMENT}, then {@link PatternError#ROOT}. Leading and trailing white space is part
     * of the pattern (nothing is trimmed).
     *
     * @throws PatternException if the pattern is rejected; it carries the kind, offset and a one-line reason
     */
    public static Glob compile(String raw) throws PatternException {
        if (raw == null) {
            throw new NullPointerException("pattern");
        }
        return new Parser(raw).parse();
    }

    /**
     * White space for the {@link PatternError#EMPTY} rule, by code point (spec §7.5): TAB, LF, VT, FF, CR
     * (U+0009–U+000D), the space separators of Unicode 15 (U+0020, U+00A0, U+1680, U+2000–U+200A, U+202F, U+205F,
     * U+3000), LS (U+2028) and PS (U+2029). Fixed here rather than taken from the JDK's Unicode tables, so that it does
     * not change with the Java version. (All of these are in the Basic Multilingual Plane: a char is a code point.)
     */
    public static boolean isWhiteSpace(int c) {
        return (c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A)
                || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
    }

    /** The raw pattern, as written. */
    public String source() {
        return source;
    }

    /**
     * The pattern with {@code ./} segments removed (leading, inner and trailing), runs of {@code /} collapsed, the
     * trailing {@code /} removed and an escaped slash {@code \/} written as {@code /}. If removing a leading
     * {@code ./} exposed a {@code ~} or {@code !}, it is escaped ({@code \~}, {@code \!}) so that the normalised form
     * is itself a valid pattern with the same meaning. Everything else is kept as written.
     */
    public String normalized() {
        return normalized;
    }

    /** True if the pattern has no unescaped wildcard or class: it names exactly one path. */
    public boolean isLiteral() {
        return literalPath != null;
    }

    /**
     * For a literal pattern: the relative path it names, with escapes removed.
     *
     * @throws IllegalStateException if the pattern is not literal
     */
    public String literalPath() {
        if (literalPath == null) {
            throw new IllegalStateException("pattern '" + source + "' is not literal");
        }
        return literalPath;
    }

    /** wildmatch(WM_PATHNAME) of the normalised pattern against {@code relPath} only (no "covers beneath" rule). */
    public boolean matchesExactly(String relPath) {
        checkPath(relPath);
        return run(relPath, EXACT);
    }

    /** True if the pattern matches {@code relPath} or any ancestor of it (a matched directory covers its contents). */
    public boolean matches(String relPath) {
        checkPath(relPath);
        return run(relPath, COVERS);
    }

    /**
     * Pruning for a file-system walk: could {@link #matches(String)} hold for some path strictly beneath
     * {@code dirRelPath} ({@code ""} = the root)? Never answers false when such a path exists; may answer true when
     * none does (for example for a class that no character satisfies).
     */
    public boolean couldMatchBeneath(String dirRelPath) {
        if (dirRelPath.isEmpty()) {
            return true;
        }
        checkPath(dirRelPath);
        return run(dirRelPath, BENEATH);
    }

    /** The source, as written. */
    @Override
    public String toString() {
        return source;
    }

    /** Two globs are equal when their sources are equal. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Glob && ((Glob) o).source.equals(source);
    }

    @Override
    public int hashCode() {
        return source.hashCode();
    }

    private static void checkPath(String p) {
        int len = p.length();
        if (len == 0 || p.charAt(0) == '/' || p.charAt(len - 1) == '/') {
            throw new IllegalArgumentException("relative path expected (no leading or trailing '/', not empty): '"
                    + PatternException.printable(p) + "'");
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // matching: an automaton over path segments. State i = "segs[i] is next"; state n = "all of the pattern matched".
    // A ** that is not last may be skipped (epsilon to i + 1) or swallow one segment and stay; a trailing ** swallows
    // the current segment and everything after it.

    private boolean run(String path, int mode) {
        if (literalPath != null) {
            return runLiteral(path, mode);
        }
        if (!hasGlobstar) {
            return runLinear(path, mode);
        }
        if (leadingGlobstarOnly && mode != BENEATH) {
            return runLeadingGlobstar(path, mode);
        }
        if (mode == EXACT && !trailingGlobstar) {
            // cheap rejection: the last segment of an exact match is matched by the last pattern segment
            int slash = path.lastIndexOf('/');
            if (!segs[n - 1].matches(path, slash + 1, path.length())) {
                return false;
            }
        }
        if (n < 64) {
            return runMask(path, mode);
        }
        return runWide(path, mode);
    }

    /** A literal pattern names one path: plain string comparison. */
    private boolean runLiteral(String path, int mode) {
        String lit = literalPath;
        int ll = lit.length();
        int pl = path.length();
        switch (mode) {
            case EXACT:
                return path.equals(lit);
            case COVERS:
                // the path itself, or a path beneath it
                return path.startsWith(lit) && (pl == ll || path.charAt(ll) == '/');
            default:
                // the directory is the literal path or beneath it (covered), or an ancestor of it
                return path.startsWith(lit) ? pl == ll || path.charAt(ll) == '/'
                        : lit.startsWith(path) && lit.charAt(pl) == '/';
        }
    }

    /**
     * {@code **}/t1/.../tk with no other {@code **}: an exact match is a match of the last k path segments; a covers
     * match is a match of k consecutive segments anywhere.
     */
    private boolean runLeadingGlobstar(String path, int mode) {
        final int k = n - 1;
        final int len = path.length();
        if (mode == EXACT) {
            int to = len;
            for (int i = n - 1; i >= 1; i--) {
                if (to < 0) {
                    return false; // fewer than k segments
                }
                int slash = path.lastIndexOf('/', to - 1);
                if (!segs[i].matches(path, slash + 1, to)) {
                    return false;
                }
                to = slash;
            }
            return true;
        }
        // COVERS: try every start segment
        int start = 0;
        while (true) {
            int from = start;
            int i = 1;
            while (true) {
                int slash = path.indexOf('/', from);
                int to = slash < 0 ? len : slash;
                if (!segs[i].matches(path, from, to)) {
                    break;
                }
                if (++i > k) {
                    return true;
                }
                if (slash < 0) {
                    return false; // the path ran out: no later start can get further
                }
                from = slash + 1;
            }
            int next = path.indexOf('/', start);
            if (next < 0) {
                return false;
            }
            start = next + 1;
        }
    }

    private boolean runLinear(String path, int mode) {
        int len = path.length();
        int from = 0;
        for (int i = 0; i < n; i++) {
            if (from > len) {
                // the path has fewer segments than the pattern
                return mode == BENEATH;
            }
            int slash = path.indexOf('/', from);
            int to = slash < 0 ? len : slash;
            if (!segs[i].matches(path, from, to)) {
                return false;
            }
            from = to + 1;
        }
        return mode != EXACT || from > len;
    }

    private long closure(long s) {
        return s | ((s & innerGlobstars) << 1);
    }

    private boolean runMask(String path, int mode) {
        final long accept = 1L << n;
        final long last = 1L << (n - 1);
        final int len = path.length();
        long state;
        int from;
        if (prefixSegs > 0 && mode != BENEATH) {
            // leading literal segments: one string comparison. Whatever follows them matches at least one segment,
            // so a matching path (or matching ancestor) starts with "prefix/" and has more after it.
            if (!path.startsWith(prefix) || path.length() == prefix.length()) {
                return false;
            }
            state = closure(1L << prefixSegs);
            from = prefix.length();
        } else {
            state = closure(1L);
            from = 0;
        }
        while (true) {
            if (trailingGlobstar && (state & last) != 0) {
                return true; // the trailing ** takes this segment and all after it
            }
            int slash = path.indexOf('/', from);
            int to = slash < 0 ? len : slash;
            long next = 0;
            for (long s = state & ~accept; s != 0; s &= s - 1) {
                int i = Long.numberOfTrailingZeros(s);
                Segment g = segs[i];
                if (g == Segment.GLOBSTAR) {
                    next |= 1L << i;
                } else if (g.matches(path, from, to)) {
                    next |= 1L << (i + 1);
                }
            }
            next = closure(next);
            if (slash < 0) {
                return mode == BENEATH ? next != 0 : (next & accept) != 0;
            }
            if (next == 0) {
                return false;
            }
            if (mode != EXACT && (next & accept) != 0) {
                return true;
            }
            state = next;
            from = slash + 1;
        }
    }

    /** Same automaton for patterns of 64 segments or more (allocates two small arrays per call). */
    private boolean runWide(String path, int mode) {
        final int len = path.length();
        boolean[] state = new boolean[n + 1];
        boolean[] next = new boolean[n + 1];
        state[0] = true;
        closeWide(state);
        int from = 0;
        while (true) {
            if (trailingGlobstar && state[n - 1]) {
                return true;
            }
            int slash = path.indexOf('/', from);
            int to = slash < 0 ? len : slash;
            boolean any = false;
            java.util.Arrays.fill(next, false);
            for (int i = 0; i < n; i++) {
                if (!state[i]) {
                    continue;
                }
                Segment g = segs[i];
                if (g == Segment.GLOBSTAR) {
                    next[i] = true;
                    any = true;
                } else if (g.matches(path, from, to)) {
                    next[i + 1] = true;
                    any = true;
                }
            }
            closeWide(next);
            if (slash < 0) {
                return mode == BENEATH ? any : next[n];
            }
            if (!any) {
                return false;
            }
            if (mode != EXACT && next[n]) {
                return true;
            }
            boolean[] t = state;
            state = next;
            next = t;
            from = slash + 1;
        }
    }

    private void closeWide(boolean[] s) {
        for (int i = 0; i < n - 1; i++) {
            if (s[i] && segs[i] == Segment.GLOBSTAR) {
                s[i + 1] = true;
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // parsing

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

    private static final class Parser {
        private final String raw;
        private final int len;

        Parser(String raw) {
            this.raw = raw;
            this.len = raw.length();
        }

        private PatternException error(PatternError kind, int offset, String reason) {
            return new PatternException(raw, kind, offset, reason);
        }

        Glob parse() throws PatternException {
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
}
