package dev.ralon.policy.glob;

import java.util.Locale;

/** Why a pattern was rejected. */
public enum PatternError {
    EMPTY, ABSOLUTE, PARENT_SEGMENT, HOME, NEGATION, CONTROL_CHARACTER, INVALID_CLASS, TRAILING_BACKSLASH, ROOT;

    /** Stable id used in vector files and JSON output: lower case, dashed. */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
