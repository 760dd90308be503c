package dev.ralon.enforcer.mount;

/** The mount stage could not set up the sandbox: the message is one line naming the path and the call. */
final class StageException extends Exception {
    private static final long serialVersionUID = 1L;

    StageException(String message) {
        super(message);
    }
}
