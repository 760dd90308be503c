package dev.ralon.policy;

import dev.ralon.policy.glob.Glob;
import dev.ralon.policy.glob.PatternError;
import dev.ralon.policy.glob.PatternException;
import org.everit.json.schema.Schema;
import org.everit.json.schema.ValidationException;
import org.everit.json.schema.loader.SchemaLoader;
import org.json.JSONArray;
import org.json.JSONObject;
import org.json.JSONTokener;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Loads and validates an agent.lock (docs/spec.md), each error reported with file, line, column and a reason in plain
 * words.
 *
 * <p>Order of checks (spec §10.2): the file is a regular file (never a link, fifo or directory: reading is never
 * attempted on something that could block); at most {@link #MAX_BYTES}; no UTF-16/UTF-32 byte-order mark; then, in
 * file order, the first ill-formed UTF-8 sequence, NUL or character not allowed raw (a UTF-8 byte-order mark is
 * skipped); YAML well-formed, one document, no anchors, aliases or explicit tags, nesting at most 16 — each of these
 * stops at its first error. Then every key error (non-scalar or repeated keys), every shape error (the JSON Schema
 * of the spec, plain scalars typed by spec §4.3) and every pattern error is collected and thrown together
 * ({@link PolicyException#problems()}). Nothing is ever written.
 */
public final class PolicyLoader {
    /** Largest policy file accepted. */
    public static final int MAX_BYTES = 1 << 20;
    private static final int MAX_NESTING = 16;
    private static final String SCHEMA_RESOURCE = "/dev/ralon/spec/v1/agent-lock.schema.json";

    private PolicyLoader() {
    }

    /** Loads the policy file at {@code file}. */
    public static Policy load(Path file) throws PolicyException {
        Path abs = file.toAbsolutePath().normalize();
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(abs, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw new PolicyException(ErrorKind.NOT_FOUND, file, 0, 0, "no such file");
        } catch (IOException | SecurityException e) {
            throw new PolicyException(ErrorKind.UNREADABLE, file, 0, 0, "cannot read: " + e.getMessage());
        }
        if (attrs.isDirectory()) {
            throw new PolicyException(ErrorKind.NOT_A_FILE, file, 0, 0, "is a directory, not a policy file");
        }
        if (attrs.isSymbolicLink()) {
            throw new PolicyException(ErrorKind.NOT_A_FILE, file, 0, 0,
                    "is a symbolic link; the policy must be a regular file so that it can protect itself");
        }
        if (!attrs.isRegularFile()) {
            throw new PolicyException(ErrorKind.NOT_A_FILE, file, 0, 0, "is not a regular file (a fifo, socket or device)");
        }
        if (attrs.size() > MAX_BYTES) {
            throw new PolicyException(ErrorKind.TOO_LARGE, file, 0, 0,
                    "is " + attrs.size() + " bytes; a policy file may be at most " + MAX_BYTES + " bytes");
        }
        byte[] bytes;
        try (FileChannel ch = FileChannel.open(abs, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer buf = ByteBuffer.allocate(MAX_BYTES + 1);
            while (buf.hasRemaining() && ch.read(buf) >= 0) {
                // read until EOF or one byte over the limit
            }
            if (!buf.hasRemaining()) {
                throw new PolicyException(ErrorKind.TOO_LARGE, file, 0, 0,
                        "is larger than " + MAX_BYTES + " bytes, the most a policy file may be");
            }
            bytes = new byte[buf.position()];
            buf.flip().get(bytes);
        } catch (AccessDeniedException e) {
            throw new PolicyException(ErrorKind.UNREADABLE, file, 0, 0, "cannot read: permission denied");
        } catch (IOException e) {
            throw new PolicyException(ErrorKind.UNREADABLE, file, 0, 0, "cannot read: " + e.getMessage());
        }
        Path root = abs.getParent();
        try {
            root = root.toRealPath();
        } catch (IOException e) {
            // keep the lexical root
        }
        return parse(bytes, file, root.resolve(abs.getFileName()), root);
    }

    /**
     * Parses policy content as if it were the file {@code file} in directory {@code root}. Used by {@link #load} and by
     * tools that validate content that is not on disk.
     *
     * <p>The encoding and YAML stages stop at their first error; after them, every key, shape and pattern error is
     * collected and thrown together ({@link PolicyException#problems()}), the first being the one the spec orders
     * first (§10.2).
     */
    public static Policy parse(byte[] bytes, Path displayFile, Path absoluteFile, Path root) throws PolicyException {
        String text = decode(bytes, displayFile);
        Node doc = compose(text, displayFile);
        if (doc == null) {
            throw new PolicyException(new PolicyException.Problem(ErrorKind.SCHEMA, displayFile, 1, 1, 0,
                    "the policy is empty; it needs at least the line \"version: 1\"", null));
        }
        Problems problems = new Problems(displayFile);
        Map<String, Node> pointers = new HashMap<>();
        Object json = toJson(doc, "#", pointers, problems);
        Set<Node> flagged = validate(json, pointers, problems);
        Policy policy = build(doc, text, displayFile, absoluteFile, root, problems, flagged);
        problems.throwIfAny();
        return policy;
    }

    /** The problems found after the YAML stage, each in its stage; thrown together, sorted by stage then offset. */
    private static final class Problems {
        static final int KEYS = 0;
        static final int SHAPE = 1;
        static final int PATTERNS = 2;
        private final Path file;
        private final List<long[]> order = new ArrayList<>();
        private final List<PolicyException.Problem> found = new ArrayList<>();

        Problems(Path file) {
            this.file = file;
        }

        void add(int stage, long rank, PolicyException.Problem p) {
            order.add(new long[] {stage, rank, found.size()});
            found.add(p);
        }

        void add(int stage, ErrorKind kind, Node at, String reason) {
            add(stage, at == null ? Long.MAX_VALUE : at.getStartMark().getIndex(), problem(kind, file, at, reason));
        }

        void throwIfAny() throws PolicyException {
            if (found.isEmpty()) {
                return;
            }
            order.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0])
                    : a[1] != b[1] ? Long.compare(a[1], b[1]) : Long.compare(a[2], b[2]));
            List<PolicyException.Problem> sorted = new ArrayList<>(found.size());
            for (long[] o : order) {
                sorted.add(found.get((int) o[2]));
            }
            throw new PolicyException(sorted);
        }
    }

    /**
     * Decodes the file's bytes, checking in one pass in file order (spec §3): the byte-order mark (UTF-8 skipped;
     * UTF-16 and UTF-32 refused as a whole), then the first of: an invalid UTF-8 sequence ({@code encoding}), a NUL
     * ({@code binary}), a character YAML does not allow in a stream ({@code yaml}), each at its line and column.
     */
    private static String decode(byte[] bytes, Path file) throws PolicyException {
        int start = 0;
        if (bytes.length >= 4 && bytes[0] == 0 && bytes[1] == 0 && bytes[2] == (byte) 0xFE && bytes[3] == (byte) 0xFF) {
            throw new PolicyException(ErrorKind.ENCODING, file, 0, 0, "is UTF-32 encoded; agent.lock must be UTF-8");
        }
        if (bytes.length >= 2 && ((bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF)
                || (bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE))) {
            throw new PolicyException(ErrorKind.ENCODING, file, 0, 0, "is UTF-16 (or UTF-32) encoded; agent.lock must be UTF-8");
        }
        if (bytes.length >= 3 && bytes[0] == (byte) 0xEF && bytes[1] == (byte) 0xBB && bytes[2] == (byte) 0xBF) {
            start = 3;
        }
        CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, start, bytes.length - start);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = dec.decode(in, out, true);
        if (!r.isError()) {
            dec.flush(out);
        }
        String text = out.flip().toString(); // all of it, or the valid part before the bad byte
        int bad = TextPosition.firstDisallowed(text);
        if (bad >= 0) {
            int cp = text.codePointAt(bad);
            TextPosition pos = TextPosition.of(text, bad);
            if (cp == 0) {
                throw new PolicyException(new PolicyException.Problem(ErrorKind.BINARY, file, pos.line(), pos.column(),
                        pos.offset(), "contains a NUL byte: this is a binary file, not a YAML policy", null));
            }
            String reason = cp == 0x85 || cp == 0x2028 || cp == 0x2029
                    ? String.format("the character U+%04X is a line break to YAML 1.1 but not to YAML 1.2, so it is not"
                    + " allowed as such; in a file name, write it as the escape \\u%04X inside double quotes", cp, cp)
                    : String.format("the character U+%04X is not allowed in YAML; remove it (a pattern may not hold"
                    + " control characters)", cp);
            throw new PolicyException(new PolicyException.Problem(ErrorKind.YAML, file, pos.line(), pos.column(),
                    pos.offset(), reason, null));
        }
        if (r.isError()) {
            TextPosition pos = TextPosition.of(text, text.length());
            throw new PolicyException(new PolicyException.Problem(ErrorKind.ENCODING, file, pos.line(), pos.column(),
                    pos.offset(), "is not valid UTF-8 (byte 0x" + String.format("%02X", bytes[in.position()] & 0xff) + ")",
                    null));
        }
        return text;
    }

    static LoaderOptions loaderOptions() {
        LoaderOptions opts = new LoaderOptions();
        opts.setAllowDuplicateKeys(false);
        opts.setMaxAliasesForCollections(0);
        opts.setAllowRecursiveKeys(false);
        opts.setNestingDepthLimit(MAX_NESTING);
        opts.setCodePointLimit(MAX_BYTES);
        opts.setProcessComments(false);
        return opts;
    }

    /**
     * Parses once and composes to nodes (marks kept) with {@link PolicyComposer}, which checks the YAML subset on each
     * event as it takes it; a text that is not well-formed YAML is worded here from the parser's own exception.
     */
    private static Node compose(String text, Path file) throws PolicyException {
        try {
            return PolicyComposer.compose(text, loaderOptions(), MAX_NESTING, file);
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String problem = e.getProblem() != null ? e.getProblem() : "malformed YAML";
            if (e.getContext() != null && !problem.contains(e.getContext())) {
                problem = problem + " (" + e.getContext() + ")";
            }
            throw PolicyComposer.yamlError(file, m, "invalid YAML: " + oneLine(problem));
        } catch (YAMLException e) {
            throw new PolicyException(ErrorKind.YAML, file, 0, 0, "invalid YAML: " + oneLine(e.getMessage()));
        } catch (StackOverflowError e) {
            throw new PolicyException(ErrorKind.YAML, file, 0, 0, "invalid YAML: nested too deeply");
        }
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*\\R\\s*", " ").trim();
    }

    /**
     * Converts the node tree to org.json values, recording each JSON pointer's node (a key's node under
     * {@code pointer + "#key"}). Collects the key errors (spec §4.4): a key that is not a scalar and a repeated key;
     * the offending entry is left out of the JSON, so the rest is judged as if it were not there.
     */
    private static Object toJson(Node node, String pointer, Map<String, Node> pointers, Problems problems) {
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
            try (InputStream in = PolicyLoader.class.getResourceAsStream(SCHEMA_RESOURCE)) {
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
    private static Set<Node> validate(Object json, Map<String, Node> pointers, Problems problems) {
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
                return at(ErrorKind.SCHEMA, file, node, where + ": " + oneLine(v.getErrorMessage()));
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

    private static PolicyException.Problem problem(ErrorKind kind, Path file, Node node, String reason) {
        if (node == null) {
            return new PolicyException.Problem(kind, file, 0, 0, -1, reason, null);
        }
        Mark m = node.getStartMark();
        return new PolicyException.Problem(kind, file, m.getLine() + 1, m.getColumn() + 1, m.getIndex(), reason, null);
    }

    /**
     * Compiles the patterns of the first {@code protect} list, collecting every pattern error (items the schema already
     * found wrong are not judged again). Returns null when the document is not a mapping (the schema said so).
     */
    private static Policy build(Node docNode, String text, Path displayFile, Path absFile, Path root,
                                Problems problems, Set<Node> flagged) throws PolicyException {
        List<Rule> rules = new ArrayList<>();
        List<Warning> warnings = new ArrayList<>();
        String fileName = absFile.getFileName().toString();
        try {
            rules.add(new Rule(Glob.compile(escape(fileName)), 0, 0, true, displayFile));
        } catch (PatternException e) {
            throw new PolicyException(ErrorKind.PATTERN, displayFile, 0, 0,
                    "the policy file's own name cannot be protected: " + e.reason());
        }
        if (!(docNode instanceof MappingNode doc)) {
            return null;
        }
        Map<String, Rule> byNormal = new HashMap<>();
        for (NodeTuple t : doc.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k) || !k.getValue().equals("protect")) {
                continue;
            }
            if (t.getValueNode() instanceof SequenceNode list && !flagged.contains(list)) {
                for (Node item : list.getValue()) {
                    if (!(item instanceof ScalarNode s) || flagged.contains(s) || typeOf(s) != PlainScalar.Type.STRING) {
                        continue;
                    }
                    Mark m = s.getStartMark();
                    Glob g;
                    try {
                        g = Glob.compile(s.getValue());
                    } catch (PatternException e) {
                        int delta = patternColumnDelta(s, text, e.offset());
                        problems.add(Problems.PATTERNS, m.getIndex() + delta, new PolicyException.Problem(
                                ErrorKind.PATTERN, displayFile, m.getLine() + 1, m.getColumn() + 1 + delta,
                                m.getIndex() + delta, "pattern \"" + printable(s.getValue()) + "\": " + e.reason(),
                                e.kind()));
                        continue;
                    }
                    Rule r = new Rule(g, m.getLine() + 1, m.getColumn() + 1, false, displayFile);
                    Rule earlier = byNormal.putIfAbsent(g.normalized(), r);
                    if (earlier != null) {
                        warnings.add(Warning.about(Warning.Kind.REPEATED_PATTERN, r, "repeats line " + earlier.line()));
                    }
                    rules.add(r);
                }
            }
            break; // only the first "protect": a repeated key is an error of its own, its value is not judged
        }
        return new Policy(absFile, root, 1, rules, warnings);
    }

    /**
     * Code points from the scalar's start mark to the offending character: exact for plain and simply quoted one-line
     * scalars (the character's own column), else 0 (the scalar's start: an escape or a folded line makes the written
     * form differ from the value). SnakeYAML marks count code points (index and column), the pattern language's
     * {@link PatternException#offset()} counts UTF-16 chars: both are converted to code points, the unit of every
     * column and offset the loader reports (spec §10.3).
     */
    private static int patternColumnDelta(ScalarNode s, String text, int offset) {
        Mark start = s.getStartMark();
        Mark end = s.getEndMark();
        if (start.getLine() != end.getLine()) {
            return 0;
        }
        String value = s.getValue();
        int cpOffset = value.codePointCount(0, Math.min(Math.max(offset, 0), value.length()));
        int total = text.codePointCount(0, text.length());
        int a = start.getIndex();
        int b = end.getIndex();
        if (a < 0 || b > total || a >= b) {
            return 0;
        }
        int ca = text.offsetByCodePoints(0, a);
        String src = text.substring(ca, text.offsetByCodePoints(ca, b - a));
        if (src.equals(value)) {
            return cpOffset;
        }
        if (src.length() == value.length() + 2 && src.substring(1, src.length() - 1).equals(value)) {
            return 1 + cpOffset;
        }
        return 0;
    }

    private static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && sb.length() < 80; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\u%04X", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Escapes glob metacharacters so a file name matches only itself. */
    static String escape(String name) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }
}
