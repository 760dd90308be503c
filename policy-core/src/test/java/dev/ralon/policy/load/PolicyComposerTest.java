package dev.ralon.policy.load;

import dev.ralon.policy.ErrorKind;
import dev.ralon.policy.PolicyException;
import org.json.JSONObject;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link PolicyComposer} against SnakeYAML's Composer and Resolver (the reference): for every text within the
 * agent.lock subset its nodes equal the Composer's, a text the Composer rejects it rejects too, and its implicit tags
 * equal the Resolver's.
 */
class PolicyComposerTest {
    static final int LIMIT = 16;

    static LoaderOptions options() {
        return PolicyComposer.loaderOptions();
    }

    /** Null when SnakeYAML's Composer throws. */
    static Object reference(String text) {
        try {
            Node n = new Composer(new ParserImpl(new StreamReader(new StringReader(text)), options()), new Resolver(),
                    options()).getSingleNode();
            return n == null ? "(empty)" : n;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Returns whether the text was composed (false: outside the subset, or not well-formed YAML, which SnakeYAML's
     * Composer must then reject too).
     */
    static boolean agrees(String text, String what) {
        Node node;
        try {
            node = PolicyComposer.compose(text, options(), LIMIT, java.nio.file.Path.of("agent.lock"));
        } catch (PolicyException subset) {
            assertEquals(ErrorKind.YAML, subset.kind(), what);
            return false;
        } catch (RuntimeException | StackOverflowError malformed) {
            if (reference(text) != null) {
                fail(what + ": rejected (" + malformed + ") a document SnakeYAML's Composer composes:\n" + text);
            }
            return false;
        }
        Object ref = reference(text);
        if (ref == null) {
            fail(what + ": composed a document SnakeYAML's Composer rejects:\n" + text);
        }
        if (node == null) {
            assertEquals("(empty)", ref, what);
        } else {
            assertSame((Node) ref, node, what + " at #");
        }
        return true;
    }

    static String mark(Mark m) {
        return m == null ? "null" : m.getLine() + ":" + m.getColumn() + "@" + m.getIndex();
    }

    static void assertSame(Node want, Node got, String where) {
        assertEquals(want.getClass(), got.getClass(), where);
        assertEquals(want.getTag(), got.getTag(), where + " tag");
        assertEquals(mark(want.getStartMark()), mark(got.getStartMark()), where + " start");
        assertEquals(mark(want.getEndMark()), mark(got.getEndMark()), where + " end");
        if (want instanceof ScalarNode w) {
            ScalarNode g = (ScalarNode) got;
            assertEquals(w.getValue(), g.getValue(), where + " value");
            assertEquals(w.getScalarStyle(), g.getScalarStyle(), where + " style");
        } else if (want instanceof SequenceNode w) {
            SequenceNode g = (SequenceNode) got;
            assertEquals(w.getFlowStyle(), g.getFlowStyle(), where + " flow");
            assertEquals(w.getValue().size(), g.getValue().size(), where + " size");
            for (int i = 0; i < w.getValue().size(); i++) {
                assertSame(w.getValue().get(i), g.getValue().get(i), where + "/" + i);
            }
        } else {
            MappingNode w = (MappingNode) want;
            MappingNode g = (MappingNode) got;
            assertEquals(w.getFlowStyle(), g.getFlowStyle(), where + " flow");
            assertEquals(w.getValue().size(), g.getValue().size(), where + " size");
            for (int i = 0; i < w.getValue().size(); i++) {
                NodeTuple wt = w.getValue().get(i);
                NodeTuple gt = g.getValue().get(i);
                assertSame(wt.getKeyNode(), gt.getKeyNode(), where + "/key" + i);
                assertSame(wt.getValueNode(), gt.getValueNode(), where + "/value" + i);
            }
        }
    }

    @Test
    void everyPolicyVectorComposesAsSnakeYamlComposesIt() throws Exception {
        int fast = 0;
        int valid = 0;
        int validFast = 0;
        for (JSONObject v : PolicyVectorsTest.vectors()) {
            String text = new String(PolicyVectorsTest.bytes(v.getString("file")), StandardCharsets.UTF_8);
            boolean answered = agrees(text, v.getString("file"));
            fast += answered ? 1 : 0;
            if (v.optBoolean("valid", false)) {
                valid++;
                validFast += answered ? 1 : 0;
            }
        }
        // every valid policy is within the subset
        assertEquals(valid, validFast, "composed only " + validFast + " of " + valid + " valid vectors (" + fast
                + " vectors in all)");
    }

    @Test
    void theUsualFilesAreComposed() {
        for (String text : List.of("version: 1\nprotect:\n  - \"**/*.json\"\n  - pom.xml\n  - secrets/\n",
                "# comment\nversion: 1\nprotect: ['.env', .github/workflows/*.yml, src/**/secret*.ts]\n",
                "version: 1\n", "", "version: 1\nprotect: []\n", "---\nversion: 1\nprotect:\n- 'a b'\n- |\n  x\n...\n")) {
            assertTrue(agrees(text, text), "should be composed:\n" + text);
        }
    }

    /** Scalars built from the characters the Resolver's expressions care about. */
    static String randomScalar(Random rnd) {
        String[] words = {"yes", "No", "TRUE", "off", "On", "null", "Null", "NULL", "~", ".inf", ".NaN", "<<", "=",
                "0", "1", "0x1F", "0b101", "017", "1_000", "1:20", "1.5", "1e3", "-1", "+2", ".5", "2001-12-14",
                "2001-12-14t21:59:43.10-05:00", "y", "n", "Y", "N", "yesno", "nul", "tru", "o", "on.", "node_modules",
                "true/", "_x", "/abs", "./a", ".env", "$HOME", "${X}", "a", "pom.xml"};
        String alphabet = "yYnNtTfFoOeEaAxXbB0123456789._/-+:~<=!&*$ lLuUsS";
        if (rnd.nextInt(3) == 0) {
            String w = words[rnd.nextInt(words.length)];
            return rnd.nextBoolean() ? w : w + alphabet.charAt(rnd.nextInt(alphabet.length()));
        }
        if (rnd.nextInt(50) == 0) {
            // around the Resolver's length limits (50 for TIMESTAMP, 1024 for INT and FLOAT; found by review)
            int[] lengths = {49, 50, 51, 1023, 1024, 1025, 1100};
            int n = lengths[rnd.nextInt(lengths.length)];
            String unit = new String[] {"1", "0", "9", "y", ".", "_", "1."}[rnd.nextInt(7)];
            return unit.repeat(n).substring(0, n);
        }
        int len = rnd.nextInt(9);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < len; i++) {
            sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    @Test
    void implicitTagsAreTheResolvers() {
        long seed = dev.ralon.testsupport.Seeds.seed("FastComposerTest.implicitTagsAreTheResolvers");
        Random rnd = new Random(seed);
        Resolver resolver = new Resolver();
        int answered = 0;
        for (int i = 0; i < 200_000; i++) {
            String v = randomScalar(rnd);
            Tag fast = PolicyComposer.implicitTag(v);
            if (fast != null) {
                answered++;
                assertEquals(resolver.resolve(NodeId.scalar, v, true), fast,
                        "\"" + v + "\" (seed " + seed + ", rerun with -Dralon.seed=" + seed + ")");
            }
        }
        assertTrue(answered > 50_000, "the fast classification answered only " + answered + " times");
        for (int n : new int[] {50, 51, 1024, 1025}) {
            for (String unit : List.of("1", "7", "12345", ".e")) {
                String v = unit.repeat(n).substring(0, n);
                Tag fast = PolicyComposer.implicitTag(v);
                if (fast != null) {
                    assertEquals(resolver.resolve(NodeId.scalar, v, true), fast, "length " + n + " of " + unit);
                }
            }
        }
        for (char c = 'a'; c <= 'z'; c++) {
            for (String v : List.of(String.valueOf(c), c + "x/y", Character.toUpperCase(c) + ".lock")) {
                Tag fast = PolicyComposer.implicitTag(v);
                assertNotNull(fast, v);
                assertEquals(resolver.resolve(NodeId.scalar, v, true), fast, v);
            }
        }
    }

    @Test
    void generatedDocumentsComposeAsSnakeYamlComposesThem() {
        long seed = dev.ralon.testsupport.Seeds.seed("FastComposerTest.generatedDocumentsComposeAsSnakeYamlComposesThem");
        Random rnd = new Random(seed);
        int answered = 0;
        for (int i = 0; i < 3000; i++) {
            StringBuilder doc = new StringBuilder();
            if (rnd.nextInt(5) == 0) {
                doc.append("---\n");
            }
            doc.append("version: ").append(rnd.nextInt(4) == 0 ? randomScalar(rnd) : "1").append('\n');
            List<String> items = new ArrayList<>();
            int n = rnd.nextInt(6);
            for (int k = 0; k < n; k++) {
                String s = randomScalar(rnd);
                items.add(switch (rnd.nextInt(4)) {
                    case 0 -> "'" + s.replace("'", "''") + "'";
                    case 1 -> "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
                    default -> s;
                });
            }
            if (rnd.nextBoolean()) {
                doc.append("protect: [").append(String.join(", ", items)).append("]\n");
            } else {
                doc.append("protect:\n");
                for (String it : items) {
                    doc.append(rnd.nextBoolean() ? "  - " : "- ").append(it).append('\n');
                }
            }
            if (rnd.nextInt(6) == 0) {
                doc.append(randomScalar(rnd)).append(": ").append(randomScalar(rnd)).append('\n');
            }
            answered += agrees(doc.toString(), "seed " + seed + " (rerun with -Dralon.seed=" + seed + "), document:\n"
                    + doc) ? 1 : 0;
        }
        assertTrue(answered > 500, "composed only " + answered + " of 3000 documents");
    }
}
