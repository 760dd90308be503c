package dev.ralon.policy;

import dev.ralon.policy.glob.PatternError;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A policy that cannot be used, with where and why. {@link #getMessage()} is one line:
 * {@code agent.lock:4:3: reason} (line and column 1-based; omitted when unknown), the file shown relative to the
 * working directory when it lies beneath it.
 *
 * <p>One file can have several problems ({@link #problems()}): the loader stops at the first error of the file,
 * encoding and YAML stages (spec §10.2) and collects every key, shape and pattern error after it. The exception's own
 * kind, line, column, offset and reason are those of the first problem, the one a caller that reports only one
 * error shows; {@code problems().get(0)} is that same problem.
 */
public final class PolicyException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient Problem main;
    private final transient List<Problem> problems;

    /**
     * One error in a policy file. {@code line} and {@code column} are 1-based (column in Unicode code points), 0 when
     * the error concerns the whole file; {@code offset} is the 0-based index, in code points, of the offending
     * character in the file's text (after a UTF-8 byte-order mark), -1 when the error has no position.
     */
    public record Problem(ErrorKind kind, Path file, int line, int column, int offset, String reason,
                          PatternError patternError) {
        /** The error id used in test vectors and in JSON output: the pattern error's id for patterns, else the kind's. */
        public String id() {
            return patternError != null ? "pattern-" + patternError.id() : kind.id();
        }

        /** One line: {@code file:line:column: reason}. */
        public String message() {
            return format(file, line, column, reason);
        }

        /** For {@link ErrorKind#PATTERN}: the pattern language's own classification. */
        public Optional<PatternError> pattern() {
            return Optional.ofNullable(patternError);
        }
    }

    public PolicyException(ErrorKind kind, Path file, int line, int column, String reason) {
        this(new Problem(kind, file, line, column, -1, reason, null));
    }

    PolicyException(ErrorKind kind, Path file, int line, int column, String reason, PatternError patternError) {
        this(new Problem(kind, file, line, column, -1, reason, patternError));
    }

    public PolicyException(Problem problem) {
        this(List.of(problem));
    }

    /** @param problems at least one, the first being the main error */
    public PolicyException(List<Problem> problems) {
        super(problems.get(0).message());
        this.problems = List.copyOf(problems);
        this.main = this.problems.get(0);
    }

    public ErrorKind kind() {
        return main.kind();
    }

    /** The policy file (as given to the loader). */
    public Path file() {
        return main.file();
    }

    /** 1-based line, 0 when the error concerns the whole file. */
    public int line() {
        return main.line();
    }

    /** 1-based column (in code points), 0 when unknown. */
    public int column() {
        return main.column();
    }

    /** 0-based offset in code points of the offending character in the file's text, -1 when unknown. */
    public int offset() {
        return main.offset();
    }

    /** The reason alone, without location. */
    public String reason() {
        return main.reason();
    }

    /** For {@link ErrorKind#PATTERN}: the pattern language's own classification. */
    public Optional<PatternError> patternError() {
        return main.pattern();
    }

    /**
     * Every problem found, in the order the spec fixes (§10.2: stage, then position in the file); the first is this
     * exception's own. Never empty.
     */
    public List<Problem> problems() {
        return problems;
    }

    /** Infrastructure fault (missing, unreadable, not a regular file) rather than an error in the policy. */
    public boolean isIoFault() {
        return main.kind().isIoFault();
    }

    /** The error id used in test vectors: the pattern error's id for patterns, else the kind's. */
    public String id() {
        return main.id();
    }

    static String format(Path file, int line, int column, String reason) {
        return RuleText.where(file, line, column, RuleText.Naming.SHOWN) + ": " + reason;
    }
}
