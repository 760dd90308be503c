package dev.ralon.policy.glob;

/** A pattern that the agent.lock pattern language rejects. */
public final class PatternException extends Exception {
    private static final long serialVersionUID = 1L;
    private final PatternError kind;
    private final int offset;
    private final String reason;

    public PatternException(PatternError kind, int offset, String reason) {
        super(reason);
        this.kind = kind;
        this.offset = offset;
        this.reason = reason;
    }

    public PatternError kind() {
        return kind;
    }

    /** 0-based char index into the raw pattern. */
    public int offset() {
        return offset;
    }

    public String reason() {
        return reason;
    }
}
