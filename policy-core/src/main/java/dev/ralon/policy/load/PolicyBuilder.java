package dev.ralon.policy.load;

import dev.ralon.policy.ErrorKind;
import dev.ralon.policy.Policy;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.Rule;
import dev.ralon.policy.Warning;
import dev.ralon.policy.glob.Glob;
import dev.ralon.policy.glob.PatternException;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The building stage of {@link PolicyLoader}: compiles the patterns of the first {@code protect} list into
 * {@link Rule}s, the implicit self-protection rule first, collecting every pattern error at its line and column and
 * each repeated pattern as a {@link Warning}.
 */
final class PolicyBuilder {
    private PolicyBuilder() {
    }

    /**
     * Compiles the patterns of the first {@code protect} list, collecting every pattern error (items the schema already
     * found wrong are not judged again). Returns null when the document is not a mapping (the schema said so).
     */
    static Policy build(Node docNode, String text, Path displayFile, Path absFile, Path root,
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
                    if (!(item instanceof ScalarNode s) || flagged.contains(s) || PolicyShapeCheck.typeOf(s) != PlainScalar.Type.STRING) {
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
        return PatternException.printable(s, 80);
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
