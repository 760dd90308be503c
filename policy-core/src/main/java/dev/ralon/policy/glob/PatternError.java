package dev.ralon.policy.glob;

import java.util.Locale;

/**
 * Why an {@code agent.lock} pattern was rejected by {@link Glob#compile(String)}.
 *
 * <p>Each constant has a stable {@link #id()} (lower case, dashed) used in the language-neutral test vectors
 * ({@code dev/ralon/spec/v1/vectors/match.json}) and in machine-readable diagnostics.
 */
public enum PatternError {
    /** The pattern is empty or consists of white space only. */
    EMPTY,
    /** The pattern starts with {@code /}: patterns are relative to the directory holding agent.lock. */
    ABSOLUTE,
    /** A segment is {@code ..}: a pattern may not leave the directory holding agent.lock. */
    PARENT_SEGMENT,
    /** The pattern starts with {@code ~}: home directories are not expanded. */
    HOME,
    /** The pattern starts with {@code !}: negation is not supported, agent.lock only adds protection. */
    NEGATION,
    /** The pattern contains a control character (U+0000 to U+001F or U+007F). */
    CONTROL_CHARACTER,
    /** A {@code [} opens a character class that is never closed, or names an unknown {@code [:class:]}. */
    INVALID_CLASS,
    /** The pattern ends with an unescaped {@code \}. */
    TRAILING_BACKSLASH,
    /** The pattern normalises to the agent.lock directory itself (for example {@code .} or {@code ./}). */
    ROOT;

    /** The stable identifier, e.g. {@code "parent-segment"}: the constant's name in lower case with dashes. */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The constant whose {@link #id()} is {@code id}. */
    public static PatternError fromId(String id) {
        for (PatternError e : values()) {
            if (e.id().equals(id)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown pattern error id: " + id);
    }
}
