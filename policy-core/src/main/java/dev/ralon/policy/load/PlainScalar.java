package dev.ralon.policy.load;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which unquoted (plain) YAML scalars are not strings in agent.lock: the normative table of spec §4.3, which is the
 * YAML 1.1 null, bool, int and float types as SnakeYAML 2.x reads them, without SnakeYAML's length limits, and with
 * timestamps ({@code 2024-01-01}), the merge key ({@code <<}) and the value key ({@code =}) read as strings. A quoted
 * scalar is always a string; this class is asked about plain ones only.
 *
 * <p>Cheap for the usual pattern: only a value starting with a digit, a sign, a dot followed by a digit or
 * {@code _}, or one of the letters {@code yYnNtTfFoO} is looked at further, and the regular expressions are compiled
 * on first use ({@code Numbers}), so a policy of ordinary patterns never compiles them.
 */
final class PlainScalar {
    /** What a plain scalar is. */
    enum Type { NULL, BOOL, INT, FLOAT, STRING }

    static final Set<String> BOOL_WORDS = Set.of("yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE",
            "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF");
    static final Set<String> NULL_WORDS = Set.of("", "~", "null", "Null", "NULL");

    private PlainScalar() {
    }

    static Type of(String v) {
        if (NULL_WORDS.contains(v)) {
            return Type.NULL;
        }
        if (BOOL_WORDS.contains(v)) {
            return Type.BOOL;
        }
        char c = v.charAt(0);
        boolean numeric = (c >= '0' && c <= '9') || c == '-' || c == '+'
                || (c == '.' && v.length() > 1 && "0123456789_iInN".indexOf(v.charAt(1)) >= 0);
        if (!numeric) {
            return Type.STRING;
        }
        if (Numbers.INT.matcher(v).matches()) {
            return Type.INT;
        }
        if (Numbers.FLOAT.matcher(v).matches()) {
            return Type.FLOAT;
        }
        return Type.STRING;
    }

    /** True if {@code v}, a plain scalar of type INT, is written in canonical decimal form (JSON's integer syntax). */
    static boolean canonicalDecimal(String v) {
        return Numbers.CANONICAL.matcher(v).matches();
    }

    /** Compiled on first use only. */
    private static final class Numbers {
        static final Pattern INT = Pattern.compile("[-+]?0b_*[01][01_]*"
                + "|[-+]?0_*[0-7][0-7_]*"
                + "|[-+]?(?:0|[1-9][0-9_]*)"
                + "|[-+]?0x_*[0-9a-fA-F][0-9a-fA-F_]*"
                + "|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+");
        static final Pattern FLOAT = Pattern.compile("[-+]?[0-9][0-9_]*\\.[0-9_]*(?:[eE][-+]?[0-9]+)?"
                + "|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+"
                + "|[-+]?\\.[0-9_]+(?:[eE][-+]?[0-9]+)?"
                + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*"
                + "|[-+]?\\.(?:inf|Inf|INF)"
                + "|\\.(?:nan|NaN|NAN)");
        static final Pattern CANONICAL = Pattern.compile("-?(?:0|[1-9][0-9]*)");
    }
}
