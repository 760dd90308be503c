package dev.ralon.policy.load;

import dev.ralon.policy.ErrorKind;
import dev.ralon.policy.Policy;
import dev.ralon.policy.PolicyException;
import org.yaml.snakeyaml.nodes.Node;

import java.io.IOException;
import java.nio.file.Path;
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
 *
 * <p>Four stages, each in its own class, data flowing one way: reading ({@link PolicyReader}: bytes, then text),
 * composing ({@link PolicyComposer}: the YAML subset, nodes), checking ({@link PolicyShapeCheck}: keys and shape),
 * building ({@link PolicyBuilder}: rules, pattern errors, warnings).
 */
public final class PolicyLoader {
    /** Largest policy file accepted. */
    public static final int MAX_BYTES = 1 << 20;

    private PolicyLoader() {
    }

    /** Loads the policy file at {@code file}. */
    public static Policy load(Path file) throws PolicyException {
        Path abs = file.toAbsolutePath().normalize();
        byte[] bytes = PolicyReader.bytes(file, abs);
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
        String text = PolicyReader.decode(bytes, displayFile);
        Node doc = PolicyComposer.compose(text, displayFile);
        if (doc == null) {
            throw new PolicyException(new PolicyException.Problem(ErrorKind.SCHEMA, displayFile, 1, 1, 0,
                    "the policy is empty; it needs at least the line \"version: 1\"", null));
        }
        Problems problems = new Problems(displayFile);
        Set<Node> flagged = PolicyShapeCheck.check(doc, problems);
        Policy policy = PolicyBuilder.build(doc, text, displayFile, absoluteFile, root, problems, flagged);
        problems.throwIfAny();
        return policy;
    }
}
