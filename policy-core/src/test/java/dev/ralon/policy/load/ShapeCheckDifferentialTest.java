package dev.ralon.policy.load;

import dev.ralon.policy.ErrorKind;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.glob.Glob;
import dev.ralon.policy.glob.PatternException;
import org.everit.json.schema.Schema;
import org.everit.json.schema.ValidationException;
import org.everit.json.schema.loader.SchemaLoader;
import org.json.JSONArray;
import org.json.JSONObject;
import org.json.JSONTokener;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link PolicyShapeCheck} against everit-json-schema, the reference validator of the spec's JSON Schema (a test
 * dependency only). Each generated agent.lock is composed into nodes, checked by Ralon, and also turned into the JSON
 * value spec §4.3 makes of it and validated by everit: the places Ralon reports a shape error at must be exactly the
 * places everit reports a violation at (the schema without its {@code pattern} keyword, which the pattern stage judges
 * exactly); and a document the whole loader accepts must be one everit accepts with the pattern. Seeds are printed;
 * {@code -Dralon.seed=N} reruns one.
 */
class ShapeCheckDifferentialTest {
    private static final Path FILE = Path.of("agent.lock");
    static Schema everit;
    static Schema everitWithoutPattern;
    static JSONObject raw;

    @BeforeAll
    static void loadSchema() throws Exception {
        try (InputStream in = ShapeCheckDifferentialTest.class.getResourceAsStream("/dev/ralon/spec/v1/agent-lock.schema.json")) {
            raw = new JSONObject(new JSONTokener(in));
        }
        everit = SchemaLoader.builder().schemaJson(raw).draftV7Support().build().load().build();
        JSONObject loose = new JSONObject(raw.toString());
        loose.getJSONObject("properties").getJSONObject("protect").getJSONObject("items").remove("pattern");
        everitWithoutPattern = SchemaLoader.builder().schemaJson(loose).draftV7Support().build().load().build();
    }

    @Test
    void constantsAreTheSchemasNumbersAndKeys() {
        JSONObject protect = raw.getJSONObject("properties").getJSONObject("protect");
        assertEquals(PolicyShapeCheck.MAX_ITEMS, protect.getInt("maxItems"));
        assertEquals(PolicyShapeCheck.MIN_LENGTH, protect.getJSONObject("items").getInt("minLength"));
        assertEquals(PolicyShapeCheck.MAX_LENGTH, protect.getJSONObject("items").getInt("maxLength"));
        assertEquals(List.of(PolicyShapeCheck.VERSION), raw.getJSONArray("required").toList());
        assertFalse(raw.getBoolean("additionalProperties"));
        assertEquals(1, raw.getJSONObject("properties").getJSONObject("version").getInt("const"));
        assertEquals(Set.of(PolicyShapeCheck.VERSION, PolicyShapeCheck.PROTECT), raw.getJSONObject("properties").keySet(),
                "a new property needs a new case in PolicyShapeCheck");
        assertEquals(Set.of("type", "const", "description", "$comment"),
                raw.getJSONObject("properties").getJSONObject("version").keySet(), "a new keyword needs PolicyShapeCheck");
        assertEquals(Set.of("type", "maxItems", "items", "description"), protect.keySet(), "a new keyword needs PolicyShapeCheck");
        assertEquals(Set.of("type", "minLength", "maxLength", "pattern", "$comment"),
                protect.getJSONObject("items").keySet(), "a new keyword needs PolicyShapeCheck");
    }

