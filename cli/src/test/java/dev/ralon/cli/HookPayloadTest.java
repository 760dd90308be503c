package dev.ralon.cli;

import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The hook's streaming reader: what it keeps from real payload shapes, what it refuses, and, over seeded random
 * documents, the same kept values as org.json (a full parser) gives for the same text.
 */
class HookPayloadTest {
    static HookPayload read(String json) throws Exception {
        return HookPayload.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void keepsTheFieldsAHookNeedsFromAClaudeCodeWrite() throws Exception {
        HookPayload p = read("{\"session_id\":\"abc\",\"cwd\":\"/w/p\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\","
                + "\"tool_input\":{\"content\":\"a\\\"b\\u00e9\\n\",\"file_path\":\"/w/p/\\u00e9.txt\"},\"tool_use_id\":\"t\"}");
        assertEquals("PreToolUse", p.event);
        assertEquals("/w/p", p.cwd);
        assertEquals("Write", p.tool);
        assertEquals(List.of("/w/p/é.txt"), p.paths);
        assertFalse(p.patch);
    }

    @Test
    void readsEveryFileAPatchNames() throws Exception {
        String patch = "*** Begin Patch\r\n*** Add File: a b.txt\n+x\n+*** Add File: content.txt\n*** Update File: u.txt\n"
                + "*** Move to: /abs/m.txt\n@@ ctx\n-x\n+y\n  *** Delete File: d.txt\n*** End of File\n*** End Patch";
        HookPayload p = read("{\"tool_name\":\"apply_patch\",\"tool_input\":{\"command\":" + JSONObject.quote(patch) + "}}");
        assertTrue(p.patch);
        assertEquals(List.of("a b.txt", "u.txt", "/abs/m.txt", "d.txt"), p.patchPaths);
    }

    @Test
    void skipsValuesItDoesNotNeedWhateverTheirShape() throws Exception {
        HookPayload p = read(" {\"a\":[1,-2.5e+3,0,true,false,null,{\"b\":[[]]},\"\\/\"],\"tool_input\":{\"edits\":[{\"old_string\":"
                + "\"x\"}],\"notebook_path\":\"n.ipynb\",\"file_path\":7},\"tool_name\":\"NotebookEdit\"} \n");
        assertEquals(List.of("n.ipynb"), p.paths);
        assertNull(p.cwd);
    }

    @Test
    void refusesAnythingButOneWellFormedObject() {
        for (String bad : List.of("", " ", "[]", "\"x\"", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{\"a\":01}", "{\"a\":1.}",
                "{\"a\":-}", "{\"a\":tru}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12g4\"}", "{\"a\":\"\t\"}", "{} x", "{}{}",
                "{'a':1}", "{\"a\":[1 2]}", "{\"cwd\":1}", "{\"cwd\":\"a\",\"cwd\":\"b\"}",
                "{\"tool_input\":{\"file_path\":\"a\",\"file_path\":\"b\"}}", "{\"a\":\"unterminated")) {
            assertThrows(HookPayload.Malformed.class, () -> read(bad), bad);
        }
        assertThrows(HookPayload.Malformed.class, () -> read("{\"a\":" + "[".repeat(HookPayload.MAX_DEPTH + 1)
                + "]".repeat(HookPayload.MAX_DEPTH + 1) + "}"));
        assertThrows(HookPayload.Malformed.class, () -> HookPayload.read(new ByteArrayInputStream(
                new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xFF, '"', '}'})));
    }

    @Test
    void holdsNoneOfALargeContentValue() throws Exception {
        long size = 96L << 20; // streamed in chunks, never materialised (HookE2ETest runs the hook with a heap smaller than its input)
        String head = "{\"tool_name\":\"Write\",\"tool_input\":{\"content\":\"";
        String tail = "\",\"file_path\":\"f\"}}";
        InputStream in = new InputStream() {
            long pos;

            @Override
            public int read() {
                long total = head.length() + size + tail.length();
                if (pos >= total) {
                    return -1;
                }
                long i = pos++;
                if (i < head.length()) {
                    return head.charAt((int) i);
                }
                if (i < head.length() + size) {
                    return 'a' + (int) (i % 26);
                }
                return tail.charAt((int) (i - head.length() - size));
            }

            @Override
            public int read(byte[] b, int off, int len) {
                long body = pos - head.length();
                if (body >= 0 && body < size) { // the bulk: whole chunks of content
                    int n = (int) Math.min(len, size - body);
                    for (int k = 0; k < n; k++) {
                        b[off + k] = (byte) ('a' + (int) ((pos + k) % 26));
                    }
                    pos += n;
                    return n;
                }
                int n = 0;
                while (n < len) {
                    int c = read();
                    if (c < 0) {
                        return n == 0 ? -1 : n;
                    }
                    b[off + n++] = (byte) c;
                }
                return n;
            }
        };
        assertEquals(List.of("f"), HookPayload.read(in).paths);
    }

    /** Seeded random documents: the kept values equal org.json's reading of the same text. Prints the seed on failure. */
    @Test
    void agreesWithAFullParserOnGeneratedDocuments() throws Exception {
        long seed = dev.ralon.testsupport.Seeds.seed("HookPayloadTest");
        Random rnd = new Random(seed);
        for (int i = 0; i < 2000; i++) {
            JSONObject doc = new JSONObject();
            List<String> keys = new ArrayList<>(List.of("cwd", "tool_name", "hook_event_name", "session_id", "x", "tool_input"));
            java.util.Collections.shuffle(keys, rnd);
            for (String k : keys.subList(0, 1 + rnd.nextInt(keys.size()))) {
                if (k.equals("tool_input")) {
                    JSONObject in = new JSONObject();
                    if (rnd.nextBoolean()) {
                        in.put("file_path", randomString(rnd));
                    }
                    if (rnd.nextBoolean()) {
                        in.put("content", randomValue(rnd, 0));
                    }
                    in.put("other", randomValue(rnd, 0));
                    doc.put(k, in);
                } else if (k.equals("session_id") || k.equals("x")) {
                    doc.put(k, randomValue(rnd, 0));
                } else {
                    doc.put(k, randomString(rnd));
                }
            }
            String text = doc.toString();
            HookPayload p;
            try {
                p = read(text);
            } catch (HookPayload.Malformed e) {
                fail("seed " + seed + ", document " + i + ": " + e.getMessage() + " in " + text);
                return;
            }
            JSONObject back = new JSONObject(text);
            String where = "seed " + seed + ", document " + i + ": " + text;
            assertEquals(back.optString("cwd", null), p.cwd, where);
            assertEquals(back.optString("tool_name", null), p.tool, where);
            assertEquals(back.optString("hook_event_name", null), p.event, where);
            JSONObject in = back.optJSONObject("tool_input");
            List<String> paths = in != null && in.has("file_path") ? List.of(in.getString("file_path")) : List.of();
            assertEquals(paths, p.paths, where);
        }
    }

    static String randomString(Random rnd) {
        StringBuilder sb = new StringBuilder();
        int n = rnd.nextInt(12);
        String alphabet = "ab/.-_ \"\\\n\t\u0001é€\u2028";
        for (int i = 0; i < n; i++) {
            if (rnd.nextInt(10) == 0) {
                sb.appendCodePoint(0x1F600 + rnd.nextInt(16)); // beyond the BMP: a surrogate pair
            } else {
                sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
        }
        return sb.toString();
    }

    static Object randomValue(Random rnd, int depth) {
        switch (depth > 3 ? rnd.nextInt(4) : rnd.nextInt(6)) {
            case 0:
                return randomString(rnd);
            case 1:
                return rnd.nextInt() / (rnd.nextInt(3) + 1.0);
            case 2:
                return rnd.nextBoolean();
            case 3:
                return JSONObject.NULL;
            case 4: {
                JSONArray a = new JSONArray();
                for (int i = rnd.nextInt(4); i > 0; i--) {
                    a.put(randomValue(rnd, depth + 1));
                }
                return a;
            }
            default: {
                JSONObject o = new JSONObject();
                for (int i = rnd.nextInt(4); i > 0; i--) {
                    o.put(randomString(rnd), randomValue(rnd, depth + 1));
                }
                return o;
            }
        }
    }
}
