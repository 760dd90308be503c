package dev.ralon.policy.load;

import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.util.Locale;

/** How {@link PolicyShapeCheck}'s messages name what was found and suggest what was meant. */
final class ShapeWording {
    private ShapeWording() {
    }

    /** What a node is, in words: "a mapping", "a list", "the text \"…\"", "the value …", "nothing (…)". */
    static String kindOf(Node node) {
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
        PlainScalar.Type type = PolicyShapeCheck.typeOf(s);
        if (type == PlainScalar.Type.NULL) {
            return s.getValue().isEmpty() ? "nothing (an empty value)"
                    : "\"" + s.getValue() + "\", which YAML reads as null (nothing)";
        }
        if (type == PlainScalar.Type.STRING) {
            return "the text \"" + abbreviate(s.getValue()) + "\"";
        }
        return "the value " + abbreviate(s.getValue());
    }

    /** A scalar's text (abbreviated), or what the node is. */
    static String valueText(Node node) {
        return node instanceof ScalarNode s ? abbreviate(s.getValue()) : kindOf(node);
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }

    /** The v1 key an unknown key probably meant ("protect" or "version"), or null. */
    static String suggestion(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        if (k.startsWith("prot") || k.contains("protect") || distance(k, "protect") <= 3) {
            return "protect";
        }
        if (k.startsWith("ver") || distance(k, "version") <= 3) {
            return "version";
        }
        return null;
    }

    /** Levenshtein distance. */
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
}
