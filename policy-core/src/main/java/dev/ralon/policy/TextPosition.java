package dev.ralon.policy;

/**
 * A position in a policy's text as the spec counts it (§5.3): 1-based line and column, 0-based offset, columns and
 * offsets in Unicode code points, lines ended by the YAML 1.1 line breaks LF, CR LF, a CR alone, NEL (U+0085), LS
 * (U+2028) and PS (U+2029) — the same counting as SnakeYAML's marks, so that positions found before and after the
 * YAML parser agree.
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
     * The UTF-16 index of the first character that is NUL or outside YAML 1.1's printable set (TAB, LF, CR,
     * U+0020–U+007E, NEL, U+00A0–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF), or -1.
     */
    static int firstDisallowed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c <= 0x7e || c == '\n' || c == '\r' || c == '\t') {
                continue;
            }
            if (c == 0x85 || (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)) {
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
