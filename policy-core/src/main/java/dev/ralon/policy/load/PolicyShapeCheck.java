package dev.ralon.policy.load;

import dev.ralon.policy.ErrorKind;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.glob.PatternError;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checking stage of {@link PolicyLoader}, over the SnakeYAML nodes {@link PolicyComposer} builds: the key errors
 * of spec §4.4 (a key that is not a scalar, a repeated key), then every violation of the v1 JSON Schema
 * ({@code agent-lock.schema.json} in policy-spec), each worded in Ralon's own terms at its line and column.
 *
 * <p>Contract: with plain scalars typed by spec §4.3 ({@link PlainScalar}), the document is a JSON value; this check
 * reports no shape error exactly when the JSON Schema, without its {@code pattern} keyword, accepts that value. The
 * schema's item {@code pattern} is a regular-expression approximation of the pattern language; the pattern stage
 * ({@link PolicyBuilder}) rejects everything it rejects, with the exact reason. {@code ShapeCheckDifferentialTest}
 * holds both claims against everit-json-schema (a test dependency only) on generated documents, and fails when the
 * schema's numbers or keys change without this class.
 *
 * <p>At most one shape error per place: at a value, a wrong type is reported and its value is not judged further
 * ({@code version: "1"} is a string, not an unsupported version). A missing {@code version} has no place in the file:
 * it sorts after every error that has one (a typo such as {@code Version:} is reported first, as the unknown key it is).
 */
final class PolicyShapeCheck {
    /** The schema's {@code protect.maxItems}. */
    static final int MAX_ITEMS = 10000;
    /** The schema's {@code protect.items.minLength} and {@code maxLength}, counted in code points. */
    static final int MIN_LENGTH = 1;
    static final int MAX_LENGTH = 4096;
    /** The schema's {@code required} and {@code properties}: its only keys ({@code additionalProperties: false}). */
    static final String VERSION = "version";
    static final String PROTECT = "protect";

    /** A missing key sorts after every error that has a place in the file. */
    private static final long NO_PLACE = Integer.MAX_VALUE;

    private final Problems problems;
    private final Set<Node> flagged = Collections.newSetFromMap(new IdentityHashMap<>());

    private PolicyShapeCheck(Problems problems) {
        this.problems = problems;
    }

    /**
     * Reports the key errors and the shape errors of the document {@code doc} into {@code problems}. Returns the nodes
     * found wrong, whose patterns the building stage does not judge again.
     */
    static Set<Node> check(Node doc, Problems problems) {
        PolicyShapeCheck c = new PolicyShapeCheck(problems);
        if (doc instanceof MappingNode root) {
            Map<String, NodeTuple> entries = c.entries(root);
            c.root(root, entries);
        } else {
            c.keys(doc);
            c.wrongType(doc, "agent.lock must be a YAML mapping with the keys \"version\" and \"protect\", found "
                    + ShapeWording.kindOf(doc));
        }
        return c.flagged;
    }

    /** The type of a scalar: a quoted one is a string; a plain one is typed by the spec's table (§4.3). */
    static PlainScalar.Type typeOf(ScalarNode s) {
        return s.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN ? PlainScalar.of(s.getValue())
                : PlainScalar.Type.STRING;
    }

    /** A problem at {@code node}'s start (line 0, column 0 when there is no node). */
    static PolicyException.Problem problem(ErrorKind kind, Path file, Node node, String reason) {
        if (node == null) {
            return new PolicyException.Problem(kind, file, 0, 0, -1, reason, null);
        }
        Mark m = node.getStartMark();
        return new PolicyException.Problem(kind, file, m.getLine() + 1, m.getColumn() + 1, m.getIndex(), reason, null);
    }

    private void root(MappingNode root, Map<String, NodeTuple> entries) {
        for (Map.Entry<String, NodeTuple> e : entries.entrySet()) {
            Node value = e.getValue().getValueNode();
            switch (e.getKey()) {
                case VERSION -> version(value);
                case PROTECT -> protect(value);
                default -> {
                    String key = e.getKey();
                    String hint = ShapeWording.suggestion(key);
                    Node at = e.getValue().getKeyNode();
                    problems.add(Problems.SHAPE, rank(at, false), problem(ErrorKind.UNKNOWN_KEY, problems.file, at,
                            "unknown key \"" + key + "\"" + (hint != null ? " (did you mean \"" + hint + "\"?)" : "")
                                    + "; agent.lock v1 has only \"version\" and \"protect\""));
                }
            }
        }
        if (!entries.containsKey(VERSION)) {
            flagged.add(root);
            problems.add(Problems.SHAPE, NO_PLACE * 2 + 1, problem(ErrorKind.SCHEMA, problems.file, root,
                    "missing required key \"version\"; agent.lock must say \"version: 1\""));
        }
    }