    @Test
    void edgeCasesAgreeWithEverit() throws Exception {
        String emoji = new String(Character.toChars(0x1F600));
        String[] docs = {
            "version: 1\n",
            "version: 1\nprotect: []\n",
            "version: 1\nprotect:\n  - a\n  - \"**/*.json\"\n  - \"" + "x".repeat(4096) + "\"\n",
            "version: 1\nprotect:\n  - \"" + "x".repeat(4097) + "\"\n",
            "version: 1\nprotect:\n  - \"\"\n  - ''\n  -\n  - ~\n",
            "version: 1\nprotect:\n  - " + emoji.repeat(2048) + "\n  - " + emoji.repeat(2049) + "\n  - " + emoji.repeat(4097) + "\n",
            "version: 1\nprotect:\n" + "  - a\n".repeat(10000),
            "version: 1\nprotect:\n" + "  - a\n".repeat(10001) + "  - 5\n  - \"\"\n",
            "version: 1\nprotect:\n",
            "version: 1\nprotect: a\n",
            "version: 1.0\n", "version: 1.5\n", "version: \"1\"\n", "version: 2\n", "version: -1\n", "version: +1\n",
            "version: 01\n", "version: 0x1\n", "version: 1_0\n", "version: 1:00\n", "version: 99999999999999999999\n",
            "version: .inf\n", "version: yes\n", "version:\n", "version: ~\n", "version: [1]\n", "version: {a: 1}\n",
            "protect:\n  - a\n",
            "version: 1\nextra: 1\n",
            "version: 1\nProtect: []\n",
            "\"a/b\": 1\n\"~c\": 2\n\"\": 3\n1: 4\nnull: 5\n",
            "\"version\": 1\n'protect': [a]\n",
            "version: 1\nversion: 2\nprotect: [a]\nprotect: 3\n",
            "? [a]\n: 1\nversion: 1\n",
            "version: {a: 1, a: 2}\nprotect:\n  - {b: 1, b: 2}\n  - [x, {? [a]: 1}]\n",
            "- a\n", "- {version: 1}\n", "a\n", "1\n", "~\n", "\"version: 1\"\n",
            "version: 1\nprotect:\n  - /abs\n  - \"!neg\"\n  - \"~home\"\n  - \" \"\n  - \"\\t\"\n  - \"a\\u0001\"\n  - \"\\u3000\"\n",
        };
        for (String d : docs) {
            compare(d, "edge case");
        }
    }

    @Test
    void generatedDocumentsAgreeWithEverit() throws Exception {
        long seed = dev.ralon.testsupport.Seeds.seed("ShapeCheckDifferentialTest.generatedDocumentsAgreeWithEverit");
        Random rnd = new Random(seed);
        int valid = 0;
        int compared = 0;
        for (int n = 0; n < 3000; n++) {
            String d = document(rnd);
            Boolean ok = compare(d, "seed " + seed + " (rerun with -Dralon.seed=" + seed + ")");
            if (ok != null) {
                compared++;
                valid += ok ? 1 : 0;
            }
        }
        // the generator must reach both answers
        assertTrue(compared > 2500, "seed " + seed + ": only " + compared + " generated documents were YAML");
        assertTrue(valid > 300 && valid < compared - 300, "seed " + seed + ": generator is lopsided: " + valid + " of " + compared);
    }

    /**
     * Every item the schema's pattern rejects, the pattern stage rejects too (so leaving the pattern keyword to that
     * stage never accepts what the schema rejects); on seeded generated strings.
     */
    @Test
    void patternStageRejectsWhatTheSchemasPatternRejects() {
        long seed = dev.ralon.testsupport.Seeds.seed("ShapeCheckDifferentialTest.patternStageRejectsWhatTheSchemasPatternRejects");
        Random rnd = new Random(seed);
        String[] parts = {"a", "/", "~", "!", " ", "\t", "\n", "\u0001", "\u007f", "\u00a0", "\u3000", "\u2028", "\u2029",
            "\u200b", "\ufeff", "\u0085", "\\", ".", "*", "[", new String(Character.toChars(0x1F600))};
        int rejected = 0;
        for (int n = 0; n < 3000; n++) {
            StringBuilder b = new StringBuilder();
            int len = 1 + rnd.nextInt(4);
            for (int i = 0; i < len; i++) {
                b.append(parts[rnd.nextInt(parts.length)]);
            }
            String item = b.toString();
            JSONObject doc = new JSONObject().put("version", 1L).put("protect", new JSONArray(List.of(item)));
            if (!accepts(everit, doc)) {
                rejected++;
                assertThrows(PatternException.class, () -> Glob.compile(item), "seed " + seed + " (rerun with -Dralon.seed="
                        + seed + "): the schema rejects what the pattern language accepts: "
                        + java.util.Arrays.toString(item.codePoints().toArray()));
            }
        }
        assertTrue(rejected > 300 && rejected < 2700, "seed " + seed + ": generator is lopsided: " + rejected);
    }

