package dev.ralon.policy;

import dev.ralon.policy.glob.PatternError;
import org.everit.json.schema.Schema;
import org.everit.json.schema.ValidationException;
import org.everit.json.schema.loader.SchemaLoader;
import org.json.JSONArray;
import org.json.JSONObject;
import org.json.JSONTokener;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checking stage of {@link PolicyLoader}: the key errors (spec §4.4: a key that is not a scalar, a repeated key)
 * found while the node tree is turned into JSON values, then the shape the JSON Schema of the spec requires, each
 * violation worded in Ralon's own terms at its line and column. {@link SchemaShape} vouches for the usual valid
 * document; everit judges the rest (its class is loaded only then).
 */
final class PolicyShapeCheck {
    private static final String SCHEMA_RESOURCE = "/dev/ralon/spec/v1/agent-lock.schema.json";

    private PolicyShapeCheck() {
    }

    /**
     * Converts the node tree to org.json values, recording each JSON pointer's node (a key's node under
     * {@code pointer + "#key"}). Collects the key errors (spec §4.4): a key that is not a scalar and a repeated key;
     * the offending entry is left out of the JSON, so the rest is judged as if it were not there.
     */
    static Object toJson(Node node, String pointer, Map<String, Node> pointers, Problems problems) {
        pointers.put(pointer, node);
        if (node instanceof MappingNode m) {
            JSONObject obj = new JSONObject();
            Map<String, Node> seen = new HashMap<>();
            for (NodeTuple t : m.getValue()) {
                Node k = t.getKeyNode();
                if (!(k instanceof ScalarNode ks)) {
                    problems.add(Problems.KEYS, ErrorKind.SCHEMA, k,
                            "a key must be a plain word (\"version\" or \"protect\")");
                    continue;
                }
                String key = ks.getValue();
                Node first = seen.putIfAbsent(key, k);
                if (first != null) {
                    problems.add(Problems.KEYS, ErrorKind.DUPLICATE_KEY, k, "duplicate key \"" + key
                            + "\" (first given on line " + (first.getStartMark().getLine() + 1) + ")");
                    continue;
                }
                String child = pointer + "/" + key.replace("~", "~0").replace("/", "~1");
                pointers.put(child + "#key", k);
                obj.put(key, toJson(t.getValueNode(), child, pointers, problems));
            }
            return obj;
        }
        if (node instanceof SequenceNode s) {
            JSONArray arr = new JSONArray();
            int i = 0;
            for (Node item : s.getValue()) {
                arr.put(toJson(item, pointer + "/" + i++, pointers, problems));
            }
            return arr;
        }
        ScalarNode sc = (ScalarNode) node;
        String v = sc.getValue();
        switch (typeOf(sc)) {
            case NULL:
                return JSONObject.NULL;
            case BOOL:
                return Boolean.valueOf(v.equalsIgnoreCase("true") || v.equalsIgnoreCase("yes") || v.equalsIgnoreCase("on"));
            case INT:
                // Only the canonical decimal spelling is a JSON integer: "version: 1" exactly (spec §5.1). Other
                // spellings of an integer (+1, 01, 1_, 0x1, 0b1, 1:20) are numbers, never strings, but not that
                // integer: a non-string, non-integer JSON value makes the schema report a type error.
                if (PlainScalar.canonicalDecimal(v)) {
                    try {
                        return Long.parseLong(v);
                    } catch (NumberFormatException e) {
                        return NON_STRING_NUMBER; // beyond a long
                    }
                }
                return NON_STRING_NUMBER;
            case FLOAT:
                try {
                    double d = Double.parseDouble(v.replace("_", ""));
                    return Double.isFinite(d) ? (Object) d : NON_STRING_NUMBER;
                } catch (NumberFormatException e) {
                    return NON_STRING_NUMBER; // .inf, .nan, sexagesimal: JSON has no such numbers
                }
            default:
                return v;
        }
    }

    /** The type of a scalar: a quoted one is a string; a plain one is typed by the spec's table (§4.3). */
    static PlainScalar.Type typeOf(ScalarNode s) {
        return s.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN ? PlainScalar.of(s.getValue())
                : PlainScalar.Type.STRING;
    }

    /** Stands for a YAML number JSON cannot hold: not a string, not an integer. */
    private static final Object NON_STRING_NUMBER = new java.math.BigDecimal("0.5");

    private static volatile Schema schema;

