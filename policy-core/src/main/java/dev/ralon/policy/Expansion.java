package dev.ralon.policy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One policy, or every policy of a {@link dev.ralon.policy.walk.PolicySet}, expanded against the file system: every
 * existing path they protect, plus the literal paths they name that do not exist yet.
 *
 * @param policies  the policies expanded, farthest first (one for {@link dev.ralon.policy.walk.ProtectedPaths#expand})
 * @param root      the directory the entries' relative paths are relative to: the policy's root for one policy, the
 *                  deepest directory holding every policy's root for several (for policies in force at a directory,
 *                  the farthest one's root)
 * @param entries   sorted by relative path; a {@link Entry.Kind#DIRECTORY} entry stands for its whole subtree, so
 *                  nothing beneath it is listed
 * @param counts    for every rule, how many entries it matched (0 for a rule that matches nothing)
 * @param unmatched rules that match no existing path (the implicit rule never appears here)
 * @param warnings  each placed and of a {@link Warning.Kind}: patterns that match nothing, unreadable directories (whose contents could not be checked), links whose targets lie outside the
 *                  root, slash-less patterns that would only match deeper, a protected .git
 * @param incomplete the warnings (also in {@code warnings}) that mean the entries may miss a protected path: a
 *                  directory in the policy's reach that could not be listed, an entry whose type could not be read.
 *                  {@code ralon run} refuses to enforce such a set (never a partial policy, silently).
 * @param linksOnTheWay the symbolic links inside the root through which a protected path is reached
 *                  ({@code lib/door} when {@code lib/door/*.key} is protected and {@code lib/door -> ../real}): not
 *                  matches of the policy, but a run protects each as a link, since retargeting it would change what the
 *                  next run protects. Kind {@link Entry.Kind#SYMLINK}; {@code via} is the protected path reached
 *                  through it (relative, as the policy names it). Sorted; none is beneath a protected directory.
 */
public record Expansion(List<Policy> policies, Path root, List<Entry> entries, Map<Rule, Integer> counts, List<Rule> unmatched,
                        List<Warning> warnings, List<Warning> incomplete, List<Entry> linksOnTheWay) {

    public Expansion {
        linksOnTheWay = linksOnTheWay == null ? List.of() : List.copyOf(linksOnTheWay);
    }

    /** An expansion with no link on the way (the form before links on the way were recorded). */
    public Expansion(List<Policy> policies, Path root, List<Entry> entries, Map<Rule, Integer> counts,
                     List<Rule> unmatched, List<Warning> warnings, List<Warning> incomplete) {
        this(policies, root, entries, counts, unmatched, warnings, incomplete, List.of());
    }

    /**
     * How tools name a policy file in this expansion's wordings ({@link RuleText}): by its name alone when one policy
     * was expanded, else in full.
     */
    public RuleText.Naming naming() {
        return RuleText.Naming.of(policies.size() == 1);
    }

    /** Every warning's one-line {@link Warning#message message}, the file named as {@link #naming()} says. */
    public List<String> warningMessages() {
        return Warning.messages(warnings, naming());
    }

    /** The nearest policy expanded (the only one, for {@link dev.ralon.policy.walk.ProtectedPaths#expand}). */
    public Policy policy() {
        return policies.get(policies.size() - 1);
    }

    /**
     * One protected path.
     *
     * @param relPath '/'-separated, relative to the expansion's root
     * @param path    absolute
     * @param kind    what is there (a final symbolic link is not followed)
     * @param rules   the rules that protect it
     * @param via     for a path protected because a protected path reaches it through a symbolic link (a matched
     *                link, or a literal pattern naming a path beneath a linked directory): that protected path,
     *                relative; else null
     */
    public record Entry(String relPath, Path path, Kind kind, List<Rule> rules, String via) {
        /** What is at a protected path. */
        public enum Kind { FILE, DIRECTORY, SYMLINK, OTHER, MISSING }
    }
}
