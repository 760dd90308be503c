package dev.ralon.policy.walk;

import dev.ralon.policy.Expansion;
import dev.ralon.policy.Policy;
import dev.ralon.policy.Rule;
import dev.ralon.policy.Warning;
import dev.ralon.policy.glob.Glob;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.util.List;

/**
 * Expands a policy against the file system.
 *
 * <p>The walk starts at the policy's root, never follows a symbolic link to a directory, and descends only into
 * directories beneath which some rule could still match ({@link Glob#couldMatchBeneath}). A directory a rule matches
 * is one entry standing for its whole subtree: it is not entered. A matched symbolic link is protected as a link; when
 * its target lies inside the root, the target is protected too (so that writing through the link is refused), and
 * when it lies outside, a warning says the target is not protected. A literal pattern naming nothing that exists yields
 * a {@link Expansion.Entry.Kind#MISSING} entry, so backends can refuse its creation (at its real place when its
 * parent is reached through a symbolic link). Every symbolic link inside the root through which a protected path is
 * reached is listed in {@link Expansion#linksOnTheWay()}, so that a run can keep it from being retargeted.
 *
 * <p>One walk ({@link TreeWalker}) serves two visitors: {@link ProtectionVisitor} builds the protected set, and
 * {@link AdviceVisitor} (only for the commands that explain a policy) counts what unmatched slash-less patterns would
 * match deeper. This class turns their results into the {@link Expansion} and its warnings.
 */
public final class ProtectedPaths {
    private ProtectedPaths() {
    }

    /** {@code expand(policy, true)}: with the "would match deeper" advice, for the commands that explain a policy. */
    public static Expansion expand(Policy policy) throws IOException {
        return expand(policy, true);
    }

    /**
     * Expands {@code policy}. With {@code adviseDeeper}, a slash-less pattern that matches nothing at the top gets a
     * warning that counts what it would match deeper, which needs the whole tree walked (the one walk goes
     * everywhere); without it (what {@code ralon run} uses: its start-up must not pay for advice) the walk stays
     * where the rules can match, and such a pattern gets the plain "matches nothing" warning. The entries are the same
     * either way.
     */
    public static Expansion expand(Policy policy, boolean adviseDeeper) throws IOException {
        return expand(policy, adviseDeeper ? IgnoredDirectories.NONE : null);
    }

    /**
     * {@link #expand(Policy, boolean)} with the advice counted outside the directories {@code ignored} names;
     * {@code ignored} null: no advice (the walk stays where the rules can match).
     */
    static Expansion expand(Policy policy, IgnoredDirectories ignored) throws IOException {
        return expand(policy, ignored, false);
    }

    /**
     * {@link #expand(Policy, IgnoredDirectories)}; with {@code listing}, for a tool that lists or counts the protected
     * set and never enforces it, the entries too leave out what {@code ignored} names, unless a rule names the
     * directory ({@link ListingScope}).
     */
    static Expansion expand(Policy policy, IgnoredDirectories ignored, boolean listing) throws IOException {
        ProtectionVisitor protection = new ProtectionVisitor(policy);
        AdviceVisitor advice = ignored == null ? null : new AdviceVisitor(policy, ignored);
        boolean scoped = listing && ignored != null && ignored != IgnoredDirectories.NONE;
        TreeWalker walker = new TreeWalker(policy.root()).with(scoped ? new ListingScope(protection, ignored) : protection);
        if (advice != null) {
            walker.with(advice);
        }
        walker.walk();
        protection.addMissingLiterals();
        protection.addLinkTargets();
        List<Expansion.Entry> links = protection.linksOnTheWay();
        Expansion e = protection.result();
        adviseUnmatched(policy, e, advice, scoped);
        adviseGit(e);
        return new Expansion(List.of(policy), policy.root(), e.entries(), java.util.Collections.unmodifiableMap(e.counts()),
                List.copyOf(e.unmatched()), List.copyOf(e.warnings()), List.copyOf(e.incomplete()), links);
    }

