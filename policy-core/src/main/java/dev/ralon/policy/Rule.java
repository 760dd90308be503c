package dev.ralon.policy;

import dev.ralon.policy.glob.Glob;

/**
 * One compiled pattern of a policy, with where it was written. The implicit rule that protects the policy file itself
 * has line 0 and {@link #implicit()} true.
 */
public final class Rule {
    private final Glob glob;
    private final int line;
    private final int column;
    private final boolean implicit;

    Rule(Glob glob, int line, int column, boolean implicit) {
        this.glob = glob;
        this.line = line;
        this.column = column;
        this.implicit = implicit;
    }

    /** The pattern as written in the file. */
    public String pattern() {
        return glob.source();
    }

    public Glob glob() {
        return glob;
    }

    /** 1-based line in the policy file; 0 for the implicit self-protection rule. */
    public int line() {
        return line;
    }

    public int column() {
        return column;
    }

    public boolean implicit() {
        return implicit;
    }

    /**
     * Whether this rule protects the relative path: matched itself, beneath a matched path, or held by the pattern
     * (every path that could exist beneath it is matched: {@code X/**} protects {@code X}, see {@link Glob#holds}).
     */
    public boolean matches(String relPath) {
        return glob.protects(relPath);
    }

    /** Whether this rule protects the relative path only because the pattern {@link Glob#holds holds} it. */
    public boolean holdsOnly(String relPath) {
        return !glob.matches(relPath) && glob.holds(relPath);
    }

    /** "pattern (agent.lock:4)" or "agent.lock (always protected)". */
    public String describe(String policyFileName) {
        return implicit ? pattern() + " (the policy file is always protected)"
                : pattern() + " (" + policyFileName + ":" + line + ")";
    }

    @Override
    public String toString() {
        return implicit ? pattern() + " (implicit)" : pattern() + " @" + line + ":" + column;
    }
}
