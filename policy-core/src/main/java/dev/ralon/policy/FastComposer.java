package dev.ralon.policy;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.MappingStartEvent;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.events.SequenceStartEvent;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Composes the usual agent.lock — one document of mappings, sequences and scalars whose implicit types can be told
 * without regular expressions — into the same SnakeYAML nodes as SnakeYAML's {@code Composer} with its default
 * {@code Resolver}, without loading that Resolver: its class initialiser compiles nine regular expressions, measured
 * at ~15 ms of every start (docs/performance.md).
 *
 * <p>Contract: {@link #compose} returns either a {@link Result} whose node tree equals (tags, values, styles, marks)
 * what {@code new Composer(parser, new Resolver(), options).getSingleNode()} returns for the same text, or null,
 * meaning "cannot vouch": anything outside the easy case (an alias, an anchor, a tag, a second document, nesting
 * beyond the limit, a plain scalar whose type needs the Resolver's expressions, any parse error) ends the attempt, and
 * the caller composes the text with SnakeYAML's own Composer, which produces the result or the error message. So no
 * error message comes from here. {@code FastComposerTest} compares both on every policy vector and on generated
 * documents, and {@link #implicitTag} with the Resolver on generated scalars.
 */
final class FastComposer {
    /** The composed document: {@code node} is null for a stream with no document (as Composer.getSingleNode). */
    record Result(Node node) {
    }

    /** Words the Resolver's BOOL and NULL expressions match, for the first characters those expressions start with. */
    private static final Set<String> BOOL_WORDS = Set.of("yes", "Yes", "YES", "no", "No", "NO", "true", "True",
            "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF");
    private static final Set<String> NULL_WORDS = Set.of("null", "Null", "NULL");
    private static final Set<String> FLOAT_WORDS = Set.of(".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN");

    private final Parser parser;
    private final int nestingLimit;
    private int depth;

    private FastComposer(Parser parser, int nestingLimit) {
        this.parser = parser;
        this.nestingLimit = nestingLimit;
    }

    /** Thrown to end an attempt the fast path cannot vouch for. */
    private static final class CannotVouch extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final CannotVouch INSTANCE = new CannotVouch();

        private CannotVouch() {
            super(null, null, false, false);
        }
    }

    static Result compose(String text, LoaderOptions options, int nestingLimit) {
        try {
            FastComposer c = new FastComposer(new ParserImpl(new StreamReader(new StringReader(text)), options),
                    nestingLimit);
            return c.single();
        } catch (RuntimeException | StackOverflowError e) {
            return null; // a parse error, or CannotVouch: SnakeYAML's Composer decides and words any error
        }
    }

    private Result single() {
        expect(Event.ID.StreamStart);
        if (parser.checkEvent(Event.ID.StreamEnd)) {
            parser.getEvent();
            return new Result(null);
        }
        expect(Event.ID.DocumentStart);
        Node node = node();
        expect(Event.ID.DocumentEnd);
        expect(Event.ID.StreamEnd); // a second document: the Composer says what is wrong
        return new Result(node);
    }

    private void expect(Event.ID id) {
        if (!parser.checkEvent(id)) {
            throw CannotVouch.INSTANCE;
        }
        parser.getEvent();
    }

    private Node node() {
        Event e = parser.getEvent();
        if (e instanceof AliasEvent || (e instanceof NodeEvent ne && ne.getAnchor() != null)) {
            throw CannotVouch.INSTANCE;
        }
        if (e instanceof ScalarEvent s) {
            if (s.getTag() != null) {
                throw CannotVouch.INSTANCE;
            }
            // Composer: resolve(scalar, value, implicit.canOmitTagInPlainScalar()); not implicit means str
            Tag tag = s.getImplicit().canOmitTagInPlainScalar() ? implicitTag(s.getValue()) : Tag.STR;
            if (tag == null) {
                throw CannotVouch.INSTANCE;
            }
            return new ScalarNode(tag, true, s.getValue(), s.getStartMark(), s.getEndMark(), s.getScalarStyle());
        }
        if (!(e instanceof CollectionStartEvent c) || c.getTag() != null || ++depth > nestingLimit) {
            throw CannotVouch.INSTANCE;
        }
        Node result;
        if (c instanceof SequenceStartEvent) {
            List<Node> items = new ArrayList<>();
            SequenceNode seq = new SequenceNode(Tag.SEQ, true, items, c.getStartMark(), null, c.getFlowStyle());
            while (!parser.checkEvent(Event.ID.SequenceEnd)) {
                items.add(node());
            }
            seq.setEndMark(parser.getEvent().getEndMark());
            result = seq;
        } else if (c instanceof MappingStartEvent) {
            List<NodeTuple> tuples = new ArrayList<>();
            MappingNode map = new MappingNode(Tag.MAP, true, tuples, c.getStartMark(), null, c.getFlowStyle());
            while (!parser.checkEvent(Event.ID.MappingEnd)) {
                Node key = node();
                if (Tag.MERGE.equals(key.getTag())) {
                    throw CannotVouch.INSTANCE; // (never reached: "<<" needs the Resolver) merge keys: Composer
                }
                tuples.add(new NodeTuple(key, node()));
            }
            map.setEndMark(parser.getEvent().getEndMark());
            result = map;
        } else {
            throw CannotVouch.INSTANCE;
        }
        depth--;
        return result;
    }

    /**
     * The tag SnakeYAML's default Resolver gives a plain scalar, where it can be told without its regular expressions;
     * null where it cannot. The Resolver tries the expressions registered for the value's first character, in order
     * (BOOL for yYnNtTfFoO; INT then FLOAT for -+ and digits, FLOAT for '.'; then TIMESTAMP for digits; MERGE for
     * '<'; NULL for ~nN; VALUE for '='; YAML for !&amp;*), each only on a value no longer than its limit, then the
     * expression for the empty value; when none matches the value is a string.
     */
    static Tag implicitTag(String v) {
        if (v.isEmpty()) {
            return null;
        }
        char c = v.charAt(0);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
            if ("yYnNtTfFoO".indexOf(c) < 0) {
                return Tag.STR; // no expression starts with this letter
            }
            if (BOOL_WORDS.contains(v)) {
                return Tag.BOOL;
            }
            if (NULL_WORDS.contains(v)) {
                return Tag.NULL;
            }
            return Tag.STR;
        }
        // SnakeYAML 2.x tries an expression only on values up to a length (1024 for INT and FLOAT, 50 for TIMESTAMP):
        // a longer all-digit value is a string to it. Below 50 INT decides first; longer ones go to the Resolver.
        if ((c >= '1' && c <= '9' || c == '0' && v.length() == 1) && v.length() <= 50) {
            for (int i = 1; i < v.length(); i++) {
                char d = v.charAt(i);
                if (d < '0' || d > '9') {
                    return null; // 1_000, 1.5, 1:20, 2001-12-14...: the expressions decide
                }
            }
            return Tag.INT;
        }
        if (c == '.' && v.length() > 1 && !FLOAT_WORDS.contains(v)) {
            char d = v.charAt(1);
            if ((d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z') || d == '/') {
                return Tag.STR; // after a leading '.', FLOAT needs a digit, '_' or inf/nan (.env, .github/...)
            }
        }
        if (c == '_' || c == '/') {
            return Tag.STR;
        }
        return null;
    }
}
