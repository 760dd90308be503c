package dev.ralon.policy.load;

import dev.ralon.policy.ErrorKind;
import dev.ralon.policy.PolicyException;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.MappingStartEvent;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.events.SequenceStartEvent;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The one YAML path of the loader: composes agent.lock text into SnakeYAML nodes from SnakeYAML's own parser, checking
 * the agent.lock YAML subset (spec §4.1) on each event as it is taken: one document, no anchors, aliases or explicit
 * tags, nesting at most {@code nestingLimit}. The first offending event in stream order is reported, at its line and
 * column, and nothing after it is parsed.
 *
 * <p>Contract: for a text within the subset, the node tree equals (tags, values, styles, marks) what SnakeYAML's
 * {@code new Composer(parser, new Resolver(), options).getSingleNode()} returns ({@code PolicyComposerTest} compares
 * both on every policy vector and on generated documents). A plain scalar is typed by {@link #implicitTag} where
 * that can be told without regular expressions, and by SnakeYAML's {@code Resolver} only where it cannot: the
 * Resolver's class initialiser compiles nine regular expressions, measured at ~15 ms of every start
 * (docs/performance.md), and the usual file never needs it. A malformed text gives the parser's own exception
 * ({@link org.yaml.snakeyaml.error.MarkedYAMLException}), which the loader words.
 */
final class PolicyComposer {
    /** Words the Resolver's BOOL and NULL expressions match, for the first characters those expressions start with. */
    private static final Set<String> BOOL_WORDS = Set.of("yes", "Yes", "YES", "no", "No", "NO", "true", "True",
            "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF");
    private static final Set<String> NULL_WORDS = Set.of("null", "Null", "NULL");
    private static final Set<String> FLOAT_WORDS = Set.of(".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN");

    /** Lists or mappings nested deeper than this are refused (spec §4.1). */
    static final int MAX_NESTING = 16;

    static LoaderOptions loaderOptions() {
        LoaderOptions opts = new LoaderOptions();
        opts.setAllowDuplicateKeys(false);
        opts.setMaxAliasesForCollections(0);
        opts.setAllowRecursiveKeys(false);
        opts.setNestingDepthLimit(MAX_NESTING);
        opts.setCodePointLimit(PolicyLoader.MAX_BYTES);
        opts.setProcessComments(false);
        return opts;
    }

    /**
     * The document's node (null for none), marks kept, for the loader: the subset checked on each event as it is
     * taken; a text that is not well-formed YAML is worded from the parser's own exception.
     */
    static Node compose(String text, Path file) throws PolicyException {
        try {
            return compose(text, loaderOptions(), MAX_NESTING, file);
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String problem = e.getProblem() != null ? e.getProblem() : "malformed YAML";
            if (e.getContext() != null && !problem.contains(e.getContext())) {
                problem = problem + " (" + e.getContext() + ")";
            }
            throw yamlError(file, m, "invalid YAML: " + oneLine(problem));
        } catch (YAMLException e) {
            throw new PolicyException(ErrorKind.YAML, file, 0, 0, "invalid YAML: " + oneLine(e.getMessage()));
        } catch (StackOverflowError e) {
            throw new PolicyException(ErrorKind.YAML, file, 0, 0, "invalid YAML: nested too deeply");
        }
    }

    /** {@code s} on one line: every line break and the white space around it become one space. */
    static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*\\R\\s*", " ").trim();
    }

    private final Parser parser;
    private final int nestingLimit;
    private final Path file;
    private Resolver resolver; // loaded only for a scalar implicitTag cannot type
    private int depth;

    private PolicyComposer(Parser parser, int nestingLimit, Path file) {
        this.parser = parser;
        this.nestingLimit = nestingLimit;
        this.file = file;
    }

    /**
     * The document's node, or null for a stream with no document (as {@code Composer.getSingleNode}).
     *
     * @param file the policy file, named in a subset error
     * @throws PolicyException ({@link ErrorKind#YAML}) at the first event outside the agent.lock subset
     * @throws org.yaml.snakeyaml.error.YAMLException when the text is not well-formed YAML (the parser's own)
     */
    static Node compose(String text, LoaderOptions options, int nestingLimit, Path file) throws PolicyException {
        return new PolicyComposer(new ParserImpl(new StreamReader(new StringReader(text)), options), nestingLimit, file)
                .single();
    }

    /** A YAML error at {@code m} (the whole file when null). */
    static PolicyException yamlError(Path file, Mark m, String reason) {
        return m == null ? new PolicyException(ErrorKind.YAML, file, 0, 0, reason)
                : new PolicyException(new PolicyException.Problem(ErrorKind.YAML, file, m.getLine() + 1,
                m.getColumn() + 1, m.getIndex(), reason, null));
    }

    private Node single() throws PolicyException {
        parser.getEvent(); // StreamStart
        if (parser.checkEvent(Event.ID.StreamEnd)) {
            parser.getEvent();
            return null;
        }
        parser.getEvent(); // DocumentStart (the parser gives nothing else here)
        Node node = node();
        parser.getEvent(); // DocumentEnd
        if (!parser.checkEvent(Event.ID.StreamEnd)) {
            throw violation(parser.peekEvent(), "more than one YAML document; agent.lock holds exactly one");
        }
        parser.getEvent();
        return node;
    }

    private PolicyException violation(Event e, String reason) {
        return yamlError(file, e.getStartMark(), reason);
    }

    /** Takes one event and checks it against the subset, in the order the spec's messages are pinned. */
    private Event take() throws PolicyException {
        Event e = parser.getEvent();
        // SnakeYAML's own nesting limit is enforced by its Composer with an exception that has no position; count
        // here so that the error names the line and column of the collection that is too deep
        if (e instanceof CollectionStartEvent && ++depth > nestingLimit) {
            throw violation(e, "lists or mappings nested more than " + nestingLimit
                    + " deep; agent.lock needs only a mapping holding a list of patterns");
        }
        if (e instanceof AliasEvent) {
            throw violation(e, "YAML aliases (*name) are not allowed in agent.lock");
        }
        if (e instanceof NodeEvent ne && ne.getAnchor() != null) {
            throw violation(e, "YAML anchors (&name) are not allowed in agent.lock");
        }
        if (e instanceof ScalarEvent se && se.getTag() != null) {
            throw violation(e, "YAML tags (" + se.getTag() + ") are not allowed in agent.lock");
        }
        if (e instanceof CollectionStartEvent ce && ce.getTag() != null && !ce.getImplicit()) {
            throw violation(e, "YAML tags (" + ce.getTag() + ") are not allowed in agent.lock");
        }
        return e;
    }

    private Node node() throws PolicyException {
        Event e = take();
        if (e instanceof ScalarEvent s) {
            // Composer: resolve(scalar, value, implicit.canOmitTagInPlainScalar()); not implicit means str
            Tag tag = s.getImplicit().canOmitTagInPlainScalar() ? implicitTag(s.getValue()) : Tag.STR;
            if (tag == null) {
                if (resolver == null) {
                    resolver = new Resolver();
                }
                tag = resolver.resolve(NodeId.scalar, s.getValue(), true);
            }
            return new ScalarNode(tag, true, s.getValue(), s.getStartMark(), s.getEndMark(), s.getScalarStyle());
        }
        Node result;
        if (e instanceof SequenceStartEvent c) {
            List<Node> items = new ArrayList<>();
            SequenceNode seq = new SequenceNode(Tag.SEQ, true, items, c.getStartMark(), null, c.getFlowStyle());
            while (!parser.checkEvent(Event.ID.SequenceEnd)) {
                items.add(node());
            }
            seq.setEndMark(parser.getEvent().getEndMark());
            result = seq;
        } else {
            MappingStartEvent c = (MappingStartEvent) e; // the parser gives nothing else where a node starts
            List<NodeTuple> tuples = new ArrayList<>();
            MappingNode map = new MappingNode(Tag.MAP, true, tuples, c.getStartMark(), null, c.getFlowStyle());
            while (!parser.checkEvent(Event.ID.MappingEnd)) {
                Node key = node();
                if (Tag.MERGE.equals(key.getTag())) {
                    map.setMerged(true); // as the Composer: "<<" is a merge key (the schema refuses it as a key)
                }
                tuples.add(new NodeTuple(key, node()));
            }
            map.setEndMark(parser.getEvent().getEndMark());
            result = map;
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
