package dev.ralon.policy;

import dev.ralon.policy.glob.PatternError;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A policy that cannot be used, with where and why. {@link #getMessage()} is one line:
 * {@code agent.lock:4:3: reason} (line and column 1-based; omitted when unknown), the file shown relative to the
 * working directory when it lies beneath it.
 */
public final class PolicyException extends Exception {
    private static final long serialVersionUID = 1L;
    private final ErrorKind kind;
    private final transient Path file;
    private final int line;
    private final int column;
    private final String reason;
    private final PatternError patternError;

    public PolicyException(ErrorKind kind, Path file, int line, int column, String reason) {
        this(kind, file, line, column, reason, null);
    }

    PolicyException(ErrorKind kind, Path file, int line, int column, String reason, PatternError patternError) {
        super(format(file, line, column, reason));
        this.kind = kind;
        this.file = file;
        this.line = line;
        this.column = column;
        this.reason = reason;
        this.patternError = patternError;
    }

    public ErrorKind kind() {
        return kind;
    }

    /** The policy file (as given to the loader). */
    public Path file() {
        return file;
    }

    /** 1-based line, 0 when the error concerns the whole file. */
    public int line() {
        return line;
    }

    /** 1-based column (in code points), 0 when unknown. */
    public int column() {
        return column;
    }

    /** The reason alone, without location. */
    public String reason() {
        return reason;
    }

    /** For {@link ErrorKind#PATTERN}: the pattern language's own classification. */
    public Optional<PatternError> patternError() {
        return Optional.ofNullable(patternError);
    }

    /** Infrastructure fault (missing, unreadable, not a regular file) rather than an error in the policy. */
    public boolean isIoFault() {
        return kind.isIoFault();
    }

    /** The error id used in test vectors: the pattern error's id for patterns, else the kind's. */
    public String id() {
        return patternError != null ? "pattern-" + patternError.id() : kind.id();
    }

    static String format(Path file, int line, int column, String reason) {
        StringBuilder sb = new StringBuilder(Paths2.display(file));
        if (line > 0) {
            sb.append(':').append(line);
            if (column > 0) {
                sb.append(':').append(column);
            }
        }
        return sb.append(": ").append(reason).toString();
    }
}