    @Test
    void unknownKeyIsReportedInRalonsWords(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path f = dir.resolve("agent.lock");
        Files.writeString(f, "version: 1\nprotect:\n  - a\nextra: 1\n");
        PolicyException e = assertThrows(PolicyException.class, () -> PolicyLoader.load(f));
        assertEquals(ErrorKind.UNKNOWN_KEY, e.kind(), e.getMessage());
        assertTrue(e.getMessage().endsWith("agent.lock:4:1: unknown key \"extra\"; agent.lock v1 has only \"version\" and \"protect\""), e.getMessage());
        Files.writeString(f, "version: 1\nprotect:\n  - a\n  - \"**/*.json\"\n");
        assertEquals(2, PolicyLoader.load(f).declaredRules().size());
    }

    /**
     * Checks {@code text} both ways and fails where they differ. Returns whether everit accepts it (without the
     * pattern), or null when the text is not YAML within the subset (nothing to compare).
     */
    private static Boolean compare(String text, String context) throws Exception {
        Node doc;
        try {
            doc = PolicyComposer.compose(text, FILE);
        } catch (PolicyException e) {
            return null;
        }
        if (doc == null) {
            return null;
        }
        Problems problems = new Problems(FILE);
        PolicyShapeCheck.check(doc, problems);
        Set<Integer> ours = new TreeSet<>();
        for (PolicyException.Problem p : problems.inStage(Problems.SHAPE)) {
            ours.add(p.offset());
        }
        Map<String, Node> pointers = new HashMap<>();
        Object json = toJson(doc, "#", pointers);
        Set<Integer> theirs = new TreeSet<>();
        try {
            everitWithoutPattern.validate(json);
        } catch (ValidationException e) {
            for (ValidationException leaf : leaves(e, new ArrayList<>())) {
                String at = leaf.getPointerToViolation();
                if ("additionalProperties".equals(leaf.getKeyword())) {
                    at = at + "/" + escape(extraKey(leaf)) + "#key";
                }
                theirs.add(pointers.get(at).getStartMark().getIndex());
            }
        }
        String shown = text.length() > 300 ? text.substring(0, 300) + "..." : text;
        assertEquals(theirs, ours, context + ": shape errors at other offsets than everit's, in:\n" + shown
                + "\nours: " + problems.inStage(Problems.SHAPE));
        boolean loads;
        try {
            PolicyLoader.parse(text.getBytes(java.nio.charset.StandardCharsets.UTF_8), FILE, Path.of("/x/agent.lock"), Path.of("/x"));
            loads = true;
        } catch (PolicyException e) {
            loads = false;
        }
        if (loads && !accepts(everit, json)) {
            fail(context + ": the loader accepts what the schema rejects:\n" + shown);
        }
        return theirs.isEmpty();
    }

    private static boolean accepts(Schema schema, Object json) {
        try {
            schema.validate(json);
            return true;
        } catch (ValidationException e) {
            return false;
        }
    }

    private static List<ValidationException> leaves(ValidationException e, List<ValidationException> out) {
        if (e.getCausingExceptions().isEmpty()) {
            out.add(e);
        } else {
            for (ValidationException c : e.getCausingExceptions()) {
                leaves(c, out);
            }
        }
        return out;
    }

