package dev.ralon.linux;

/**
 * execve, or one of the hygiene steps before it, failed. The message is one line naming the program and the cause.
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("thrown by Exec only")
public class ExecException extends Exception {
    private static final long serialVersionUID = 1L;

    public ExecException(String message) {
        super(message);
    }
}
