package dev.ralon.cli;

/** A picocli command whose bound options make a {@link Request}: what picocli parsed, as a value. */
interface RequestSource {
    Request request();
}
