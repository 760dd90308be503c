package dev.ralon.policy;

import org.everit.json.schema.Schema;
import org.everit.json.schema.ValidationException;
import org.everit.json.schema.loader.SchemaLoader;
import org.json.JSONArray;
import org.json.JSONObject;
import org.json.JSONTokener;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * SchemaShape against everit, the reference: whatever SchemaShape calls valid, everit must accept (differential, on
 * hand-picked edge cases and on seeded generated documents); and SchemaShape must actually cover ordinary policies,
 * or the loader would gain nothing.
 */
class SchemaShapeTest {
    static Schema everit;
    static JSONObject raw;

    @BeforeAll
    static void loadSchema() throws Exception {
        try (InputStream in = SchemaShapeTest.class.getResourceAsStream("/dev/ralon/spec/v1/agent-lock.schema.json")) {
            raw = new JSONObject(new JSONTokener(in));
        }
        everit = SchemaLoader.builder().schemaJson(raw).draftV7Support().build().load().build();
    }

    static boolean everitAccepts(Object json) {
        try {
            everit.validate(json);
            return true;
        } catch (ValidationException e) {
            return false;
        }
    }

    @Test
    void constantsAreTheSchemasNumbers() {
        JSONObject protect = raw.getJSONObject("properties").getJSONObject("protect");
        assertEquals(SchemaShape.MAX_ITEMS, protect.getInt("maxItems"));
        assertEquals(SchemaShape.MIN_LENGTH, protect.getJSONObject("items").getInt("minLength"));
        assertEquals(SchemaShape.MAX_LENGTH, protect.getJSONObject("items").getInt("maxLength"));
        assertEquals(List.of("version"), raw.getJSONArray("required").toList());
        assertFalse(raw.getBoolean("additionalProperties"));
        assertEquals(1, raw.getJSONObject("properties").getJSONObject("version").getInt("const"));
        assertEquals(2, raw.getJSONObject("properties").length(), "a new property needs a new case in SchemaShape");
    }

    @Test
    void edgeCasesAgreeWithEverit() {
        String emoji = new String(Character.toChars(0x1F600));
        Object[] docs = {
            doc("version", 1L),
            doc("version", 1),
            doc("version", 1L, "protect", new JSONArray()),
            doc("version", 1L, "protect", new JSONArray(List.of("a", "**/*.json", "x".repeat(4096)))),
            doc("version", 1L, "protect", new JSONArray(List.of("x".repeat(4097)))),
            doc("version", 1L, "protect", new JSONArray(List.of(""))),
            doc("version", 1L, "protect", new JSONArray(List.of(emoji.repeat(2048)))),
            doc("version", 1L, "protect", new JSONArray(List.of(emoji.repeat(2049)))),
            doc("version", 1L, "protect", new JSONArray(List.of(emoji.repeat(4097)))),
            doc("version", 1L, "protect", new JSONArray(java.util.Collections.nCopies(10000, "a"))),
            doc("version", 1L, "protect", new JSONArray(java.util.Collections.nCopies(10001, "a"))),
            doc("version", 1L, "protect", JSONObject.NULL),
            doc("version", 1L, "protect", "a"),
            doc("version", 1.0),
            doc("version", 1.5),
            doc("version", "1"),
            doc("version", 2L),
            doc("version", true),
            doc("version", JSONObject.NULL),
            doc("protect", new JSONArray(List.of("a"))),
            doc("version", 1L, "extra", 1L),
            doc("version", 1L, "Protect", new JSONArray()),
            new JSONObject(),
            new JSONArray(),
            "version: 1",
            1L,
            JSONObject.NULL,
        };
        for (Object d : docs) {
            if (SchemaShape.certainlyValid(d)) {
                assertTrue(everitAccepts(d), "SchemaShape accepts what everit rejects: " + d);
            }
        }
        assertTrue(SchemaShape.certainlyValid(docs[0]));
        assertTrue(SchemaShape.certainlyValid(docs[3]));
        assertTrue(SchemaShape.certainlyValid(docs[9]));
        assertFalse(SchemaShape.certainlyValid(docs[4]));
        assertFalse(SchemaShape.certainlyValid(docs[10]));
    }

    @Test
    void generatedDocumentsNeverAcceptedAgainstEverit() {
        long seed = dev.ralon.testsupport.Seeds.seed("SchemaShapeTest.generatedDocumentsNeverAcceptedAgainstEverit");
        Random rnd = new Random(seed);
        int fastValid = 0;
        int everitValid = 0;
        for (int n = 0; n < 3000; n++) {
            Object d = document(rnd);
            boolean fast = SchemaShape.certainlyValid(d);
            boolean ref = everitAccepts(d);
            if (fast && !ref) {
                fail("seed " + seed + " (rerun with -Dralon.seed=" + seed + "): SchemaShape accepts what everit rejects: " + d);
            }
            fastValid += fast ? 1 : 0;
            everitValid += ref ? 1 : 0;
        }
        // the generator must reach both answers, and the fast check must cover most valid documents
        assertTrue(everitValid > 300 && everitValid < 2700, "seed " + seed + ": generator is lopsided: " + everitValid);
        assertTrue(fastValid * 10 >= everitValid * 9, "seed " + seed + ": SchemaShape covers only " + fastValid + " of "
                + everitValid + " valid documents");
    }

