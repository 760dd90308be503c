package dev.ralon.policy.glob;

/**
 * The matching half of a {@link Glob}: an automaton over path segments, built once from the segments
 * {@link GlobParser} compiled. State i = "segment i is next"; state n = "all of the pattern matched". A {@code **}
 * that is not last may be skipped (epsilon to i + 1) or swallow one segment and stay; a trailing {@code **} swallows
 * the current segment and everything after it.
 *
 * <p>Three questions, one automaton ({@link #run}): {@link #EXACT} (wildmatch itself), {@link #COVERS} (the path or an
 * ancestor matches) and {@link #BENEATH} (some path beneath could match). Paths are checked by the caller
 * ({@link Glob}). Immutable and thread-safe; does not recurse, and does not allocate for patterns of up to 63
 * segments.
 */
final class GlobMatcher {

    static final int EXACT = 0;
    static final int COVERS = 1;
    static final int BENEATH = 2;

    private final String literalPath; // null unless literal
    private final Segment[] segs;     // consecutive ** collapsed
    private final int n;
    private final boolean hasGlobstar;
    private final boolean trailingGlobstar;
    private final long innerGlobstars; // bit i: segs[i] is ** and i < n - 1
    private final boolean leadingGlobstarOnly; // "**/t1/.../tk", k >= 1, no other **
    private final int prefixSegs;     // number of leading literal segments
    private final String prefix;      // those segments joined, with a trailing '/'
    private final boolean holdingTail; // the last segment is ** or matches every name (see Glob.holds)
    private final String holder;      // L for a pattern "L/**", "L/*", "L/**/*" (L literal), else null

    GlobMatcher(String literalPath, Segment[] segs) {
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
        this.holdingTail = trailingGlobstar || segs[n - 1].matchesEveryName();
        // L/** , L/<every name>, L/**/<every name>: the segments after the literal prefix hold L itself
        int tail = n - ps;
        boolean holdsPrefix = ps > 0 && (tail == 1 ? holdingTail
                : tail == 2 && segs[ps] == Segment.GLOBSTAR && segs[n - 1].matchesEveryName());
        this.holder = holdsPrefix ? prefix.substring(0, prefix.length() - 1) : null;
    }

    /** Whether the last segment is {@code **} or matches every name: the form {@link Glob#holds} needs. */
    boolean holdingTail() {
        return holdingTail;
    }

    /** {@link Glob#literalPrefix()}. */
    String prefix() {
        return prefix;
    }

    /** {@link Glob#literalHolder()}. */
    String holder() {
        return holder;
    }

    /** Whether {@code path} (checked by the caller) is accepted in {@code mode}: {@link #EXACT}, {@link #COVERS} or {@link #BENEATH}. */
    boolean run(String path, int mode) {
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
}
