package dev.ralon.cli;

/** A failure the CLI reports as one line on stderr ("ralon: message") with an exit code. */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int exitCode;

    CliException(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    static CliException error(String message) {
        return new CliException(ExitCodes.ERROR, message);
    }

    int exitCode() {
        return exitCode;
    }
}
