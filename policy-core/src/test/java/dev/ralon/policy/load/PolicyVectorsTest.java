package dev.ralon.policy.load;

import dev.ralon.policy.ErrorKind;
import dev.ralon.policy.Paths2;
import dev.ralon.policy.Policy;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.Rule;
import dev.ralon.policy.glob.PatternError;
import org.json.JSONArray;
import org.json.JSONObject;
import org.json.JSONTokener;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the spec's language-neutral policy vectors ({@code dev/ralon/spec/v1/vectors/policies.json}, read from the
 * policy-spec jar on the class path) through {@link PolicyLoader}: each file is copied byte for byte to a temporary
 * directory as {@code agent.lock} and loaded from disk, and also parsed from memory; both must give the vector's
 * patterns, or its error id, line and column. Vectors that would be too big to store (a file over the size limit, an
 * alias bomb, very deep nesting) are generated here.
 */
class PolicyVectorsTest {
    static final String BASE = "/dev/ralon/spec/v1/vectors/";

    @TempDir
    Path tmp;

    static JSONObject document() throws IOException {
        try (InputStream in = PolicyVectorsTest.class.getResourceAsStream(BASE + "policies.json")) {
            assertNotNull(in, "policies.json is not on the class path (policy-spec jar)");
            return new JSONObject(new JSONTokener(in));
        }
    }

    static List<JSONObject> vectors() throws IOException {
        JSONArray arr = document().getJSONArray("vectors");
        List<JSONObject> out = new ArrayList<>();
        for (int i = 0; i < arr.length(); i++) {
            out.add(arr.getJSONObject(i));
        }
        return out;
    }

    static byte[] bytes(String file) throws IOException {
        try (InputStream in = PolicyVectorsTest.class.getResourceAsStream(BASE + file)) {
            assertNotNull(in, "vector file missing from the class path: " + file);
            return in.readAllBytes();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyVector() throws IOException {
        return vectors().stream().map(v -> DynamicTest.dynamicTest(v.getString("file"), () -> check(v)));
    }

    private void check(JSONObject v) throws Exception {
        String file = v.getString("file");
        byte[] content = bytes(file);
        Path dir = Files.createTempDirectory(tmp, "v");
        Path lock = dir.resolve("agent.lock");
        Files.write(lock, content);
        if (v.optBoolean("valid", false)) {
            List<String> expected = strings(v.getJSONArray("patterns"));
            Policy fromDisk = PolicyLoader.load(lock);
            assertEquals(expected, patterns(fromDisk), file + ": patterns as written");
            assertEquals(1, fromDisk.version());
            assertEquals(dir.toRealPath(), fromDisk.root());
            assertTrue(fromDisk.rules().get(0).implicit(), "the implicit self-protection rule comes first");
            assertTrue(fromDisk.isProtected("agent.lock"), "the policy file always protects itself");
            Policy fromMemory = PolicyLoader.parse(content, lock, dir.toRealPath().resolve("agent.lock"), dir.toRealPath());
            assertEquals(expected, patterns(fromMemory), file + ": parse() agrees with load()");
            for (Rule r : fromDisk.declaredRules()) {
                assertTrue(r.line() > 0 && r.column() > 0, file + ": every rule knows where it was written: " + r);
            }
            return;
        }
        String id = v.getString("error");
        int line = v.getInt("line");
        int column = v.getInt("column");
        PolicyException e = assertThrows(PolicyException.class, () -> PolicyLoader.load(lock), file + " must be rejected");
        String got = e.id() + " " + e.line() + ":" + e.column() + " (" + e.getMessage() + ")";
        assertEquals(id + " " + line + ":" + column, e.id() + " " + e.line() + ":" + e.column(), file + ": got " + got);
        assertFalse(e.isIoFault(), file + ": an error in the content is not an I/O fault");
        assertEquals(id.startsWith("pattern-"), e.patternError().isPresent(), file + ": pattern errors carry the PatternError");
        assertOneLineMessage(e, lock);
        List<String> want = new ArrayList<>();
        JSONArray problems = v.optJSONArray("problems");
        if (problems == null) {
            want.add(id + " " + line + ":" + column);
        } else {
            for (int i = 0; i < problems.length(); i++) {
                JSONObject p = problems.getJSONObject(i);
                want.add(p.getString("error") + " " + p.getInt("line") + ":" + p.getInt("column"));
            }
            assertEquals(want.get(0), id + " " + line + ":" + column, file + ": the first problem is the main error");
        }
        List<String> listed = e.problems().stream().map(p -> p.id() + " " + p.line() + ":" + p.column()).toList();
        assertEquals(want, listed, file + ": every problem of the file, in the order of spec section 10.2");
        assertEquals(e.id(), e.problems().get(0).id(), "the exception is its first problem");
        for (PolicyException.Problem p : e.problems()) {
            assertTrue(p.line() == 0 ? p.offset() == -1 : p.offset() >= 0, file + ": an offset wherever a line is known: " + p);
        }
        PolicyException m = assertThrows(PolicyException.class,
                () -> PolicyLoader.parse(content, lock, dir.toRealPath().resolve("agent.lock"), dir.toRealPath()));
        assertEquals(e.id() + " " + e.line() + ":" + e.column(), m.id() + " " + m.line() + ":" + m.column(),
                file + ": parse() agrees with load()");
    }

    static void assertOneLineMessage(PolicyException e, Path file) {
        String msg = e.getMessage();
        assertFalse(msg.contains("\n") || msg.contains("\r"), "one line: " + msg);
        String prefix = e.line() > 0 ? ":" + e.line() + (e.column() > 0 ? ":" + e.column() : "") + ": " : ": ";
        assertTrue(msg.contains(prefix), "message carries the location " + prefix + ": " + msg);
        assertTrue(msg.endsWith(e.reason()), msg);
        assertTrue(msg.startsWith(Paths2.display(file)), "message starts with the file: " + msg);
        assertFalse(e.reason().isBlank());
        assertFalse(msg.contains("org.yaml") || msg.contains("org.everit") || msg.contains("Exception"),
                "no library internals in the message: " + msg);
    }

    static List<String> patterns(Policy p) {
        return p.declaredRules().stream().map(Rule::pattern).toList();
    }

    static List<String> strings(JSONArray a) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < a.length(); i++) {
            out.add(a.getString(i));
        }
        return out;
    }

