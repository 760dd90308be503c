package dev.ralon.policy.glob;

/** Interim matcher (a direct port of git's wildmatch); replaced by the matcher branch. */
public final class Glob {
    private final String source;
    private final String normalized;

    private Glob(String source, String normalized) {
        this.source = source;
        this.normalized = normalized;
    }

    public static Glob compile(String raw) throws PatternException {
        if (raw.isBlank()) throw new PatternException(PatternError.EMPTY, 0, "empty pattern");
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c < 0x20 || c == 0x7f) throw new PatternException(PatternError.CONTROL_CHARACTER, i, "control character");
        }
        if (raw.startsWith("/")) throw new PatternException(PatternError.ABSOLUTE, 0, "absolute pattern: patterns are relative to the directory holding agent.lock");
        if (raw.startsWith("!")) throw new PatternException(PatternError.NEGATION, 0, "negation is not supported");
        if (raw.startsWith("~")) throw new PatternException(PatternError.HOME, 0, "~ is not expanded");
        StringBuilder sb = new StringBuilder();
        for (String seg : raw.split("/")) {
            if (seg.isEmpty() || seg.equals(".")) continue;
            if (seg.equals("..")) throw new PatternException(PatternError.PARENT_SEGMENT, raw.indexOf(".."), "'..' segment");
            if (sb.length() > 0) sb.append('/');
            sb.append(seg);
        }
        if (sb.length() == 0) throw new PatternException(PatternError.ROOT, 0, "pattern names the root");
        return new Glob(raw, sb.toString());
    }

    public String source() { return source; }
    public String normalized() { return normalized; }

    public boolean isLiteral() {
        for (int i = 0; i < normalized.length(); i++) {
            char c = normalized.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == '\\') return false;
        }
        return true;
    }

    public String literalPath() {
        if (!isLiteral()) throw new IllegalStateException("not literal: " + source);
        return normalized;
    }

    public boolean matchesExactly(String path) {
        return dowild(normalized, 0, path, 0) == 1;
    }

    public boolean matches(String path) {
        if (matchesExactly(path)) return true;
        for (int i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
            if (matchesExactly(path.substring(0, i))) return true;
        }
        return false;
    }

    public boolean couldMatchBeneath(String dir) {
        return true;
    }

    @Override
    public String toString() { return source; }

    // git wildmatch.c dowild with WM_PATHNAME: 1 match, 0 no match, -1 abort all, -2 abort to starstar
    private static int dowild(String p, int pi, String t, int ti) {
        for (; pi < p.length(); pi++, ti++) {
            char pc = p.charAt(pi);
            if (ti >= t.length() && pc != '*') return -1;
            char tc = ti < t.length() ? t.charAt(ti) : 0;
            switch (pc) {
                case '\\':
                    pi++;
                    if (tc != p.charAt(pi)) return 0;
                    break;
                case '?':
                    if (tc == '/') return 0;
                    break;
                case '*': {
                    boolean matchSlash;
                    int prev = pi;
                    if (pi + 1 < p.length() && p.charAt(pi + 1) == '*') {
                        while (pi + 1 < p.length() && p.charAt(pi + 1) == '*') pi++;
                        boolean startOk = prev == 0 || p.charAt(prev - 1) == '/';
                        boolean endSlash = pi + 1 < p.length() && p.charAt(pi + 1) == '/';
                        boolean end = pi + 1 >= p.length();
                        if (startOk && (end || endSlash)) {
                            if (endSlash && dowild(p, pi + 2, t, ti) == 1) return 1;
                            matchSlash = true;
                        } else {
                            matchSlash = false;
                        }
                    } else {
                        matchSlash = false;
                    }
                    pi++;
                    if (pi >= p.length()) {
                        if (!matchSlash && t.indexOf('/', ti) >= 0) return 0;
                        return 1;
                    } else if (!matchSlash && p.charAt(pi) == '/') {
                        int slash = t.indexOf('/', ti);
                        if (slash < 0) return 0;
                        ti = slash;
                        pi--; // loop increments
                        pi++;
                        // emulate "continue" with text at slash and pattern at '/'
                        pi--; 
                        continue;
                    }
                    while (true) {
                        if (ti >= t.length()) return -1;
                        int r = dowild(p, pi, t, ti);
                        if (r != 0) {
                            if (!matchSlash || r != -2) return r;
                        } else if (!matchSlash && t.charAt(ti) == '/') {
                            return -2;
                        }
                        ti++;
                    }
                }
                case '[': {
                    pi++;
                    boolean negated = pi < p.length() && (p.charAt(pi) == '!' || p.charAt(pi) == '^');
                    if (negated) pi++;
                    boolean matched = false;
                    char prevCh = 0;
                    boolean first = true;
                    while (pi < p.length() && (first || p.charAt(pi) != ']')) {
                        char c = p.charAt(pi);
                        if (c == '\\') {
                            pi++;
                            c = p.charAt(pi);
                            if (tc == c) matched = true;
                        } else if (c == '-' && prevCh != 0 && pi + 1 < p.length() && p.charAt(pi + 1) != ']') {
                            pi++;
                            c = p.charAt(pi);
                            if (c == '\\') { pi++; c = p.charAt(pi); }
                            if (tc <= c && tc >= prevCh) matched = true;
                            c = 0;
                        } else if (c == '[' && pi + 1 < p.length() && p.charAt(pi + 1) == ':') {
                            int end = p.indexOf(":]", pi + 2);
                            if (end < 0) return -1;
                            String cls = p.substring(pi + 2, end);
                            if (posix(cls, tc)) matched = true;
                            pi = end + 1;
                            c = 0;
                        } else if (tc == c) {
                            matched = true;
                        }
                        prevCh = c;
                        first = false;
                        pi++;
                    }
                    if (pi >= p.length()) return -1;
                    if (matched == negated || tc == '/') return 0;
                    break;
                }
                default:
                    if (tc != pc) return 0;
            }
        }
        return ti >= t.length() ? 1 : 0;
    }

    private static boolean posix(String cls, char c) {
        switch (cls) {
            case "alnum": return Character.isLetterOrDigit(c) && c < 128;
            case "alpha": return Character.isLetter(c) && c < 128;
            case "blank": return c == ' ' || c == '\t';
            case "cntrl": return c < 32 || c == 127;
            case "digit": return c >= '0' && c <= '9';
            case "graph": return c > 32 && c < 127;
            case "lower": return c >= 'a' && c <= 'z';
            case "print": return c >= 32 && c < 127;
            case "punct": return c > 32 && c < 127 && !Character.isLetterOrDigit(c);
            case "space": return c == ' ' || (c >= 9 && c <= 13);
            case "upper": return c >= 'A' && c <= 'Z';
            case "xdigit": return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            default: return false;
        }
    }
}
