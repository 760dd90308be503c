package dev.ralon.policy;

import java.util.Locale;

/**
 * Every way loading a policy can fail. The {@link #id()} strings are stable: the spec's test vectors name them.
 * The first three are infrastructure faults ({@link #isIoFault()}); the rest are errors in the policy itself.
 */
public enum ErrorKind {
    /** No policy file where one was expected. */
    NOT_FOUND(true),
    /** The file exists but cannot be read (permissions, I/O error). */
    UNREADABLE(true),
    /** Not a regular file: a directory, a fifo, a device, or a symbolic link. */
    NOT_A_FILE(true),
    /** Larger than {@link dev.ralon.policy.load.PolicyLoader#MAX_BYTES}. */
    TOO_LARGE(false),
    /** Contains a NUL byte (the first offending byte in file order, spec §3). */
    BINARY(false),
    /** Not valid UTF-8, or a UTF-16/UTF-32 byte-order mark (UTF-32 big-endian included, although it starts with NUL). */
    ENCODING(false),
    /**
     * Not well-formed YAML, outside the YAML subset (more than one document, anchors, aliases, tags, nesting), or a
     * character not allowed raw (control characters, NEL, LS, PS; spec §3).
     */
    YAML(false),
    /** A mapping key given twice. */
    DUPLICATE_KEY(false),
    /** The document does not have the shape the schema requires (type, missing key, bad version). */
    SCHEMA(false),
    /** A key the format does not define (a typo such as {@code protected:}). */
    UNKNOWN_KEY(false),
    /** A pattern the pattern language rejects. */
    PATTERN(false);

    private final boolean ioFault;

    ErrorKind(boolean ioFault) {
        this.ioFault = ioFault;
    }

    public boolean isIoFault() {
        return ioFault;
    }

    /** Stable id: lower case, dashed. */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
