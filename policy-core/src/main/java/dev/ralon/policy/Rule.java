package dev.ralon.policy;

import dev.ralon.policy.glob.Glob;

import java.nio.file.Path;

/**
 * One compiled pattern of a policy, with where it was written. The implicit rule that protects the policy file itself
 * has line 0 and {@link #implicit()} true.
 */
public final class Rule {
    private final Glob glob;
    private final int line;
    private final int column;
    private final boolean implicit;
    private final Path file;

    /** Made by the loader ({@code dev.ralon.policy.load.PolicyBuilder}) alone. */
    public Rule(Glob glob, int line, int column, boolean implicit, Path file) {
        this.glob = glob;
        this.line = line;
        this.column = column;
        this.implicit = implicit;
        this.file = file;
    }

    /**
     * The policy file that holds this rule, as it was given to the loader (for content parsed from elsewhere, such as
     * a git revision, the name given for it, e.g. {@code HEAD:agent.lock}). Several policies can be in force at once
     * (docs/spec.md §2): this says which one a rule belongs to.
     */
    public Path file() {
        return file;
    }

    /**
     * Where the rule is written: {@code agent.lock:4}, the file shown relative to the working directory when beneath
     * it, else absolute; for the implicit rule, the file alone ({@link RuleText#location}).
     */
    public String location() {
        return RuleText.location(this, RuleText.Naming.SHOWN);
    }

    /**
     * {@link #location()}, or with {@code nameOnly} the file's name alone ({@code agent.lock:4}): enough, and what
     * tools print, when a single policy is in force.
     */
    public String location(boolean nameOnly) {
        return RuleText.location(this, RuleText.Naming.of(nameOnly));
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

    @Override
    public String toString() {
        return implicit ? pattern() + " (implicit)" : pattern() + " @" + line + ":" + column;
    }
}