    /**
     * One warning per pattern that matches nothing. A slash-less pattern is anchored at the root (unlike
     * .gitignore); when one matches nothing there but would match deeper, the warning says so: it is the most common
     * surprise of the language. How many paths it would match deeper is counted during the one walk (see
     * {@link AdviceVisitor}; none without it), not by walking again. When the protected set was {@code scoped} to
     * what git does not ignore, "matches nothing" says so.
     */
    private static void adviseUnmatched(Policy policy, Expansion e, AdviceVisitor advice, boolean scoped) {
        for (Rule r : e.unmatched()) {
            String n = r.glob().normalized();
            int deeper = advice == null ? 0 : advice.deeperMatches(r);
            if (deeper > 0) {
                e.warnings().add(Warning.about(Warning.Kind.MATCHES_DEEPER, r, "matches nothing at the top level but would match " + deeper + " path"
                        + (deeper == 1 ? "" : "s") + " deeper; patterns are anchored at the policy's directory, so write \"**/"
                        + n + "\" to protect them anywhere"));
            } else if (r.glob().isLiteral() && existsLiterally(policy, r)) {
                continue; // it exists beyond a symbolic link leading outside the root: warned about already
            } else if (r.glob().isLiteral()) {
                e.warnings().add(Warning.about(Warning.Kind.NAMES_NOTHING_YET, r, "names nothing that exists yet"));
            } else {
                // the walk does not enter a directory protected as a whole: a match there is not seen, only covered
                List<String> holding = new java.util.ArrayList<>();
                for (Expansion.Entry x : e.entries()) {
                    if (x.kind() == Expansion.Entry.Kind.DIRECTORY && r.glob().couldMatchBeneath(x.relPath())) {
                        holding.add(x.relPath() + "/");
                    }
                }
                String outside = holding.isEmpty() ? "" : " outside the protected directories ("
                        + String.join(", ", holding.subList(0, Math.min(3, holding.size())))
                        + (holding.size() > 3 ? " and " + (holding.size() - 3) + " more" : "")
                        + ": protected as a whole, their contents are not searched)";
                e.warnings().add(Warning.about(Warning.Kind.MATCHES_NOTHING, r, "matches nothing that exists" + outside + (scoped
                        ? " outside what git ignores (to look in an ignored directory, start the pattern with its path)"
                        : "")));
            }
        }
    }

    private static boolean existsLiterally(Policy policy, Rule r) {
        try {
            return Files.exists(policy.root().resolve(r.glob().literalPath()), LinkOption.NOFOLLOW_LINKS);
        } catch (java.nio.file.InvalidPathException e) {
            return false; // reported as incomplete by the walk
        }
    }

    /**
     * What git writes in ordinary work (commit, checkout, status, fetch), relative to the work tree: a protected
     * entry at or beneath one of these (or {@code .git} itself, or an ancestor) stops git under every backend.
     * {@code .git/hooks}, {@code .git/config}, {@code .git/info} are not among them: protecting those costs git
     * nothing under mount; under landlock the directories on the way ({@code .git}) become create-restricted, which
     * the CLI says for the backend in use.
     */
    private static final List<String> GIT_WRITES = List.of(".git/index", ".git/HEAD", ".git/objects", ".git/refs",
            ".git/logs", ".git/packed-refs", ".git/COMMIT_EDITMSG", ".git/ORIG_HEAD", ".git/FETCH_HEAD",
            ".git/MERGE_HEAD", ".git/modules", ".git/worktrees");

    private static void adviseGit(Expansion e) {
        for (Expansion.Entry entry : e.entries()) {
            String rel = entry.relPath();
            boolean stopsGit = rel.equals(".git");
            for (String w : GIT_WRITES) {
                stopsGit |= rel.equals(w) || rel.startsWith(w + "/");
            }
            if (stopsGit) {
                e.warnings().add(Warning.of(Warning.Kind.STOPS_GIT, "the policy protects " + rel + ": git cannot "
                        + "update its index, objects or refs there, so commit, checkout and even status may fail inside"
                        + " the sandbox"));
                return;
            }
        }
    }
}
