package dev.ralon.policy.load;

/**
 * A position in a policy's text as the spec counts it (§10.3): 1-based line and column, 0-based offset, columns and
 * offsets in Unicode code points, lines ended by LF, CR LF or a CR alone — the same counting as SnakeYAML's marks, so
 * that positions found before and after the YAML parser agree. (YAML 1.1 also breaks lines at NEL, LS and PS, YAML
 * 1.2 does not; agent.lock refuses those three characters written raw, {@link #firstDisallowed}, so the two readings
 * never differ. They are counted as SnakeYAML counts them all the same.)
 */
record TextPosition(int line, int column, int offset) {

    /** The position of the character at {@code charIndex} (a UTF-16 index into {@code text}). */
    static TextPosition of(String text, int charIndex) {
        int line = 1;
        int column = 1;
        int offset = 0;
        for (int i = 0; i < charIndex;) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            offset++;
            boolean crBeforeLf = c == '\r' && i < text.length() && text.charAt(i) == '\n';
            if ((c == '\n' || c == '\r' || c == 0x85 || c == 0x2028 || c == 0x2029) && !crBeforeLf) {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return new TextPosition(line, column, offset);
    }

    /**
     * The UTF-16 index of the first character agent.lock does not allow written raw (spec §3), or -1: NUL, and
     * everything outside YAML 1.1's printable set (TAB, LF, CR, U+0020–U+007E, U+00A0–U+D7FF, U+E000–U+FFFD,
     * U+10000–U+10FFFF) — with NEL (U+0085) taken out of it, and LS (U+2028) and PS (U+2029) too: YAML 1.1 reads these
     * three as line breaks and YAML 1.2 does not, so a policy holding them would mean two things.
     */
    static int firstDisallowed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c <= 0x7e || c == '\n' || c == '\r' || c == '\t') {
                continue;
            }
            if ((c >= 0xA0 && c <= 0xD7FF && c != 0x2028 && c != 0x2029) || (c >= 0xE000 && c <= 0xFFFD)) {
                continue;
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
                continue;
            }
            return i;
        }
        return -1;
    }
}