    private static String extraKey(ValidationException v) {
        String m = v.getErrorMessage(); // everit: "extraneous key [protected] is not permitted"
        return m.substring(m.indexOf('[') + 1, m.lastIndexOf(']'));
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    /** Stands for a YAML number JSON cannot hold (not a string, not an integer). */
    private static final Object NON_STRING_NUMBER = new BigDecimal("0.5");

    /**
     * The JSON value spec §4.3 makes of a node tree (plain scalars typed by the spec's table; a non-scalar or repeated
     * key left out, as the loader reports it on its own), recording each JSON pointer's node and each key's node
     * under {@code pointer + "#key"}.
     */
    static Object toJson(Node node, String pointer, Map<String, Node> pointers) {
        pointers.put(pointer, node);
        if (node instanceof MappingNode m) {
            JSONObject obj = new JSONObject();
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode ks && !obj.has(ks.getValue())) {
                    String child = pointer + "/" + escape(ks.getValue());
                    pointers.put(child + "#key", ks);
                    obj.put(ks.getValue(), toJson(t.getValueNode(), child, pointers));
                }
            }
            return obj;
        }
        if (node instanceof SequenceNode s) {
            JSONArray arr = new JSONArray();
            int i = 0;
            for (Node item : s.getValue()) {
                arr.put(toJson(item, pointer + "/" + i++, pointers));
            }
            return arr;
        }
        ScalarNode sc = (ScalarNode) node;
        String v = sc.getValue();
        return switch (PolicyShapeCheck.typeOf(sc)) {
            case NULL -> JSONObject.NULL;
            case BOOL -> Boolean.valueOf(v.equalsIgnoreCase("true") || v.equalsIgnoreCase("yes") || v.equalsIgnoreCase("on"));
            case INT -> {
                // only the canonical decimal spelling is a JSON integer (spec §5.1); other spellings are numbers
                if (PlainScalar.canonicalDecimal(v)) {
                    try {
                        yield Long.parseLong(v);
                    } catch (NumberFormatException e) {
                        yield NON_STRING_NUMBER;
                    }
                }
                yield NON_STRING_NUMBER;
            }
            case FLOAT -> {
                try {
                    double d = Double.parseDouble(v.replace("_", ""));
                    yield Double.isFinite(d) ? (Object) d : NON_STRING_NUMBER;
                } catch (NumberFormatException e) {
                    yield NON_STRING_NUMBER;
                }
            }
            default -> v;
        };
    }

    private static final String[] SCALARS = {"1", "2", "0", "-1", "+1", "01", "1.0", "1.5", "1e0", ".inf", ".nan", "0x1",
        "1_0", "1:20", "99999999999999999999", "\"1\"", "'x'", "yes", "no", "true", "Off", "~", "null", "", "a",
        "**/*.pem", "\"\"", "''", "' '", "/abs", "\"!neg\"", "~home", "\"a\\u0001b\"", "[]", "[a, 1]", "{}", "{a: 1}",
        "2024-01-01", "<<", "=", "a/../b", "\"\\u3000\"", "foo["};
    private static final String[] KEYS = {"version", "protect", "\"version\"", "'protect'", "Version", "extra", "1",
        "null", "\"a/b\"", "\"~x\"", "\"\"", "protected", "versions", "? [a]\n", "? {a: 1}\n"};

    /** A seeded agent.lock: mostly the two keys, sometimes others, values of every type, long lists and strings. */
    static String document(Random rnd) {
        if (rnd.nextInt(25) == 0) {
            return rnd.nextBoolean() ? "- " + value(rnd) + "\n" : value(rnd) + "\n";
        }
        StringBuilder b = new StringBuilder();
        if (rnd.nextInt(8) != 0) {
            b.append("version: ").append(rnd.nextInt(3) != 0 ? "1" : value(rnd)).append('\n');
        }
        int more = rnd.nextInt(3);
        for (int i = 0; i < more; i++) {
            String key = rnd.nextInt(3) == 0 ? KEYS[rnd.nextInt(KEYS.length)] : "protect";
            b.append(key).append(':');
            if (rnd.nextInt(6) == 0) {
                b.append(' ').append(value(rnd)).append('\n');
                continue;
            }
            b.append('\n');
            int n = rnd.nextInt(200) == 0 ? 9998 + rnd.nextInt(4) : rnd.nextInt(6);
            for (int j = 0; j < n; j++) {
                b.append("  - ").append(rnd.nextInt(8) != 0 ? string(rnd, j) : value(rnd)).append('\n');
            }
        }
        if (rnd.nextBoolean() && b.indexOf("version") < 0 && rnd.nextBoolean()) {
            b.append("version: 1\n");
        }
        return b.toString();
    }

    private static String value(Random rnd) {
        return SCALARS[rnd.nextInt(SCALARS.length)];
    }

    private static String string(Random rnd, int j) {
        String unit = switch (rnd.nextInt(4)) {
            case 0 -> new String(Character.toChars(0x1F600 + rnd.nextInt(16)));
            case 1 -> "é";
            default -> "a";
        };
        int len = switch (rnd.nextInt(12)) {
            case 0 -> 0;
            case 1 -> 4095 + rnd.nextInt(3);
            case 2 -> 2047 + rnd.nextInt(3);
            default -> 1 + rnd.nextInt(12);
        };
        return "\"" + unit.repeat(len) + (len > 0 && len < 20 ? j : "") + "\"";
    }
}
