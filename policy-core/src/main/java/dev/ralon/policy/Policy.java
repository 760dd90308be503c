package dev.ralon.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
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
    private final List<String> warnings;

    Policy(Path file, Path root, int version, List<Rule> rules, List<String> warnings) {
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

    /** Non-fatal remarks found while loading (repeated patterns), each "file:line:col: text". */
    public List<String> warnings() {
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
     * Whether a path on disk is protected: its lexical form, and, when it (or a leading part of it) exists, its form
     * with every symbolic link resolved. A path outside the root is not protected by this policy, unless a link
     * leads it back inside. The path need not exist.
     *
     * @param path absolute, or relative to the working directory
     * @return the protecting rules, empty when not protected
     */
    public List<Rule> check(Path path) {
        Path abs = path.toAbsolutePath().normalize();
        Set<Rule> found = new LinkedHashSet<>();
        String lexical = Paths2.relativeBeneath(root, abs);
        if (lexical != null) {
            found.addAll(matchingRules(lexical));
        }
        Path real = realForm(abs);
        if (real != null && !real.equals(abs)) {
            String rel = Paths2.relativeBeneath(root, real);
            if (rel != null) {
                found.addAll(matchingRules(rel));
            }
        }
        return List.copyOf(found);
    }

    /** The path with links resolved in its longest existing prefix; the rest appended. Null if nothing resolves. */
    static Path realForm(Path abs) {
        Path existing = abs;
        Path rest = null;
        while (existing != null) {
            try {
                if (Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
                    Path real = existing.toRealPath();
                    return rest == null ? real : real.resolve(rest).normalize();
                }
            } catch (IOException | SecurityException e) {
                // dangling link or unreadable: treat as not existing and go one level up
            }
            Path name = existing.getFileName();
            if (name == null) {
                return null;
            }
            rest = rest == null ? name : name.resolve(rest);
            existing = existing.getParent();
        }
        return null;
    }

    /** The path relative to the root ('/'-separated), or null when not strictly beneath it. */
    public String relativize(Path absolute) {
        return Paths2.relativeBeneath(root, absolute.toAbsolutePath().normalize());
    }
}
