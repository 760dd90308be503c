package dev.ralon.enforcer.spi;

/**
 * An enforcer could not set up what its plan promised. The message is one line, in plain words, naming the path and
 * the system call that failed; the host prints it and exits 2 without starting the command. An enforcer that throws
 * this must not have started anything.
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public class EnforcementException extends Exception {
    private static final long serialVersionUID = 1L;

    public EnforcementException(String message) {
        super(message);
    }

    public EnforcementException(String message, Throwable cause) {
        super(message, cause);
    }
}