    private static Schema schema() {
        Schema s = schema;
        if (s == null) {
            try (InputStream in = PolicyShapeCheck.class.getResourceAsStream(SCHEMA_RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("the agent.lock schema is missing from the class path: " + SCHEMA_RESOURCE);
                }
                JSONObject raw = new JSONObject(new JSONTokener(in));
                s = SchemaLoader.builder().schemaJson(raw).draftV7Support().build().load().build();
                schema = s;
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the agent.lock schema", e);
            }
        }
        return s;
    }

    /**
     * Collects the schema's violations, one per place in the file (at the same place a wrong type beats a wrong
     * value: {@code version: "1"} is a string, not an unsupported version). A missing key has no place in the file, so
     * it sorts after every violation that has one (a typo such as {@code Version:} is reported first as the unknown
     * key it is, with a suggestion). Returns the nodes found wrong, whose patterns are not judged again.
     */
    static Set<Node> validate(Object json, Map<String, Node> pointers, Problems problems) {
        Set<Node> flagged = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        if (SchemaShape.certainlyValid(json)) {
            return flagged; // the schema accepts it (SchemaShape's contract); everit is loaded only to judge the rest
        }
        try {
            schema().validate(json);
            return flagged;
        } catch (ValidationException e) {
            List<ValidationException> leaves = new ArrayList<>();
            collectLeaves(e, leaves);
            Map<String, ValidationException> best = new java.util.LinkedHashMap<>();
            Map<String, Long> bestRank = new HashMap<>();
            for (ValidationException v : leaves) {
                if ("pattern".equals(v.getKeyword())) {
                    continue; // the schema's approximation of the pattern language: the pattern stage says it exactly
                }
                String place = v.getPointerToViolation();
                if ("additionalProperties".equals(v.getKeyword())) {
                    place = place + "/" + extraKey(v) + "#key";
                }
                long rank = rank(v, pointers);
                Long old = bestRank.get(place);
                if (old == null || rank < old) {
                    best.put(place, v);
                    bestRank.put(place, rank);
                }
            }
            for (Map.Entry<String, ValidationException> b : best.entrySet()) {
                ValidationException v = b.getValue();
                Node node = pointers.get(v.getPointerToViolation());
                if (node != null && !"additionalProperties".equals(v.getKeyword())) {
                    flagged.add(node);
                }
                problems.add(Problems.SHAPE, bestRank.get(b.getKey()), schemaError(v, pointers, problems.file));
            }
            return flagged;
        }
    }

    /** Where a violation sorts: its node's offset (a missing key last), a wrong type before a wrong value. */
    private static long rank(ValidationException v, Map<String, Node> pointers) {
        Node n = pointers.get(v.getPointerToViolation());
        long pos = n == null ? Integer.MAX_VALUE - 1 : n.getStartMark().getIndex();
        if ("additionalProperties".equals(v.getKeyword())) {
            Node k = pointers.get(v.getPointerToViolation() + "/" + extraKey(v) + "#key");
            if (k != null) {
                pos = k.getStartMark().getIndex();
            }
        }
        if ("required".equals(v.getKeyword())) {
            pos = Integer.MAX_VALUE;
        }
        return pos * 2 + ("type".equals(v.getKeyword()) ? 0 : 1);
    }

    private static void collectLeaves(ValidationException e, List<ValidationException> out) {
        if (e.getCausingExceptions().isEmpty()) {
            out.add(e);
        } else {
            for (ValidationException c : e.getCausingExceptions()) {
                collectLeaves(c, out);
            }
        }
    }

    private static String extraKey(ValidationException v) {
        // everit: "extraneous key [protected] is not permitted"
        String m = v.getErrorMessage();
        int a = m.indexOf('[');
        int b = m.lastIndexOf(']');
        return a >= 0 && b > a ? m.substring(a + 1, b) : "";
    }

