package dev.ralon.cli;

/** A failure the CLI reports as one line on stderr ("ralon: message") with an exit code. */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int exitCode;
    /** For --json: the error's kind id (an ErrorKind or pattern error id for a bad policy), and where, when known. */
    private final String kind;
    private final String file;
    private final int line;
    private final int column;

    CliException(int exitCode, String message) {
        this(exitCode, message, "error", null, 0, 0);
    }

    private CliException(int exitCode, String message, String kind, String file, int line, int column) {
        super(message, null, false, false);
        this.exitCode = exitCode;
        this.kind = kind;
        this.file = file;
        this.line = line;
        this.column = column;
    }

    /** A policy that cannot be used: the one line is the exception's own, the JSON error keeps its kind and place. */
    static CliException policy(dev.ralon.policy.PolicyException e) {
        return new CliException(ExitCodes.ERROR, e.getMessage(), e.id(),
                e.file() == null ? null : e.file().toString(), e.line(), e.column());
    }

    /** An error of the given kind id (e.g. "no-policy", "usage"), without a place. */
    static CliException of(String kind, String message) {
        return new CliException(ExitCodes.ERROR, message, kind, null, 0, 0);
    }

    /**
     * The JSON document for a failure when --json was given (docs/json.md): {@code {"format": 1, "error": {"kind",
     * "file", "line", "column", "message"}}}; file is null and line and column 0 when the error has no place.
     */
    static java.util.Map<String, Object> errorDocument(Exception ex) {
        java.util.Map<String, Object> error = new java.util.LinkedHashMap<>();
        CliException ce = ex instanceof CliException c ? c : null;
        error.put("kind", ce != null ? ce.kind : "internal");
        error.put("file", ce != null ? ce.file : null);
        error.put("line", ce != null ? ce.line : 0);
        error.put("column", ce != null ? ce.column : 0);
        error.put("message", oneLine(ce != null ? ce.getMessage() : ex.getClass().getSimpleName() + ": " + ex.getMessage()));
        java.util.Map<String, Object> doc = new java.util.LinkedHashMap<>();
        doc.put("format", Json.FORMAT);
        doc.put("error", error);
        return doc;
    }

    static CliException error(String message) {
        return new CliException(ExitCodes.ERROR, message);
    }

    int exitCode() {
        return exitCode;
    }

    /**
     * Reports the failure of a command as one line on {@code err} and returns its exit code: a CliException's own
     * message and code, anything else as an internal error (exit 2; its stack trace too when RALON_DEBUG is set).
     * Shared by picocli's execution-exception handler ({@link Ralon}) and the fast paths ({@link FastCheck}); kept
     * here, free of picocli, so that the fast paths load no picocli class.
     */
    static int report(Exception ex, java.io.PrintWriter err) {
        if (ex instanceof CliException ce) {
            err.println("ralon: " + oneLine(ce.getMessage()));
            err.flush();
            return ce.exitCode();
        }
        if (System.getenv("RALON_DEBUG") != null) {
            ex.printStackTrace(err);
        }
        err.println("ralon: internal error: " + ex.getClass().getSimpleName() + ": " + oneLine(String.valueOf(ex.getMessage()))
                + " (set RALON_DEBUG=1 for details; please report it)");
        err.flush();
        return ExitCodes.ERROR;
    }

    /** {@code s} on one line: line breaks and the blanks around them become one space. */
    static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
