package dev.ralon.policy.glob;

import java.util.Arrays;

/**
 * A compiled bracket expression {@code [...]}: matches one code point.
 *
 * <p>Built by {@link Glob}'s parser, which follows git's wildmatch.c exactly for what a class contains (ranges,
 * {@code [:name:]} classes, escapes, a leading {@code ]} or {@code -} being literal). ASCII code points are answered
 * from a 128-bit table; other code points from the range list (the {@code [:name:]} classes are ASCII only, as in
 * git's locale-independent ctype).
 */
final class CharClass {
    /** POSIX class names git's wildmatch knows. */
    static final String[] POSIX_NAMES = {
        "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit"
    };

    private final boolean negated;
    private final long ascii0; // code points 0..63
    private final long ascii1; // code points 64..127
    private final int[] lo;    // ranges (single code points are lo == hi) reaching at or above 128
    private final int[] hi;

    private CharClass(boolean negated, long ascii0, long ascii1, int[] lo, int[] hi) {
        this.negated = negated;
        this.ascii0 = ascii0;
        this.ascii1 = ascii1;
        this.lo = lo;
        this.hi = hi;
    }

    boolean matches(int cp) {
        if (cp < 64) {
            return ((ascii0 >>> cp) & 1L) != 0;
        }
        if (cp < 128) {
            return ((ascii1 >>> (cp - 64)) & 1L) != 0;
        }
        boolean in = false;
        for (int i = 0; i < lo.length; i++) {
            if (cp >= lo[i] && cp <= hi[i]) {
                in = true;
                break;
            }
        }
        return in != negated;
    }

    /** True if the ASCII code point {@code c} is in git's {@code [:name:]} class (git's sane ctype, see ctype.c). */
    static boolean posix(String name, int c) {
        if (c >= 128) {
            return false;
        }
        switch (name) {
            case "alnum": return isAlpha(c) || isDigit(c);
            case "alpha": return isAlpha(c);
            case "blank": return c == ' ' || c == '\t';
            case "cntrl": return c < 0x20 || c == 0x7f;
            case "digit": return isDigit(c);
            case "graph": return c > 0x20 && c < 0x7f;
            case "lower": return c >= 'a' && c <= 'z';
            case "print": return c >= 0x20 && c < 0x7f;
            case "punct": return c > 0x20 && c < 0x7f && !isAlpha(c) && !isDigit(c);
            // git's ctype: only TAB, LF, CR and SPACE are space (not VT or FF, unlike C's isspace)
            case "space": return c == ' ' || c == '\t' || c == '\n' || c == '\r';
            case "upper": return c >= 'A' && c <= 'Z';
            case "xdigit": return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            default: throw new IllegalArgumentException(name);
        }
    }

    static boolean isPosixName(String name) {
        for (String n : POSIX_NAMES) {
            if (n.equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isAlpha(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    /** Collects the members of a class while it is parsed. */
    static final class Builder {
        private final boolean negated;
        private int[] lo = new int[4];
        private int[] hi = new int[4];
        private int n;
        private long posixAscii0;
        private long posixAscii1;

        Builder(boolean negated) {
            this.negated = negated;
        }

        void single(int cp) {
            range(cp, cp);
        }

        /** git: {@code t_ch <= p_ch && t_ch >= prev_ch}; an inverted range is empty. */
        void range(int from, int to) {
            if (from > to) {
                return;
            }
            if (n == lo.length) {
                lo = Arrays.copyOf(lo, n * 2);
                hi = Arrays.copyOf(hi, n * 2);
            }
            lo[n] = from;
            hi[n] = to;
            n++;
        }

        void posix(String name) {
            for (int c = 0; c < 128; c++) {
                if (CharClass.posix(name, c)) {
                    if (c < 64) {
                        posixAscii0 |= 1L << c;
                    } else {
                        posixAscii1 |= 1L << (c - 64);
                    }
                }
            }
        }

        CharClass build() {
            long a0 = posixAscii0;
            long a1 = posixAscii1;
            int big = 0;
            for (int i = 0; i < n; i++) {
                for (int c = lo[i]; c <= Math.min(hi[i], 127); c++) {
                    if (c < 64) {
                        a0 |= 1L << c;
                    } else {
                        a1 |= 1L << (c - 64);
                    }
                }
                if (hi[i] >= 128) {
                    big++;
                }
            }
            int[] bl = new int[big];
            int[] bh = new int[big];
            int j = 0;
            for (int i = 0; i < n; i++) {
                if (hi[i] >= 128) {
                    bl[j] = Math.max(lo[i], 128);
                    bh[j] = hi[i];
                    j++;
                }
            }
            if (negated) {
                a0 = ~a0;
                a1 = ~a1;
            }
            return new CharClass(negated, a0, a1, bl, bh);
        }
    }
}
