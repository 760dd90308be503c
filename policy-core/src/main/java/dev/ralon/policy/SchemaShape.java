package dev.ralon.policy;

import org.json.JSONArray;
import org.json.JSONObject;

import java.util.Iterator;

/**
 * A pre-compiled, conservative form of the v1 JSON Schema ({@code agent-lock.schema.json}), so that loading a valid
 * policy does not have to load and build the everit validator (about a third of {@code ralon check}'s start-up).
 *
 * <p>Contract: {@link #certainlyValid} returning {@code true} implies that the schema accepts the value; it returns
 * {@code false} for everything it is not sure of, and the loader then asks everit, which stays the reference and
 * writes every error message. Where the schema could be read two ways, this check takes the stricter one (a string's
 * length must be within bounds counted both in UTF-16 units and in code points; "integer" means a {@code Long} or
 * {@code Integer} equal to 1, the only form the loader produces). SchemaShapeTest checks the implication against
 * everit on generated documents. When the schema changes, this class must change with it (the test reads the schema's
 * numbers and fails when they differ; the item pattern is tested against everit on generated strings).
 */
final class SchemaShape {
    /** The schema's {@code protect.maxItems}. */
    static final int MAX_ITEMS = 10000;
    /** The schema's {@code protect.items.minLength} and {@code maxLength}. */
    static final int MIN_LENGTH = 1;
    static final int MAX_LENGTH = 4096;

    private SchemaShape() {
    }

    /**
     * The schema's {@code protect.items.pattern}: not starting with {@code /}, {@code ~} or {@code !}; no control
     * character (U+0000–U+001F, U+007F); at least one code point that is not white space in the sense of the pattern
     * language's {@code empty} rule.
     */
    static boolean matchesItemPattern(String s) {
        char first = s.charAt(0);
        if (first == '/' || first == '~' || first == '!') {
            return false;
        }
        boolean blankOnly = true;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return false;
            }
            blankOnly &= dev.ralon.policy.glob.Glob.isWhiteSpace(c);
        }
        return !blankOnly;
    }

    /** True only if the v1 schema certainly accepts {@code json} (an org.json value as the loader builds it). */
    static boolean certainlyValid(Object json) {
        if (!(json instanceof JSONObject o)) {
            return false;
        }
        boolean version = false;
        for (Iterator<String> it = o.keys(); it.hasNext();) {
            String key = it.next();
            Object v = o.opt(key);
            if ("version".equals(key)) {
                if (!((v instanceof Long l && l == 1L) || (v instanceof Integer i && i == 1))) {
                    return false;
                }
                version = true;
            } else if ("protect".equals(key)) {
                if (!(v instanceof JSONArray a) || a.length() > MAX_ITEMS) {
                    return false;
                }
                for (int i = 0; i < a.length(); i++) {
                    if (!(a.opt(i) instanceof String s)) {
                        return false;
                    }
                    int units = s.length();
                    if (units < MIN_LENGTH || units > MAX_LENGTH) {
                        return false;
                    }
                    int points = s.codePointCount(0, units);
                    if (points < MIN_LENGTH || points > MAX_LENGTH || !matchesItemPattern(s)) {
                        return false;
                    }
                }
            } else {
                return false; // additionalProperties: false
            }
        }
        return version;
    }
}