    private static PolicyException.Problem schemaError(ValidationException v, Map<String, Node> pointers, Path file) {
        String ptr = v.getPointerToViolation();
        Node node = pointers.get(ptr);
        String keyword = String.valueOf(v.getKeyword());
        String where = describePointer(ptr);
        switch (keyword) {
            case "additionalProperties": {
                String key = extraKey(v);
                Node k = pointers.get(ptr + "/" + key.replace("~", "~0").replace("/", "~1") + "#key");
                String hint = suggestion(key);
                return at(ErrorKind.UNKNOWN_KEY, file, k != null ? k : node, "unknown key \"" + key + "\""
                        + (hint != null ? " (did you mean \"" + hint + "\"?)" : "")
                        + "; agent.lock v1 has only \"version\" and \"protect\"");
            }
            case "required":
                return at(ErrorKind.SCHEMA, file, node,
                        "missing required key \"version\"; agent.lock must say \"version: 1\"");
            case "const":
                return at(ErrorKind.SCHEMA, file, node, "unsupported version " + valueText(node)
                        + "; this is agent.lock version 1, so write \"version: 1\"");
            case "type": {
                if (ptr.equals("#")) {
                    return at(ErrorKind.SCHEMA, file, node,
                            "agent.lock must be a YAML mapping with the keys \"version\" and \"protect\", found " + kindOf(node));
                }
                if (ptr.equals("#/version")) {
                    return at(ErrorKind.SCHEMA, file, node, "\"version\" must be the number 1, found " + kindOf(node)
                            + "; write \"version: 1\"");
                }
                if (ptr.equals("#/protect")) {
                    return at(ErrorKind.SCHEMA, file, node,
                            "\"protect\" must be a list of patterns (lines starting with \"- \"), found " + kindOf(node));
                }
                boolean isNull = node instanceof ScalarNode sn && typeOf(sn) == PlainScalar.Type.NULL;
                return at(ErrorKind.SCHEMA, file, node, where + " must be a pattern (a string), found " + kindOf(node)
                        + (isNull ? "; write a pattern after the \"- \" or remove the entry"
                        : node instanceof ScalarNode ? "; put it in quotes" : ""));
            }
            case "minLength": {
                // the same error the pattern language gives for a blank pattern, so the id is "pattern-empty"
                Mark m = node.getStartMark();
                return new PolicyException.Problem(ErrorKind.PATTERN, file, m.getLine() + 1, m.getColumn() + 1,
                        m.getIndex(), "empty pattern; remove the entry or write a path", PatternError.EMPTY);
            }
            case "maxLength":
                return at(ErrorKind.SCHEMA, file, node, where + " is longer than 4096 characters");
            case "maxItems":
                return at(ErrorKind.SCHEMA, file, node, "\"protect\" lists more than 10000 patterns");
            default:
                return at(ErrorKind.SCHEMA, file, node, where + ": " + PolicyComposer.oneLine(v.getErrorMessage()));
        }
    }

    private static String describePointer(String ptr) {
        if (ptr.startsWith("#/protect/")) {
            return "protect entry " + (Integer.parseInt(ptr.substring("#/protect/".length())) + 1);
        }
        return ptr.equals("#") ? "the policy" : "\"" + ptr.substring(2) + "\"";
    }

    private static String kindOf(Node node) {
        if (node instanceof MappingNode) {
            return "a mapping";
        }
        if (node instanceof SequenceNode) {
            return "a list";
        }
        if (node == null) {
            return "nothing";
        }
        ScalarNode s = (ScalarNode) node;
        if (typeOf(s) == PlainScalar.Type.NULL) {
            return s.getValue().isEmpty() ? "nothing (an empty value)"
                    : "\"" + s.getValue() + "\", which YAML reads as null (nothing)";
        }
        if (typeOf(s) == PlainScalar.Type.STRING) {
            return "the text \"" + abbreviate(s.getValue()) + "\"";
        }
        return "the value " + abbreviate(s.getValue());
    }

    private static String valueText(Node node) {
        return node instanceof ScalarNode s ? abbreviate(s.getValue()) : kindOf(node);
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }

    private static String suggestion(String key) {
        String k = key.toLowerCase(java.util.Locale.ROOT);
        if (k.startsWith("prot") || k.contains("protect") || distance(k, "protect") <= 3) {
            return "protect";
        }
        if (k.startsWith("ver") || distance(k, "version") <= 3) {
            return "version";
        }
        return null;
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int c = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + c);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static PolicyException.Problem at(ErrorKind kind, Path file, Node node, String reason) {
        return problem(kind, file, node, reason);
    }

    static PolicyException.Problem problem(ErrorKind kind, Path file, Node node, String reason) {
        if (node == null) {
            return new PolicyException.Problem(kind, file, 0, 0, -1, reason, null);
        }
        Mark m = node.getStartMark();
        return new PolicyException.Problem(kind, file, m.getLine() + 1, m.getColumn() + 1, m.getIndex(), reason, null);
    }
}
