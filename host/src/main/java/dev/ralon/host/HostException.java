package dev.ralon.host;

/**
 * The host refuses: no backend can enforce, the named backend is unknown or unavailable, a backend's plan failed. The
 * message is one line, a complete sentence for the user after {@code "ralon: "}; the cli reports it with exit 2 and
 * nothing started. Carries no stack trace: it is a refusal, not a fault.
 */
public final class HostException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public HostException(String message) {
        super(oneLine(message), null, false, false);
    }

    /** {@code s} on one line: line breaks and the blanks around them become one space (null becomes empty). */
    public static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