    /** Every file under policies/ has a vector and every vector a file: the spec data stays consistent. */
    @Test
    void everyFileHasAVectorAndViceVersa() throws Exception {
        Set<String> listed = new TreeSet<>();
        for (JSONObject v : vectors()) {
            assertTrue(listed.add(v.getString("file")), "listed twice: " + v.getString("file"));
            assertTrue(v.has("valid") != v.has("error"), "a vector is either valid or an error: " + v);
            assertTrue(v.has("note") && !v.getString("note").isBlank(), "every vector says what it is about: " + v);
        }
        URL url = PolicyVectorsTest.class.getResource(BASE + "policies");
        assertNotNull(url);
        URI uri = url.toURI();
        Set<String> onDisk = new TreeSet<>();
        if (uri.getScheme().equals("jar")) {
            try (FileSystem fs = FileSystems.newFileSystem(uri, Map.of())) {
                listFiles(fs.provider().getPath(uri), onDisk);
            }
        } else {
            listFiles(Path.of(uri), onDisk);
        }
        assertEquals(listed, onDisk);
    }

    private static void listFiles(Path dir, Set<String> out) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".lock"))
                    .forEach(n -> out.add("policies/" + n));
        }
    }

    /** Every way content can be wrong has at least one stored vector (too-large is generated below). */
    @Test
    void vectorsCoverEveryContentErrorAndEveryPatternError() throws IOException {
        Set<String> ids = new TreeSet<>();
        for (JSONObject v : vectors()) {
            if (v.has("error")) {
                ids.add(v.getString("error"));
            }
        }
        for (ErrorKind k : EnumSet.complementOf(EnumSet.of(ErrorKind.NOT_FOUND, ErrorKind.UNREADABLE,
                ErrorKind.NOT_A_FILE, ErrorKind.TOO_LARGE, ErrorKind.PATTERN))) {
            assertTrue(ids.contains(k.id()), "no vector for " + k.id());
        }
        for (PatternError pe : PatternError.values()) {
            assertTrue(ids.contains("pattern-" + pe.id()), "no vector for pattern-" + pe.id());
        }
    }

    // ---- generated vectors ----

    @Test
    void fiftyMegabytesIsTooLargeAndNeverRead() throws Exception {
        Path lock = tmp.resolve("agent.lock");
        try (var ch = java.nio.channels.FileChannel.open(lock, java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap("version: 1\n".getBytes(StandardCharsets.US_ASCII)));
            ch.position(50L << 20).write(java.nio.ByteBuffer.wrap(new byte[] {'\n'}));
        }
        PolicyException e = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertThrows(PolicyException.class, () -> PolicyLoader.load(lock)));
        assertEquals("too-large 0:0", e.id() + " " + e.line() + ":" + e.column());
        assertTrue(e.getMessage().contains(String.valueOf(PolicyLoader.MAX_BYTES)), e.getMessage());
        assertOneLineMessage(e, lock);
    }

    @Test
    void exactlyTheSizeLimitIsAccepted() throws Exception {
        byte[] head = "version: 1\nprotect:\n  - a\n#".getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[PolicyLoader.MAX_BYTES];
        System.arraycopy(head, 0, all, 0, head.length);
        java.util.Arrays.fill(all, head.length, all.length - 1, (byte) 'x');
        for (int i = head.length + 100; i < all.length - 2; i += 100) {
            all[i] = '\n';
            all[i + 1] = '#';
        }
        all[all.length - 1] = '\n';
        Path lock = tmp.resolve("agent.lock");
        Files.write(lock, all);
        assertEquals(List.of("a"), patterns(PolicyLoader.load(lock)));
        Files.write(lock, new byte[] {'#'}, java.nio.file.StandardOpenOption.APPEND);
        PolicyException e = assertThrows(PolicyException.class, () -> PolicyLoader.load(lock));
        assertEquals("too-large", e.id());
    }

    /** "Billion laughs": nine levels of ten aliases each. Refused at the first anchor, at once. */
    @Test
    void aliasBombIsRefusedAtTheFirstAnchorQuickly() throws Exception {
        StringBuilder sb = new StringBuilder("version: 1\n");
        sb.append("a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (int i = 1; i < 10; i++) {
            sb.append('a').append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 10; j++) {
                sb.append(j == 0 ? "" : ",").append("*a").append(i - 1);
            }
            sb.append("]\n");
        }
        sb.append("protect: *a9\n");
        Path lock = tmp.resolve("agent.lock");
        Files.writeString(lock, sb.toString());
        PolicyException e = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertThrows(PolicyException.class, () -> PolicyLoader.load(lock)));
        assertEquals("yaml 2:5", e.id() + " " + e.line() + ":" + e.column(), e.getMessage());
        assertOneLineMessage(e, lock);
    }

    /** Aliases without any anchor (a bomb made only of references): refused at the first alias. */
    @Test
    void aliasesWithoutAnchorsAreRefused() throws Exception {
        Path lock = tmp.resolve("agent.lock");
        Files.writeString(lock, "version: 1\nprotect: [" + "*x,".repeat(10_000) + "*x]\n");
        PolicyException e = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertThrows(PolicyException.class, () -> PolicyLoader.load(lock)));
        assertEquals("yaml 2:11", e.id() + " " + e.line() + ":" + e.column(), e.getMessage());
    }

    @Test
    void deepNestingIsAnErrorNotAStackOverflow() throws Exception {
        for (String open : new String[] {"[", "{a: "}) {
            Path lock = tmp.resolve("agent.lock");
            String close = open.equals("[") ? "]" : "}";
            Files.writeString(lock, "version: 1\nprotect: " + open.repeat(100_000) + close.repeat(100_000) + "\n");
            PolicyException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> assertThrows(PolicyException.class, () -> PolicyLoader.load(lock)));
            assertEquals("yaml", e.id(), e.getMessage());
            assertEquals(2, e.line(), e.getMessage());
            assertOneLineMessage(e, lock);
        }
        Path lock = tmp.resolve("agent.lock");
        StringBuilder block = new StringBuilder("version: 1\nprotect:\n");
        for (int i = 0; i < 40; i++) {
            block.append("  ".repeat(i + 1)).append("-\n");
        }
        Files.writeString(lock, block.toString());
        PolicyException e = assertThrows(PolicyException.class, () -> PolicyLoader.load(lock));
        assertEquals("yaml", e.id(), e.getMessage());
    }

    @Test
    void tooManyPatternsAndTooLongPatternsAreSchemaErrors() throws Exception {
        Path lock = tmp.resolve("agent.lock");
        StringBuilder sb = new StringBuilder("version: 1\nprotect:\n");
        for (int i = 0; i <= 10_000; i++) {
            sb.append("  - p").append(i).append('\n');
        }
        Files.writeString(lock, sb.toString());
        PolicyException many = assertThrows(PolicyException.class, () -> PolicyLoader.load(lock));
        assertEquals("schema 3:3", many.id() + " " + many.line() + ":" + many.column(), many.getMessage());
        assertTrue(many.getMessage().contains("10000"), many.getMessage());

        Files.writeString(lock, "version: 1\nprotect:\n  - ok\n  - " + "x".repeat(4097) + "\n");
        PolicyException longOne = assertThrows(PolicyException.class, () -> PolicyLoader.load(lock));
        assertEquals("schema 4:5", longOne.id() + " " + longOne.line() + ":" + longOne.column(), longOne.getMessage());
        assertTrue(longOne.getMessage().length() < 300, "the message does not echo the whole pattern");
    }
}
