package dev.ralon.cli;

import java.util.Collection;
import java.util.Map;

/**
 * A minimal JSON writer for the CLI's documented output shapes (insertion-ordered maps, lists, strings, numbers,
 * booleans, null). Hand-written because the one JSON library on the class path (org.json, which policy-spec's vector
 * runner uses) does not keep key order, and stable, readable output matters more here than a dependency.
 */
final class Json {
    /**
     * The version of every JSON document the CLI prints (the {@code "format"} key, first in each): raised when a key
     * changes meaning or disappears; adding a key does not raise it (docs/json.md).
     */
    static final int FORMAT = 1;

    private Json() {
    }

    static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value, 0);
        return sb.toString();
    }

    private static void write(StringBuilder sb, Object v, int indent) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String s) {
            string(sb, s);
        } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                sb.append("{}");
                return;
            }
            sb.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                pad(sb, indent + 1);
                string(sb, String.valueOf(e.getKey()));
                sb.append(": ");
                write(sb, e.getValue(), indent + 1);
                sb.append(++i < m.size() ? ",\n" : "\n");
            }
            pad(sb, indent);
            sb.append('}');
        } else if (v instanceof Collection<?> c) {
            if (c.isEmpty()) {
                sb.append("[]");
                return;
            }
            sb.append("[\n");
            int i = 0;
            for (Object o : c) {
                pad(sb, indent + 1);
                write(sb, o, indent + 1);
                sb.append(++i < c.size() ? ",\n" : "\n");
            }
            pad(sb, indent);
            sb.append(']');
        } else {
            string(sb, String.valueOf(v));
        }
    }

    private static void pad(StringBuilder sb, int indent) {
        sb.append("  ".repeat(indent));
    }

    private static void string(StringBuilder sb, String s) {
        dev.ralon.policy.JsonString.append(sb, s);
    }
}
