package dev.ralon.policy.glob;

/**
 * A pattern written in agent.lock is not valid.
 *
 * <p>{@link #kind()} says which rule was broken, {@link #offset()} is the 0-based char index into the raw pattern of
 * the offending character, and {@link #reason()} is one line in plain words saying what is wrong and what to write
 * instead. {@link #getMessage()} combines the three with the pattern itself.
 */
public final class PatternException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String pattern;
    private final PatternError kind;
    private final int offset;
    private final String reason;

    PatternException(String pattern, PatternError kind, int offset, String reason) {
        super("invalid pattern '" + printable(pattern) + "' at offset " + offset + " (" + kind.id() + "): " + reason);
        this.pattern = pattern;
        this.kind = kind;
        this.offset = offset;
        this.reason = reason;
    }

    /** The raw pattern as written. */
    public String pattern() {
        return pattern;
    }

    /** Which rule the pattern breaks. */
    public PatternError kind() {
        return kind;
    }

    /** 0-based char index into the raw pattern of the offending character. */
    public int offset() {
        return offset;
    }

    /**
     * 0-based index in Unicode code points of the offending character: the unit of the spec and of the vectors
     * (spec §10.3; {@link #offset()} is the same place as a Java char index).
     */
    public int codePointOffset() {
        return pattern.codePointCount(0, Math.min(offset, pattern.length()));
    }

    /** One line, plain words: what is wrong and what to write instead. */
    public String reason() {
        return reason;
    }

    /** Renders control characters as {@code \u0009} so the message stays on one line. */
    static String printable(String s) {
        return printable(s, Integer.MAX_VALUE);
    }

    /**
     * {@link #printable(String)}, stopping once at least {@code max} characters are written (a long value quoted in a
     * message).
     */
    public static String printable(String s, int max) {
        StringBuilder b = new StringBuilder(Math.min(s.length(), max));
        for (int i = 0; i < s.length() && b.length() < max; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\u%04X", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
