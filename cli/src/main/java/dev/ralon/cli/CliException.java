package dev.ralon.cli;

/** A failure the CLI reports as one line on stderr ("ralon: message") with an exit code. */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int exitCode;
    private final transient dev.ralon.policy.PolicyException policyError;

    CliException(int exitCode, String message) {
        this(exitCode, message, null);
    }

    private CliException(int exitCode, String message, dev.ralon.policy.PolicyException policyError) {
        super(message, null, false, false);
        this.exitCode = exitCode;
        this.policyError = policyError;
    }

    static CliException error(String message) {
        return new CliException(ExitCodes.ERROR, message);
    }

    /** A policy that cannot be used: exit 2, every problem of the file on its own line (spec §10.2). */
    static CliException policy(dev.ralon.policy.PolicyException e) {
        return new CliException(ExitCodes.ERROR, e.getMessage(), e);
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
     * Shared by picocli's execution-exception handler ({@link Ralon}) and the fast paths ({@link FastCheck}); kept
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
