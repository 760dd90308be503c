package dev.ralon.policy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A loaded, valid agent.lock: its location and compiled rules. Immutable and thread-safe.
 *
 * <p>Matching is lexical on paths relative to {@link #root()}; {@link #check(Path)} adds the file system's view (a
 * path that reaches a protected path through a symbolic link is protected).
 */
public final class Policy {
    private final Path file;
    private final Path root;
    private final int version;
    private final List<Rule> rules;
    private final List<Warning> warnings;

    /** Made by the loader ({@code dev.ralon.policy.load.PolicyBuilder}) alone; a caller loads a policy. */
    public Policy(Path file, Path root, int version, List<Rule> rules, List<Warning> warnings) {
        this.file = file;
        this.root = root;
        this.version = version;
        this.rules = List.copyOf(rules);
        this.warnings = List.copyOf(warnings);
    }

    /** The policy file, absolute and normalised. */
    public Path file() {
        return file;
    }

    /** The directory holding the policy file: patterns are anchored here. Absolute, normalised, real when it exists. */
    public Path root() {
        return root;
    }

    public int version() {
        return version;
    }

    /** Every rule: the implicit self-protection rule first, then the file's patterns in order. */
    public List<Rule> rules() {
        return rules;
    }

    /** The file's own patterns, without the implicit rule. */
    public List<Rule> declaredRules() {
        return rules.stream().filter(r -> !r.implicit()).toList();
    }

    /** Non-fatal remarks found while loading (repeated patterns), each placed where it was found. */
    public List<Warning> warnings() {
        return warnings;
    }

    /** The rules that protect {@code relPath} ('/'-separated, relative to the root, not empty). */
    public List<Rule> matchingRules(String relPath) {
        List<Rule> out = new ArrayList<>(1);
        for (Rule r : rules) {
            if (r.matches(relPath)) {
                out.add(r);
            }
        }
        return out;
    }

    public boolean isProtected(String relPath) {
        for (Rule r : rules) {
            if (r.matches(relPath)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a path on disk is protected (spec §8.5): a path is protected when any of its forms is — the lexical
     * form, the form the kernel resolves (links on the way followed, {@code ..} applied to the directory actually
     * reached) and, when that names a symbolic link, the link's target ({@link CheckedPath}). So a path that reaches a
     * protected file in any way is protected: with {@code deep -> sub/deeper}, {@code deep/../../key.pem} is
     * {@code key.pem}. A path outside the root is not protected by this policy, unless a link leads it back inside.
     * The path need not exist.
     *
     * @param path absolute, or relative to the working directory
     * @return the protecting rules, empty when not protected
     */
    public List<Rule> check(Path path) {
        Set<Rule> found = new LinkedHashSet<>();
        for (Path form : CheckedPath.forms(path)) {
            String rel = Paths2.relativeBeneath(root, form);
            if (rel != null) {
                found.addAll(matchingRules(rel));
            }
        }
        return List.copyOf(found);
    }

    /** The path relative to the root ('/'-separated), or null when not strictly beneath it. */
    public String relativize(Path absolute) {
        return Paths2.relativeBeneath(root, absolute.toAbsolutePath().normalize());
    }
}