    /** The item pattern of the schema and SchemaShape's reading of it agree exactly, on seeded generated strings. */
    @Test
    void itemPatternAgreesWithEverit() {
        long seed = dev.ralon.testsupport.Seeds.seed("SchemaShapeTest.itemPatternAgreesWithEverit");
        Random rnd = new Random(seed);
        String[] parts = {"a", "/", "~", "!", " ", "\t", "\n", "\u0001", "\u007f", "\u00a0", "\u3000", "\u2028", "\u2029",
            "\u200b", "\ufeff", "\u0085", "\\", ".", "*", "[", new String(Character.toChars(0x1F600))};
        int accepted = 0;
        for (int n = 0; n < 3000; n++) {
            StringBuilder b = new StringBuilder();
            int len = 1 + rnd.nextInt(4);
            for (int i = 0; i < len; i++) {
                b.append(parts[rnd.nextInt(parts.length)]);
            }
            String item = b.toString();
            boolean ref = everitAccepts(doc("version", 1L, "protect", new JSONArray(List.of(item))));
            assertEquals(ref, SchemaShape.matchesItemPattern(item), "seed " + seed + " (rerun with -Dralon.seed="
                    + seed + "): schema and SchemaShape disagree on " + java.util.Arrays.toString(item.codePoints().toArray()));
            accepted += ref ? 1 : 0;
        }
        assertTrue(accepted > 300 && accepted < 2700, "seed " + seed + ": generator is lopsided: " + accepted);
    }

    @Test
    void loaderStillReportsSchemaErrorsThroughEverit(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path f = dir.resolve("agent.lock");
        Files.writeString(f, "version: 1\nprotect:\n  - a\nextra: 1\n");
        PolicyException e = org.junit.jupiter.api.Assertions.assertThrows(PolicyException.class, () -> PolicyLoader.load(f));
        assertEquals(ErrorKind.UNKNOWN_KEY, e.kind(), e.getMessage());
        assertTrue(e.getMessage().endsWith("agent.lock:4:1: unknown key \"extra\"; agent.lock v1 has only \"version\" and \"protect\""), e.getMessage());
        Files.writeString(f, "version: 1\nprotect:\n  - a\n  - \"**/*.json\"\n");
        assertEquals(2, PolicyLoader.load(f).declaredRules().size());
    }

    static JSONObject doc(Object... kv) {
        JSONObject o = new JSONObject();
        for (int i = 0; i < kv.length; i += 2) {
            o.put((String) kv[i], kv[i + 1]);
        }
        return o;
    }

    static Object document(Random rnd) {
        if (rnd.nextInt(20) == 0) {
            return scalar(rnd);
        }
        JSONObject o = new JSONObject();
        if (rnd.nextInt(8) != 0) {
            o.put("version", rnd.nextInt(4) != 0 ? (Object) 1L : scalar(rnd));
        }
        if (rnd.nextInt(4) != 0) {
            o.put("protect", rnd.nextInt(8) != 0 ? patterns(rnd) : scalar(rnd));
        }
        if (rnd.nextInt(12) == 0) {
            String[] keys = {"extra", "Version", "", "protect ", "versions"};
            o.put(keys[rnd.nextInt(keys.length)], scalar(rnd));
        }
        return o;
    }

    static JSONArray patterns(Random rnd) {
        JSONArray a = new JSONArray();
        int n = rnd.nextInt(6);
        for (int i = 0; i < n; i++) {
            a.put(rnd.nextInt(10) != 0 ? string(rnd) : scalar(rnd));
        }
        if (rnd.nextInt(200) == 0) {
            int extra = 9998 + rnd.nextInt(4) - n;
            for (int i = 0; i < extra; i++) {
                a.put("p");
            }
        }
        return a;
    }

    static String string(Random rnd) {
        String unit = switch (rnd.nextInt(4)) {
            case 0 -> new String(Character.toChars(0x1F600 + rnd.nextInt(16)));
            case 1 -> "é";
            default -> "a";
        };
        int len = switch (rnd.nextInt(6)) {
            case 0 -> 0;
            case 1 -> 4095 + rnd.nextInt(3);
            case 2 -> 2047 + rnd.nextInt(3);
            default -> 1 + rnd.nextInt(12);
        };
        return unit.repeat(len);
    }

    static Object scalar(Random rnd) {
        return switch (rnd.nextInt(10)) {
            case 0 -> 1L;
            case 1 -> 1;
            case 2 -> 1.0;
            case 3 -> (long) rnd.nextInt(5) - 2;
            case 4 -> "1";
            case 5 -> JSONObject.NULL;
            case 6 -> rnd.nextBoolean();
            case 7 -> new JSONArray(List.of("a"));
            case 8 -> new JSONObject();
            default -> string(rnd);
        };
    }
}
