package dev.ralon.spec;

import org.json.JSONArray;
import org.json.JSONObject;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Judges one answer of the implementation against what a vector expects: a verdict, the pattern that protects, an
 * error (spec §12). Each method returns null when the answer is right, else what is wrong, in words. Pure: no process,
 * no file written.
 */
final class Judge {
    private Judge() {
    }

    /** Null when pattern {@code pattern} is (or is not, as {@code want} says) among the rules protecting query q. */
    static String expectPattern(Answer a, int q, String pattern, boolean want) {
        if (a.json() == null || !a.json().has("results") || a.json().getJSONArray("results").length() <= q) {
            return "expected a verdict, got " + a.describe();
        }
        JSONObject r = a.json().getJSONArray("results").getJSONObject(q);
        boolean got = false;
        JSONArray rules = r.optJSONArray("rules");
        for (int i = 0; rules != null && i < rules.length(); i++) {
            JSONObject rule = rules.getJSONObject(i);
            got |= !rule.optBoolean("implicit", false) && pattern.equals(rule.optString("pattern"));
        }
        return got == want ? null : "expected the pattern " + (want ? "" : "not ") + "to protect it, got " + r;
    }


    /** Null when the answer for query number {@code q} is the expected one, else what is wrong. */
    static String expectVerdict(Answer a, Path root, int q, JSONObject query) {
        boolean want = query.getBoolean("protected");
        if (a.json() == null || !a.json().has("results")) {
            return "expected a verdict, got " + a.describe();
        }
        JSONArray results = a.json().getJSONArray("results");
        if (results.length() <= q) {
            return "no result for query " + (q + 1) + ": " + a.describe();
        }
        JSONObject r = results.getJSONObject(q);
        if (r.getBoolean("protected") != want) {
            return "expected " + (want ? "protected" : "not protected") + ", got " + r;
        }
        if (a.exit() != 0 && a.exit() != 1) {
            return "exit status " + a.exit() + " with a verdict";
        }
        JSONArray exact = query.optJSONArray("rules");
        if (exact != null) {
            String wrong = exactRules(r, root, exact);
            if (wrong != null) {
                return wrong;
            }
        }
        JSONArray by = query.optJSONArray("by");
        if (by == null) {
            return null;
        }
        Set<String> got = new TreeSet<>();
        JSONArray rules = r.optJSONArray("rules");
        for (int i = 0; rules != null && i < rules.length(); i++) {
            got.add(ruleKey(rules.getJSONObject(i), null));
        }
        for (int i = 0; i < by.length(); i++) {
            String key = ruleKey(by.getJSONObject(i), root);
            if (!got.contains(key)) {
                return "expected protection by " + key + ", got " + got;
            }
        }
        return null;
    }

    /**
     * Null when the result's {@code rules} are exactly {@code want} (vector entries {@code {"policy", "pattern",
     * "implicit"}}), in that order (spec §12.2: policies shallowest first, in a policy its implicit rule then its
     * entries in file order, each entry once), else what is wrong.
     */
    private static String exactRules(JSONObject result, Path root, JSONArray want) {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < want.length(); i++) {
            JSONObject w = want.getJSONObject(i);
            expected.add(exactKey(w.getString("policy"), root, w.getString("pattern"), w.optBoolean("implicit", false)));
        }
        List<String> got = new ArrayList<>();
        JSONArray rules = result.optJSONArray("rules");
        for (int i = 0; rules != null && i < rules.length(); i++) {
            JSONObject g = rules.getJSONObject(i);
            Object pattern = g.opt("pattern");
            got.add(exactKey(g.optString("file"), null, pattern instanceof String s ? s : String.valueOf(pattern),
                    g.optBoolean("implicit", false)));
        }
        return expected.equals(got) ? null : "expected exactly the rules " + expected + " in this order, got " + got;
    }

    private static String exactKey(String policy, Path root, String pattern, boolean implicit) {
        return realPath(root == null ? Path.of(policy) : root.resolve(policy)) + ": '" + pattern + "'"
                + (implicit ? " (implicit)" : "");
    }

    private static Path realPath(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize();
        }
    }

    /** "policy-file-real-path: pattern" or "policy-file-real-path: (itself)". */
    private static String ruleKey(JSONObject rule, Path root) {
        String policy = rule.has("file") ? rule.getString("file") : rule.getString("policy");
        Path file = realPath(root == null ? Path.of(policy) : root.resolve(policy));
        boolean self = rule.optBoolean("self", false) || rule.optBoolean("implicit", false);
        return file + ": " + (self ? "(itself)" : rule.getString("pattern"));
    }

    /** Null when the answer is the expected error, else what is wrong. */
    static String expectError(Answer a, JSONObject want, JSONArray all) {
        if (a.exit() != 2) {
            return "expected error " + want + " and exit 2, got " + a.describe();
        }
        if (a.json() == null || !a.json().has("error")) {
            return "expected the error document of spec §12, got " + a.describe();
        }
        JSONObject first = a.json().getJSONObject("error");
        String mismatch = sameError(first, want);
        if (mismatch != null) {
            return mismatch;
        }
        JSONArray errors = a.json().optJSONArray("errors");
        if (errors != null && errors.length() > 1) {
            JSONArray expected = all != null ? all : new JSONArray().put(want);
            if (errors.length() != expected.length()) {
                return "listed " + errors.length() + " errors, the vector lists " + expected.length() + ": " + errors;
            }
            for (int i = 0; i < expected.length(); i++) {
                String m = sameError(errors.getJSONObject(i), expected.getJSONObject(i));
                if (m != null) {
                    return "error " + (i + 1) + ": " + m;
                }
            }
        }
        return null;
    }

    private static String sameError(JSONObject got, JSONObject want) {
        String kind = want.has("kind") ? want.getString("kind") : want.getString("error");
        StringBuilder w = new StringBuilder(kind);
        StringBuilder g = new StringBuilder(got.optString("kind"));
        for (String k : new String[] {"line", "column", "offset"}) {
            if (want.has(k)) {
                // spec §12.2: offset is present, a number or null; a missing member is shown as "(missing)"
                w.append(' ').append(k).append(' ').append(want.isNull(k) ? "null" : String.valueOf(want.getInt(k)));
                g.append(' ').append(k).append(' ').append(!got.has(k) ? "(missing)"
                        : got.isNull(k) ? "null" : String.valueOf(got.opt(k)));
            }
        }
        return w.toString().contentEquals(g) ? null : "expected " + w + ", got " + g + " (" + got.optString("message") + ")";
    }
}