    /** {@code version}: type integer (spec §5.1: only the canonical decimal spelling), const 1. */
    private void version(Node value) {
        Long n = integer(value);
        if (n == null) {
            wrongType(value, "\"version\" must be the number 1, found " + ShapeWording.kindOf(value)
                    + "; write \"version: 1\"");
        } else if (n != 1L) {
            wrongValue(value, ErrorKind.SCHEMA, "unsupported version " + ShapeWording.valueText(value)
                    + "; this is agent.lock version 1, so write \"version: 1\"", null);
        }
    }

    /** {@code protect}: an array of at most {@link #MAX_ITEMS} strings of 1 to {@link #MAX_LENGTH} code points. */
    private void protect(Node value) {
        if (!(value instanceof SequenceNode list)) {
            wrongType(value, "\"protect\" must be a list of patterns (lines starting with \"- \"), found "
                    + ShapeWording.kindOf(value));
            return;
        }
        List<Node> items = list.getValue();
        if (items.size() > MAX_ITEMS) {
            wrongValue(list, ErrorKind.SCHEMA, "\"protect\" lists more than " + MAX_ITEMS + " patterns", null);
        }
        for (int i = 0; i < items.size(); i++) {
            Node item = items.get(i);
            String where = "protect entry " + (i + 1);
            if (!(item instanceof ScalarNode s) || typeOf(s) != PlainScalar.Type.STRING) {
                boolean isNull = item instanceof ScalarNode sn && typeOf(sn) == PlainScalar.Type.NULL;
                wrongType(item, where + " must be a pattern (a string), found " + ShapeWording.kindOf(item)
                        + (isNull ? "; write a pattern after the \"- \" or remove the entry"
                        : item instanceof ScalarNode ? "; put it in quotes" : ""));
                continue;
            }
            String v = s.getValue();
            int length = v.codePointCount(0, v.length());
            if (length < MIN_LENGTH) {
                // the error the pattern language gives for a blank pattern, so the id is "pattern-empty"
                wrongValue(item, ErrorKind.PATTERN, "empty pattern; remove the entry or write a path", PatternError.EMPTY);
            } else if (length > MAX_LENGTH) {
                wrongValue(item, ErrorKind.SCHEMA, where + " is longer than " + MAX_LENGTH + " characters", null);
            }
        }
    }

    /** The value of a scalar the schema calls an integer: a plain int in canonical decimal within a long; else null. */
    private static Long integer(Node value) {
        if (value instanceof ScalarNode s && typeOf(s) == PlainScalar.Type.INT && PlainScalar.canonicalDecimal(s.getValue())) {
            try {
                return Long.parseLong(s.getValue());
            } catch (NumberFormatException e) {
                return null; // beyond a long: a number, but not one the schema's integer 1 could equal
            }
        }
        return null;
    }

    private void wrongType(Node at, String reason) {
        flagged.add(at);
        problems.add(Problems.SHAPE, rank(at, true), problem(ErrorKind.SCHEMA, problems.file, at, reason));
    }

    private void wrongValue(Node at, ErrorKind kind, String reason, PatternError pattern) {
        flagged.add(at);
        Mark m = at.getStartMark();
        problems.add(Problems.SHAPE, rank(at, false), new PolicyException.Problem(kind, problems.file, m.getLine() + 1,
                m.getColumn() + 1, m.getIndex(), reason, pattern));
    }

    /** Where an error sorts among the shape errors: by place, a wrong type before a wrong value at the same place. */
    private static long rank(Node at, boolean type) {
        return (long) at.getStartMark().getIndex() * 2 + (type ? 0 : 1);
    }

    /**
     * The entries of a mapping that the schema judges, in file order: the first of each key. Reports each key that is
     * not a scalar and each repeated key (spec §4.4) and leaves it out, so the rest is judged as if it were not there;
     * then looks for the same key errors in the values kept.
     */
    private Map<String, NodeTuple> entries(MappingNode m) {
        Map<String, NodeTuple> kept = new LinkedHashMap<>();
        Map<String, Node> seen = new HashMap<>();
        for (NodeTuple t : m.getValue()) {
            Node k = t.getKeyNode();
            if (!(k instanceof ScalarNode ks)) {
                problems.add(Problems.KEYS, ErrorKind.SCHEMA, k, "a key must be a plain word (\"version\" or \"protect\")");
                continue;
            }
            Node first = seen.putIfAbsent(ks.getValue(), k);
            if (first != null) {
                problems.add(Problems.KEYS, ErrorKind.DUPLICATE_KEY, k, "duplicate key \"" + ks.getValue()
                        + "\" (first given on line " + (first.getStartMark().getLine() + 1) + ")");
                continue;
            }
            kept.put(ks.getValue(), t);
            keys(t.getValueNode());
        }
        return kept;
    }

    /** Reports the key errors of every mapping in {@code node}. */
    private void keys(Node node) {
        if (node instanceof MappingNode m) {
            entries(m);
        } else if (node instanceof SequenceNode s) {
            for (Node item : s.getValue()) {
                keys(item);
            }
        }
    }
}
