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
    private final transient dev.ralon.policy.PolicyException policyError;
    /** Whether the command already printed this failure's JSON document (the handler then prints none). */
    private final boolean jsonWritten;

    CliException(int exitCode, String message) {
        this(exitCode, message, "error", null, 0, 0, null);
    }

    private CliException(int exitCode, String message, String kind, String file, int line, int column,
            dev.ralon.policy.PolicyException policyError) {
        this(exitCode, message, kind, file, line, column, policyError, false);
    }

    private CliException(int exitCode, String message, String kind, String file, int line, int column,
            dev.ralon.policy.PolicyException policyError, boolean jsonWritten) {
        super(message, null, false, false);
        this.jsonWritten = jsonWritten;
        this.exitCode = exitCode;
        this.kind = kind;
        this.file = file;
        this.line = line;
        this.column = column;
        this.policyError = policyError;
    }

    /** An error of the given kind id (e.g. "no-policy", "usage"), without a place. */
    static CliException of(String kind, String message) {
        return new CliException(ExitCodes.ERROR, message, kind, null, 0, 0, null);
    }

    /**
     * The JSON document for a failure when --json was given (docs/json.md): {@code {"format": 1, "error": {"kind",
     * "file", "line", "column", "message"}}}; file is null and line and column 0 when the error has no place. A policy
     * that cannot be used adds {@code "errors"}: every problem of the file (spec §10.2), the first being "error".
     */
    static java.util.Map<String, Object> errorDocument(Exception ex) {
        CliException ce = ex instanceof CliException c ? c
                : ex instanceof dev.ralon.host.HostException h ? error(h.getMessage()) : null;
        java.util.Map<String, Object> doc = new java.util.LinkedHashMap<>();
        doc.put("format", Json.FORMAT);
        doc.put("error", errorObject(ce != null ? ce.kind : "internal", ce != null ? ce.file : null,
                ce != null ? ce.line : 0, ce != null ? ce.column : 0,
                ce != null ? ce.getMessage() : ex.getClass().getSimpleName() + ": " + ex.getMessage()));
        if (ce != null && ce.policyError != null) {
            java.util.List<Object> all = new java.util.ArrayList<>();
            for (dev.ralon.policy.PolicyException.Problem p : ce.policyError.problems()) {
                all.add(errorObject(p.id(), p.file() == null ? null : p.file().toString(), p.line(), p.column(),
                        p.message()));
            }
            doc.put("errors", all);
        }
        return doc;
    }

    private static java.util.Map<String, Object> errorObject(String kind, String file, int line, int column,
            String message) {
        java.util.Map<String, Object> error = new java.util.LinkedHashMap<>();
        error.put("kind", kind);
        error.put("file", file);
        error.put("line", line);
        error.put("column", column);
        error.put("message", oneLine(message));
        return error;
    }

    static CliException error(String message) {
        return new CliException(ExitCodes.ERROR, message);
    }

    /** A policy that cannot be used: exit 2, every problem of the file on its own line (spec §10.2). */
    static CliException policy(dev.ralon.policy.PolicyException e) {
        return new CliException(ExitCodes.ERROR, e.getMessage(), e.id(), e.file() == null ? null : e.file().toString(),
                e.line(), e.column(), e);
    }

    /** This failure, its JSON document printed already by the command (so that stdout holds one document). */
    CliException jsonWritten() {
        return new CliException(exitCode, getMessage(), kind, file, line, column, policyError, true);
    }

    /** Whether the command printed this failure's JSON document itself. */
    boolean isJsonWritten() {
        return jsonWritten;
    }

    /** The error's kind id ({@code error} unless given). */
    String kind() {
        return kind;
    }

    /** The policy error this failure reports, or null. */
    dev.ralon.policy.PolicyException policyError() {
        return policyError;
    }

    int exitCode() {
        return exitCode;
    }

    /**
     * Reports the failure of a command as one line on {@code err} and returns its exit code: a CliException's own
     * message and code, anything else as an internal error (exit 2; its stack trace too when RALON_DEBUG is set).
     * Shared by picocli's execution-exception handler ({@link Ralon}) and the fast paths ({@link Main#execute}); kept
     * here, free of picocli, so that the fast paths load no picocli class.
     */
    static int report(Exception ex, java.io.PrintWriter err) {
        if (ex instanceof CliException ce && ce.policyError != null) {
            for (dev.ralon.policy.PolicyException.Problem p : ce.policyError.problems()) {
                err.println("ralon: " + oneLine(p.message()));
            }
            err.flush();
            return ce.exitCode();
        }
        if (ex instanceof CliException ce) {
            err.println("ralon: " + oneLine(ce.getMessage()));
            err.flush();
            return ce.exitCode();
        }
        if (ex instanceof dev.ralon.host.HostException he) { // the host refused: nothing was started
            err.println("ralon: " + he.getMessage());
            err.flush();
            return ExitCodes.ERROR;
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
        return dev.ralon.host.HostException.oneLine(s);
    }
}
