package dev.ralon.policy.load;

import dev.ralon.policy.ErrorKind;
import dev.ralon.policy.PolicyException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The reading stage of {@link PolicyLoader}: the file's bytes, then its text, checked in one pass in file order
 * (spec §3, §10.2). Each check stops at its first error.
 */
final class PolicyReader {
    private PolicyReader() {
    }

    /**
     * The bytes of the policy file at {@code file} (given as the user named it, for messages), read from
     * {@code abs}: a regular file (never a link, fifo or directory: reading is never attempted on something that
     * could block) of at most {@link PolicyLoader#PolicyLoader.MAX_BYTES}.
     */
    static byte[] bytes(Path file, Path abs) throws PolicyException {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(abs, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw new PolicyException(ErrorKind.NOT_FOUND, file, 0, 0, "no such file");
        } catch (IOException | SecurityException e) {
            throw new PolicyException(ErrorKind.UNREADABLE, file, 0, 0, "cannot read: " + e.getMessage());
        }
        if (attrs.isDirectory()) {
            throw new PolicyException(ErrorKind.NOT_A_FILE, file, 0, 0, "is a directory, not a policy file");
        }
        if (attrs.isSymbolicLink()) {
            throw new PolicyException(ErrorKind.NOT_A_FILE, file, 0, 0,
                    "is a symbolic link; the policy must be a regular file so that it can protect itself");
        }
        if (!attrs.isRegularFile()) {
            throw new PolicyException(ErrorKind.NOT_A_FILE, file, 0, 0, "is not a regular file (a fifo, socket or device)");
        }
        if (attrs.size() > PolicyLoader.MAX_BYTES) {
            throw new PolicyException(ErrorKind.TOO_LARGE, file, 0, 0,
                    "is " + attrs.size() + " bytes; a policy file may be at most " + PolicyLoader.MAX_BYTES + " bytes");
        }
        byte[] bytes;
        try (FileChannel ch = FileChannel.open(abs, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer buf = ByteBuffer.allocate(PolicyLoader.MAX_BYTES + 1);
            while (buf.hasRemaining() && ch.read(buf) >= 0) {
                // read until EOF or one byte over the limit
            }
            if (!buf.hasRemaining()) {
                throw new PolicyException(ErrorKind.TOO_LARGE, file, 0, 0,
                        "is larger than " + PolicyLoader.MAX_BYTES + " bytes, the most a policy file may be");
            }
            bytes = new byte[buf.position()];
            buf.flip().get(bytes);
        } catch (AccessDeniedException e) {
            throw new PolicyException(ErrorKind.UNREADABLE, file, 0, 0, "cannot read: permission denied");
        } catch (IOException e) {
            throw new PolicyException(ErrorKind.UNREADABLE, file, 0, 0, "cannot read: " + e.getMessage());
        }
        return bytes;
    }

    /**
     * Decodes the file's bytes, checking in one pass in file order (spec §3): the byte-order mark (UTF-8 skipped;
     * UTF-16 and UTF-32 refused as a whole), then the first of: an invalid UTF-8 sequence ({@code encoding}), a NUL
     * ({@code binary}), a character YAML does not allow in a stream ({@code yaml}), each at its line and column.
     */
    static String decode(byte[] bytes, Path file) throws PolicyException {
        int start = 0;
        if (bytes.length >= 4 && bytes[0] == 0 && bytes[1] == 0 && bytes[2] == (byte) 0xFE && bytes[3] == (byte) 0xFF) {
            throw new PolicyException(ErrorKind.ENCODING, file, 0, 0, "is UTF-32 encoded; agent.lock must be UTF-8");
        }
        if (bytes.length >= 2 && ((bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF)
                || (bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE))) {
            throw new PolicyException(ErrorKind.ENCODING, file, 0, 0, "is UTF-16 (or UTF-32) encoded; agent.lock must be UTF-8");
        }
        if (bytes.length >= 3 && bytes[0] == (byte) 0xEF && bytes[1] == (byte) 0xBB && bytes[2] == (byte) 0xBF) {
            start = 3;
        }
        CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, start, bytes.length - start);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = dec.decode(in, out, true);
        if (!r.isError()) {
            dec.flush(out);
        }
        String text = out.flip().toString(); // all of it, or the valid part before the bad byte
        int bad = TextPosition.firstDisallowed(text);
        if (bad >= 0) {
            int cp = text.codePointAt(bad);
            TextPosition pos = TextPosition.of(text, bad);
            if (cp == 0) {
                throw new PolicyException(new PolicyException.Problem(ErrorKind.BINARY, file, pos.line(), pos.column(),
                        pos.offset(), "contains a NUL byte: this is a binary file, not a YAML policy", null));
            }
            String reason = cp == 0x85 || cp == 0x2028 || cp == 0x2029
                    ? String.format("the character U+%04X is a line break to YAML 1.1 but not to YAML 1.2, so it is not"
                    + " allowed as such; in a file name, write it as the escape \\u%04X inside double quotes", cp, cp)
                    : String.format("the character U+%04X is not allowed in YAML; remove it (a pattern may not hold"
                    + " control characters)", cp);
            throw new PolicyException(new PolicyException.Problem(ErrorKind.YAML, file, pos.line(), pos.column(),
                    pos.offset(), reason, null));
        }
        if (r.isError()) {
            TextPosition pos = TextPosition.of(text, text.length());
            throw new PolicyException(new PolicyException.Problem(ErrorKind.ENCODING, file, pos.line(), pos.column(),
                    pos.offset(), "is not valid UTF-8 (byte 0x" + String.format("%02X", bytes[in.position()] & 0xff) + ")",
                    null));
        }
        return text;
    }
}
