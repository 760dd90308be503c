package dev.ralon.policy.glob;

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
 *
 * <p>Three classes share the work, as in JGit's ignore package: {@link GlobParser} turns the raw text into segments
 * (or a {@link PatternException}), {@link GlobMatcher} runs them against paths, and this class is the rule: what the
 * pattern is (source, normalised form, literal path, held path) and what it protects.
 */
public final class Glob {

    private final String source;
    private final String normalized;
    private final String literalPath; // null unless literal
    private final GlobMatcher matcher;

    /** For {@link GlobParser}: a valid pattern, its normalised form, its path when literal, its compiled segments. */
    Glob(String source, String normalized, String literalPath, Segment[] segs) {
        this.source = source;
        this.normalized = normalized;
        this.literalPath = literalPath;
        this.matcher = new GlobMatcher(literalPath, segs);
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
        return GlobParser.parse(raw);
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
        return matcher.run(relPath, GlobMatcher.EXACT);
    }

    /** True if the pattern matches {@code relPath} or any ancestor of it (a matched directory covers its contents). */
    public boolean matches(String relPath) {
        checkPath(relPath);
        return matcher.run(relPath, GlobMatcher.COVERS);
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
        return matcher.run(dirRelPath, GlobMatcher.BENEATH);
    }

    /**
     * Whether the pattern <em>holds</em> {@code dirRelPath}: it matches ({@link #matchesExactly}) every path that
     * could exist directly beneath it, whatever its name, so (a matched path covering everything beneath it) every
     * path that could ever exist beneath it. {@code X/**}, {@code X/*} and {@code X/**}{@code /*} hold {@code X};
     * {@code **}{@code /b/**} holds every {@code b}; {@code X/**}{@code /*.yml} holds nothing. The policy treats a
     * held path as protected itself (docs/spec-patterns.md, "Patterns that hold a directory"), so that entries
     * created in it later are protected too. Decided by form: the last segment is {@code **} or matches every name
     * ({@code *}, {@code ?*}: a segment of stars and at most one {@code ?}), and the pattern matches
     * {@code dirRelPath/x}, its last segment taking the new name alone or, for {@code **}, with segments of
     * {@code dirRelPath} before it: {@code X/**} holds every directory beneath {@code X}, {@code **} every directory
     * (spec-patterns.md §7.6.1, rule 2).
     */
    public boolean holds(String dirRelPath) {
        if (!matcher.holdingTail()) {
            return false;
        }
        checkPath(dirRelPath);
        return matcher.run(dirRelPath + "/x", GlobMatcher.EXACT);
    }

    /**
     * What a policy protects with this pattern: {@link #matches} (the path or an ancestor is matched) or
     * {@link #holds} (every path that could exist beneath it is matched).
     */
    public boolean protects(String relPath) {
        return matches(relPath) || holds(relPath);
    }

    /**
     * For a pattern whose wildcards only say "everything beneath a literal path" ({@code L/**}, {@code L/*},
     * {@code L/**}{@code /*}): {@code L}, the one path it {@link #holds}; else null. Such a pattern protects paths
     * created later beneath L; any other pattern with a wildcard is expanded when a run starts.
     */
    public String literalHolder() {
        return matcher.holder();
    }

    /**
     * The pattern's leading literal segments before its last one, each followed by '/' ({@code "src/main/"} for
     * {@code src/main/**}{@code /*.pem}); {@code ""} when the first segment has a wildcard or the pattern has one
     * segment. Every path the pattern matches beneath the root starts with it.
     */
    public String literalPrefix() {
        return matcher.prefix();
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
}
