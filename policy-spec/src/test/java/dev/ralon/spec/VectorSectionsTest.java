package dev.ralon.spec;

import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every vector names the section of the spec it tests, and that section exists (docs/spec.md and
 * docs/spec-patterns.md, numbered headings); every vector file carries the spec revision the spec states.
 */
class VectorSectionsTest {
    private static final Pattern HEADING = Pattern.compile("(?m)^#{2,4} (\\d+(?:\\.\\d+)*)\\.? ");
    private static final Pattern REVISION = Pattern.compile("(?m)^Revision: (\\d+)");

    static Path docs() {
        Path d = Path.of(System.getProperty("user.dir")).resolve("../docs").normalize();
        assertTrue(Files.isRegularFile(d.resolve("spec.md")), "docs/spec.md not found from " + d);
        return d;
    }

    static Set<String> sections() throws IOException {
        Set<String> out = new TreeSet<>();
        for (String f : new String[] {"spec.md", "spec-patterns.md"}) {
            Matcher m = HEADING.matcher(Files.readString(docs().resolve(f)));
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    @Test
    void everyVectorNamesASectionThatExists() throws IOException {
        Set<String> sections = sections();
        assertTrue(sections.contains("8.5") && sections.contains("7.5"), "numbered headings found: " + sections);
        List<String> wrong = new ArrayList<>();
        int n = 0;
        for (String[] f : new String[][] {{"policies.json", "vectors"}, {"e2e.json", "vectors"},
                {"match.json", "matches"}, {"match.json", "errors"}, {"match.json", "normalization"}}) {
            JSONArray arr = Vectors.resource(f[0]).getJSONArray(f[1]);
            for (int i = 0; i < arr.length(); i++) {
                JSONObject v = arr.getJSONObject(i);
                n++;
                String s = v.optString("section", "");
                if (!sections.contains(s)) {
                    wrong.add(f[0] + " " + f[1] + "[" + i + "]: section '" + s + "'");
                }
            }
        }
        assertTrue(n > 500, "vectors read: " + n);
        assertEquals(List.of(), wrong, "vectors naming no existing section of docs/spec.md or docs/spec-patterns.md");
    }

    @Test
    void vectorFilesCarryTheSpecRevision() throws IOException {
        Matcher m = REVISION.matcher(Files.readString(docs().resolve("spec.md")));
        assertTrue(m.find(), "docs/spec.md states 'Revision: N'");
        int revision = Integer.parseInt(m.group(1));
        for (String f : new String[] {"policies.json", "e2e.json", "match.json"}) {
            assertEquals(revision, Vectors.resource(f).getInt("spec-revision"), f + " is versioned with the spec");
        }
    }

    @Test
    void theProtocolRunnerSkipsOnlyPathsNoCheckCanName() {
        assertTrue(Vectors.nameable("a/b"));
        for (String p : new String[] {"", ".", "a/..", "a//b", "a/"}) {
            assertTrue(!Vectors.nameable(p), p);
        }
        assertEquals("\"a\\\\b\\\"c\\u0001\"", Vectors.yamlQuoted("a\\b\"c\u0001"));
    }
}
