package dev.ralon.linux;

import com.sun.jna.LastErrorException;

/**
 * The one wording of a failed system call's error in Ralon's messages: the C library's text followed by the number,
 * {@code "No such file or directory (errno 2)"}, so that a user can search for either.
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("Ralon's own native layer; third-party enforcers bring their own")
public final class Errno {
    private Errno() {
    }

    /** {@code strerror(errno) + " (errno N)"}; {@code "error (errno N)"} if the C library has no text. */
    public static String text(int errno) {
        String text;
        try {
            text = LibC.strerror(errno);
        } catch (RuntimeException | Error e) {
            text = null;
        }
        return (text == null || text.isEmpty() ? "error" : text) + " (errno " + errno + ")";
    }

    /** The text of the error a {@link LibC} call threw. */
    public static String text(LastErrorException e) {
        return text(e.getErrorCode());
    }
}
