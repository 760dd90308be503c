package dev.ralon.policy;

/**
 * A JSON string literal (RFC 8259 §7), the one escaper of Ralon's JSON output: {@code ralon --json} and the Maven
 * plugin's SARIF log. Quotes, backslashes and every control character are escaped; so are DEL and U+2028/U+2029, which
 * some JavaScript readers and terminals take as line ends. Everything else is written as it is (the output is UTF-8).
 *
 * @since 0.1.0
 */
public final class JsonString {
    private JsonString() {
    }

    /** Appends {@code s} to {@code sb} as a JSON string literal, quotes included. */
    public static StringBuilder append(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"');
    }

    /** {@code s} as a JSON string literal, quotes included. */
    public static String of(String s) {
        return append(new StringBuilder(s.length() + 2), s).toString();
    }
}
