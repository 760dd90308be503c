package dev.ralon.policy.glob;

/**
 * One compiled pattern segment (the text between two {@code /}), matched against one path segment
 * {@code path[from, to)} which never contains {@code /} and is never empty.
 *
 * <p>Wildcards inside a segment: {@code *} (any run of code points, incl. none), {@code ?} (one code point), classes
 * (one code point). Every element except {@code *} consumes a fixed number of code points, so the classic
 * "resume after the last star" scan is exact and runs in O(|segment pattern| x |path segment|) with no recursion.
 */
abstract class Segment {

    /** A whole-segment {@code **} (matched by the segment automaton in {@link Glob}, never called). */
    static final Segment GLOBSTAR = new Segment() {
        @Override
        boolean matches(String path, int from, int to) {
            return true;
        }
    };

    abstract boolean matches(String path, int from, int to);

    /**
     * Whether this segment matches every possible name (every non-empty run of code points without {@code /}):
     * decided by its form, true exactly for segments made of {@code *} and at most one {@code ?} (e.g. {@code *},
     * {@code ?*}). A class is never counted as matching everything, even one that would.
     */
    boolean matchesEveryName() {
        return false;
    }

    /** Fast path: no wildcard at all. */
    static final class Literal extends Segment {
        private final String text;

        Literal(String text) {
            this.text = text;
        }

        String text() {
            return text;
        }

        @Override
        boolean matches(String path, int from, int to) {
            return to - from == text.length() && path.startsWith(text, from);
        }
    }

    /** Fast path: {@code prefix*suffix} with literal prefix and suffix (either may be empty), e.g. {@code *.pem}. */
    static final class PrefixSuffix extends Segment {
        private final String prefix;
        private final String suffix;

        PrefixSuffix(String prefix, String suffix) {
            this.prefix = prefix;
            this.suffix = suffix;
        }

        @Override
        boolean matches(String path, int from, int to) {
            return to - from >= prefix.length() + suffix.length()
                    && path.startsWith(prefix, from)
                    && path.startsWith(suffix, to - suffix.length());
        }

        @Override
        boolean matchesEveryName() {
            return prefix.isEmpty() && suffix.isEmpty();
        }
    }

    /** The general case: a sequence of literal runs, {@code ?}, classes and {@code *}. */
    static final class General extends Segment {
        static final byte LIT = 0;
        static final byte ANY = 1;
        static final byte CLASS = 2;
        static final byte STAR = 3;

        private final byte[] kind;
        private final String[] lit;
        private final CharClass[] cls;

        private final int minChars; // fewest UTF-16 units a match needs

        General(byte[] kind, String[] lit, CharClass[] cls) {
            this.kind = kind;
            this.lit = lit;
            this.cls = cls;
            int min = 0;
            for (int i = 0; i < kind.length; i++) {
                min += kind[i] == LIT ? lit[i].length() : kind[i] == STAR ? 0 : 1;
            }
            this.minChars = min;
        }

        @Override
        boolean matchesEveryName() {
            int any = 0;
            int stars = 0;
            for (byte k : kind) {
                if (k == ANY) {
                    any++;
                } else if (k == STAR) {
                    stars++;
                } else {
                    return false;
                }
            }
            return stars > 0 && any <= 1; // a name has at least one code point; "?" alone only matches one
        }

        @Override
        boolean matches(String path, int from, int to) {
            if (to - from < minChars) {
                return false;
            }
            final int np = kind.length;
            int pi = 0;
            int ti = from;
            int starP = -1;
            int starT = -1;
            while (true) {
                if (pi < np) {
                    byte k = kind[pi];
                    if (k == STAR) {
                        starP = pi;
                        starT = ti;
                        pi++;
                        continue;
                    }
                    if (ti < to) {
                        if (k == LIT) {
                            String s = lit[pi];
                            if (to - ti >= s.length() && path.startsWith(s, ti)) {
                                ti += s.length();
                                pi++;
                                continue;
                            }
                        } else {
                            int cp = path.codePointAt(ti);
                            if (k == ANY || cls[pi].matches(cp)) {
                                ti += Character.charCount(cp);
                                pi++;
                                continue;
                            }
                        }
                    }
                } else if (ti == to || starP == np - 1) {
                    return true; // pattern and text both used up, or a trailing star takes the rest
                }
                // mismatch: let the last star swallow one more code point, or fail
                if (starP < 0 || starT >= to) {
                    return false;
                }
                starT += Character.charCount(path.codePointAt(starT));
                if (starP + 1 < np && kind[starP + 1] == LIT) {
                    // the star is followed by a literal: jump to its next occurrence (nothing before it can match)
                    String s = lit[starP + 1];
                    int at = path.indexOf(s, starT);
                    if (at < 0 || at > to - s.length()) {
                        return false;
                    }
                    starT = at;
                }
                ti = starT;
                pi = starP + 1;
            }
        }
    }
}
