/**
 * Loading: agent.lock from bytes to a {@link dev.ralon.policy.Policy}. {@link dev.ralon.policy.load.PolicyLoader}
 * runs four stages in order, each one class with one job ({@code load} for a file, {@code parse} for content from
 * elsewhere, such as a git revision): {@code PolicyReader} (a regular file of at most 1 MiB, never through a link; the
 * text checked in one pass, positions as {@code TextPosition}), {@code PolicyComposer} (the YAML subset, from
 * SnakeYAML's parser events), {@code PolicyShapeCheck} (keys, then the v1 JSON Schema's shape on the nodes, plain
 * scalars typed by {@code PlainScalar}, worded by {@code ShapeWording}) and {@code PolicyBuilder} (patterns compiled
 * to {@code Rule}s, the implicit self-protection rule first, repeats as {@code Warning}s). {@code Problems} gathers
 * every key, shape and pattern error so that they are thrown together, in the spec's order (section 10.2).
 *
 * <p>Uses the model ({@code dev.ralon.policy}) and the pattern language ({@code glob}); SnakeYAML is used here and
 * nowhere else in policy-core. Used by {@code walk} ({@code PolicySet} loads each file it finds), {@code git}
 * ({@code ChangedPaths} loads a policy as a revision has it) and, through {@code PolicyLoader} alone, by the cli, the
 * Maven plugin, the conformance kit and the benchmarks.
 *
 * <p>Where new things go: a check of a file's bytes or text in {@code PolicyReader}; of its YAML in
 * {@code PolicyComposer}; of its keys or shape in {@code PolicyShapeCheck} (with its wording in
 * {@code ShapeWording}); a new value read from a valid file in {@code PolicyBuilder}. Only {@code PolicyLoader} is
 * public: a stage stays package-private, and its errors are the model's {@code PolicyException}. Nothing here walks
 * a tree or runs git.
 *
 * <p>Internal ({@link dev.ralon.enforcer.spi.Internal}): no compatibility promise.
 */
@dev.ralon.enforcer.spi.Internal("Ralon's cli, Maven plugin, conformance kit and benchmarks load a file through"
        + " PolicyLoader")
package dev.ralon.policy.load;
