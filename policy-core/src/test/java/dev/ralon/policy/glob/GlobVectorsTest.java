package dev.ralon.policy.glob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Runs every vector of the language-neutral spec file {@code dev/ralon/spec/v1/vectors/match.json}. */
class GlobVectorsTest {

    static final String RESOURCE = "dev/ralon/spec/v1/vectors/match.json";

    static JSONObject vectors() throws IOException {
        try (InputStream in = GlobVectorsTest.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            assertNotNull(in, RESOURCE + " not on the classpath (policy-spec jar)");
            return new JSONObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    static String show(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().forEach(c -> {
            if (c < 0x20 || c >= 0x7f) {
                b.append(String.format("\\u{%X}", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.toString();
    }

    @TestFactory
    List<DynamicTest> matchVectors() throws Exception {
        JSONArray arr = vectors().getJSONArray("matches");
        List<DynamicTest> out = new ArrayList<>();
        for (int i = 0; i < arr.length(); i++) {
            JSONObject v = arr.getJSONObject(i);
            String pattern = v.getString("pattern");
            String path = v.getString("path");
            String mode = v.getString("mode");
            boolean want = v.getBoolean("match");
            String note = v.optString("note", "");
            String name = "#" + i + " " + mode + " '" + show(pattern) + "' ~ '" + show(path) + "' = " + want;
            out.add(dynamicTest(name, () -> {
                Glob g = Glob.compile(pattern);
                boolean got;
                if (mode.equals("exact")) {
                    got = g.matchesExactly(path);
                    if (got) {
                        assertTrue(g.matches(path), "an exact match must also be a covers match");
                    }
                } else if (mode.equals("covers")) {
                    got = g.matches(path);
                } else {
                    throw new AssertionError("unknown mode " + mode);
                }
                assertEquals(want, got, name + " (" + note + ")");
                // the normalised form is a valid pattern with the same meaning
                Glob again = Glob.compile(g.normalized());
                assertEquals(g.normalized(), again.normalized());
                assertEquals(got, mode.equals("exact") ? again.matchesExactly(path) : again.matches(path));
                if (got && !path.contains("/")) {
                    assertTrue(g.couldMatchBeneath(""));
                }
            }));
        }
        return out;
    }

    @TestFactory
    List<DynamicTest> errorVectors() throws Exception {
        JSONArray arr = vectors().getJSONArray("errors");
        List<DynamicTest> out = new ArrayList<>();
        for (int i = 0; i < arr.length(); i++) {
            JSONObject v = arr.getJSONObject(i);
            String pattern = v.getString("pattern");
            PatternError want = PatternError.fromId(v.getString("error"));
            int offset = v.getInt("offset");
            out.add(dynamicTest("#" + i + " '" + show(pattern) + "' -> " + want.id() + "@" + offset, () -> {
                PatternException e = assertThrows(PatternException.class, () -> Glob.compile(pattern));
                assertEquals(want, e.kind(), e.getMessage());
                assertEquals(offset, e.codePointOffset(), e.getMessage());
                assertFalse(e.reason().isBlank());
                assertFalse(e.getMessage().contains("\n"), "one line");
            }));
        }
        return out;
    }

    @TestFactory
    List<DynamicTest> normalizationVectors() throws Exception {
        JSONArray arr = vectors().getJSONArray("normalization");
        List<DynamicTest> out = new ArrayList<>();
        for (int i = 0; i < arr.length(); i++) {
            JSONObject v = arr.getJSONObject(i);
            String pattern = v.getString("pattern");
            String normalized = v.getString("normalized");
            String literal = v.isNull("literal") ? null : v.getString("literal");
            out.add(dynamicTest("#" + i + " '" + show(pattern) + "' -> '" + show(normalized) + "'", () -> {
                Glob g = Glob.compile(pattern);
                assertEquals(pattern, g.source());
                assertEquals(pattern, g.toString());
                assertEquals(normalized, g.normalized());
                assertEquals(literal != null, g.isLiteral());
                if (literal != null) {
                    assertEquals(literal, g.literalPath());
                    assertTrue(g.matchesExactly(literal), "a literal pattern matches the path it names");
                } else {
                    assertThrows(IllegalStateException.class, g::literalPath);
                }
            }));
        }
        return out;
    }

    @Test
    void everyErrorKindHasAVector() throws Exception {
        JSONArray arr = vectors().getJSONArray("errors");
        for (PatternError kind : PatternError.values()) {
            boolean found = false;
            for (int i = 0; i < arr.length(); i++) {
                found |= arr.getJSONObject(i).getString("error").equals(kind.id());
            }
            assertTrue(found, "no vector for " + kind.id());
        }
    }
}
