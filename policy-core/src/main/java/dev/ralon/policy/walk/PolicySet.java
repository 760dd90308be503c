package dev.ralon.policy.walk;

import dev.ralon.policy.CheckedPath;
import dev.ralon.policy.Expansion;
import dev.ralon.policy.Paths2;
import dev.ralon.policy.Policy;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.Rule;
import dev.ralon.policy.RuleText;
import dev.ralon.policy.Warning;
import dev.ralon.policy.load.PolicyLoader;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every policy in force at one place, loaded: what {@code ralon run}, {@code check}, {@code status}, the hooks and the
 * Maven goals judge paths by (docs/spec.md §2). Policies only add: a path is protected when any policy of the set
 * protects it, so a nearer agent.lock never removes what a farther one protects. Immutable.
 *
 * <p>Contract: a set is either <em>discovered</em> ({@link #inForceAt}, {@link #inForceFor}: every agent.lock from a
 * directory up to the file system root; {@link #inTree}: those and every agent.lock below the tree's top; each loaded; any one that cannot be loaded makes the whole set fail with that
 * file's error, so a planted broken file can never disable the others) or <em>explicit</em> ({@link #explicit}: a file
 * the user named, e.g. with {@code --policy}, which then replaces discovery: only the user can pass it, an agent
 * cannot pass it to the user's later runs).
 */
public final class PolicySet {
    private final List<Policy> policies;
    private final boolean explicit;
    /** The index of {@link #nearest()} in {@link #policies}. */
    private final int nearest;

    private PolicySet(List<Policy> policies, boolean explicit) {
        this(policies, explicit, policies.size() - 1);
    }

    private PolicySet(List<Policy> policies, boolean explicit, int nearest) {
        this.policies = List.copyOf(policies);
        this.explicit = explicit;
        this.nearest = Math.max(0, nearest);
    }

    /**
     * The policies in force at directory {@code dir}: every {@value PolicyDiscovery#FILE_NAME} in it and above it
     * ({@link PolicyDiscovery#inForce}). Empty when there is none.
     *
     * @param dir absolute, or relative to the working directory; need not exist
     * @throws PolicyException the error of the first file (nearest first) that cannot be loaded, or a directory on the
     *                         way that cannot be examined
     */
    public static PolicySet inForceAt(Path dir) throws PolicyException {
        return load(PolicyDiscovery.inForce(dir));
    }

    /**
     * The policies in force for a tool working in {@code dir} ({@code ralon run}, {@code check}, {@code status}):
     * those {@link #inForceAt} it and every agent.lock below the tree's top ({@link PolicyDiscovery#inTree}). A path
     * in the tree is judged by the same policies as {@link #inForceFor} judges it by, plus policies whose roots do
     * not hold it, which protect nothing there: a command and a hook agree on every file of the tree.
     *
     * @param dir absolute, or relative to the working directory; need not exist
     * @throws PolicyException the error of the first file (nearest first) that cannot be loaded, or a directory of
     *                         the tree that cannot be examined
     */
    public static PolicySet inTree(Path dir) throws PolicyException {
        PolicyDiscovery.Tree tree = PolicyDiscovery.inTree(dir);
        PolicySet loaded = load(tree.files());
        int nearest = tree.nearest() == null ? 0 : tree.files().indexOf(tree.nearest());
        return new PolicySet(loaded.policies, false, nearest);
    }

    /**
     * The policies that judge a write to {@code path}: those in force at the directory of each of its checked forms
     * (spec §8.5: as written, as the kernel resolves it, and a final link's target — a write through a link lands
     * there). This is the
     * entry point for tools that judge one target at a time whatever their working directory (an agent's hook).
     *
     * @param path absolute, or relative to the working directory; need not exist
     */
    public static PolicySet inForceFor(Path path) throws PolicyException {
        Set<Path> files = new LinkedHashSet<>();
        for (Path form : CheckedPath.forms(path)) { // lexical, entry and target forms (spec §8.5)
            Path parent = form.getParent();
            if (parent != null) {
                files.addAll(PolicyDiscovery.inForce(parent));
            }
        }
        return load(new ArrayList<>(files));
    }

    /**
     * The policies of {@code files} (as found by {@link PolicyDiscovery}, farthest first), each loaded: for a tool that
     * chose which of the files in force it judges ({@link PolicyDiscovery#inRepository}). Empty when {@code files} is.
     *
     * @throws PolicyException the error of the first file (nearest first) that cannot be loaded
     */
    public static PolicySet discovered(List<Path> files) throws PolicyException {
        return load(files);
    }

    /**
     * {@link #discovered(List)} for files that include some below {@code dir} ({@link PolicyDiscovery#inRepositoryTree}):
     * the {@link #nearest()} policy is the deepest of {@code files} whose directory holds {@code dir} (its real path),
     * not the deepest file below it; the first when none does.
     */
    public static PolicySet discovered(List<Path> files, Path dir) throws PolicyException {
        PolicySet loaded = load(files);
        Path abs = dir.toAbsolutePath().normalize();
        Path real;
        try {
            real = abs.toRealPath();
        } catch (IOException | SecurityException e) {
            real = abs;
        }
        int nearest = 0;
        int depth = -1;
        for (int i = 0; i < files.size(); i++) {
            Path d = files.get(i).getParent();
            if ((real.startsWith(d) || abs.startsWith(d)) && d.getNameCount() >= depth) {
                nearest = i;
                depth = d.getNameCount();
            }
        }
        return new PolicySet(loaded.policies, false, nearest);
    }

    /** A set of exactly the policy the user named, replacing discovery. */
    public static PolicySet explicit(Policy policy) {
        return new PolicySet(List.of(policy), true);
    }

    /** Loads each file (farthest first in {@code files}); the nearest failing one is reported. */
    private static PolicySet load(List<Path> files) throws PolicyException {
        Policy[] loaded = new Policy[files.size()];
        for (int i = files.size() - 1; i >= 0; i--) {
            loaded[i] = PolicyLoader.load(files.get(i));
        }
        return new PolicySet(List.of(loaded), false);
    }

    /** Every policy of the set, farthest first. */
    public List<Policy> policies() {
        return policies;
    }

    /** The policy files, farthest first. */
    public List<Path> files() {
        return policies.stream().map(Policy::file).toList();
    }

    public boolean isEmpty() {
        return policies.isEmpty();
    }

    /** Whether the set is a file the user named ({@code --policy}) rather than discovered. */
    public boolean isExplicit() {
        return explicit;
    }

    /**
     * The nearest policy: the one in force at the directory nearest to it (the last of those from the directory up;
     * for {@link #inTree} with none in force at the directory itself, the shallowest of the tree), never merely the
     * deepest file below.
     */
    public Policy nearest() {
        if (policies.isEmpty()) {
            throw new IllegalStateException("no policy in force");
        }
        return policies.get(nearest);
    }

    /**
     * The deepest directory that holds every policy's root: for policies in force at a directory, the farthest
     * policy's root. Relative paths of {@link #expand} are relative to it.
     */
    public Path root() {
        Path common = null;
        for (Policy p : policies) {
            Path r = p.root();
            if (common == null) {
                common = r;
            } else {
                while (!r.startsWith(common)) {
                    common = common.getParent();
                }
            }
        }
        if (common == null) {
            throw new IllegalStateException("no policy in force");
        }
        return common;
    }

    /**
     * The rules of every policy that protect {@code path} ({@link Policy#check}: its lexical form and its form with
     * links resolved), farthest policy first; empty when none does.
     */
    public List<Rule> check(Path path) {
        if (policies.size() == 1) {
            return policies.get(0).check(path);
        }
        List<Rule> out = new ArrayList<>();
        for (Policy p : policies) {
            out.addAll(p.check(path));
        }
        return out;
    }

    /**
     * Whether a path is protected by its lexical form alone (no file system access): some policy's root holds it and
     * a rule of that policy matches its path relative to that root.
     *
     * @param absolute absolute and normalised
     */
    public boolean isProtectedLexically(Path absolute) {
        for (Policy p : policies) {
            String rel = Paths2.relativeBeneath(p.root(), absolute);
            if (rel != null && p.isProtected(rel)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Expands every policy ({@link ProtectedPaths#expand(Policy, boolean)}) and unites the results: a path protected
     * by several policies is one entry with every protecting rule (farthest policy's first); an entry beneath a
     * protected directory of another policy is covered by it and left out; counts, unmatched rules, warnings and
     * the reasons the set may be incomplete are those of each policy together (each warning once).
     */
    public Expansion expand(boolean adviseDeeper) throws IOException {
        return expand(adviseDeeper ? root -> IgnoredDirectories.NONE : null);
    }

    /**
     * {@link #expand(boolean)} with the "would match deeper" advice, not counted beneath the directories that
     * {@code ignoredByAdvice} gives for each policy's root (relative to that root): {@code GitIgnoredDirectories::of}
     * for what git ignores there. {@code null}: no advice. The entries, the incomplete-set reasons and every other
     * warning are the same whatever it says.
     */
    public Expansion expand(java.util.function.Function<Path, IgnoredDirectories> ignoredByAdvice) throws IOException {
        return expand(ignoredByAdvice, false);
    }

    /**
     * The protected set as a tool that lists or counts it sees it, never one that enforces it (the Maven plugin's
     * summary and "matches nothing" judgement): {@link #expand(java.util.function.Function)}, except that the walk
     * does not go beneath a directory {@code ignored} gives for a policy's root ({@code GitIgnoredDirectories::of}:
     * {@code target/}) unless a pattern spells that directory out ({@code target/**}); {@code **}{@code /*.pem} does
     * not count the copies in {@code target/}. {@code ralon run} never uses this: what is protected never depends on
     * git.
     */
    public Expansion listing(java.util.function.Function<Path, IgnoredDirectories> ignored) throws IOException {
        return expand(java.util.Objects.requireNonNull(ignored), true);
    }

    private Expansion expand(java.util.function.Function<Path, IgnoredDirectories> ignoredByAdvice, boolean listing)
            throws IOException {
        if (policies.size() == 1) {
            return ProtectedPaths.expand(policies.get(0), ignoredFor(ignoredByAdvice, policies.get(0)), listing);
        }
        Path root = root();
        TreeMap<String, Expansion.Entry> entries = new TreeMap<>();
        Map<Rule, Integer> counts = new LinkedHashMap<>();
        List<Rule> unmatched = new ArrayList<>();
        Set<Warning> warnings = new LinkedHashSet<>();
        Set<Warning> incomplete = new LinkedHashSet<>();
        List<Expansion.Entry> linksOnTheWay = new ArrayList<>();
        for (Policy p : policies) {
            Expansion e = ProtectedPaths.expand(p, ignoredFor(ignoredByAdvice, p), listing);
            counts.putAll(e.counts());
            unmatched.addAll(e.unmatched());
            warnings.addAll(e.warnings());
            incomplete.addAll(e.incomplete());
            String prefix = Paths2.relativeBeneath(root, p.root());
            for (Expansion.Entry link : e.linksOnTheWay()) {
                linksOnTheWay.add(new Expansion.Entry(link.relPath(), link.path(), link.kind(), link.rules(),
                        prefix == null ? link.via() : prefix + "/" + link.via()));
            }
            for (Expansion.Entry entry : e.entries()) {
                String rel = Paths2.relativeBeneath(root, entry.path());
                if (rel == null) {
                    rel = entry.path().toString(); // cannot happen for entries inside their own root; kept visible
                }
                String via = entry.via() == null || prefix == null ? entry.via() : prefix + "/" + entry.via();
                Expansion.Entry earlier = entries.get(rel);
                if (earlier == null) {
                    entries.put(rel, new Expansion.Entry(rel, entry.path(), entry.kind(), entry.rules(), via));
                } else {
                    List<Rule> rules = new ArrayList<>(earlier.rules());
                    rules.addAll(entry.rules());
                    Expansion.Entry.Kind kind = earlier.kind() == Expansion.Entry.Kind.MISSING ? entry.kind() : earlier.kind();
                    entries.put(rel, new Expansion.Entry(rel, earlier.path(), kind, List.copyOf(rules),
                            earlier.via() == null ? null : via));
                }
            }
        }
        dropCovered(entries);
        // links on the way of every policy, relative to the set's root; one that is itself an entry or lies in a
        // protected directory of another policy is protected already
        TreeMap<String, Expansion.Entry> links = new TreeMap<>();
        for (Expansion.Entry link : linksOnTheWay) {
            String rel = Paths2.relativeBeneath(root, link.path());
            if (rel != null && !entries.containsKey(rel) && !coveredByDirectory(entries, rel)) {
                links.putIfAbsent(rel, new Expansion.Entry(rel, link.path(), link.kind(), link.rules(), link.via()));
            }
        }
        // the expansion's last policy is the set's nearest (Expansion.policy()), whatever the tree holds below it
        List<Policy> ordered = new ArrayList<>(policies);
        ordered.add(ordered.remove(nearest));
        return new Expansion(List.copyOf(ordered), root, List.copyOf(entries.values()), Collections.unmodifiableMap(counts),
                List.copyOf(unmatched), List.copyOf(warnings), List.copyOf(incomplete), List.copyOf(links.values()));
    }

    private static IgnoredDirectories ignoredFor(java.util.function.Function<Path, IgnoredDirectories> ignoredByAdvice,
                                                 Policy p) {
        return ignoredByAdvice == null ? null : java.util.Objects.requireNonNull(ignoredByAdvice.apply(p.root()));
    }

    private static boolean coveredByDirectory(TreeMap<String, Expansion.Entry> entries, String rel) {
        for (int i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) {
            Expansion.Entry e = entries.get(rel.substring(0, i));
            if (e != null && e.kind() == Expansion.Entry.Kind.DIRECTORY) {
                return true;
            }
        }
        return false;
    }

    /** Removes every entry beneath a {@link Expansion.Entry.Kind#DIRECTORY} entry: the directory stands for it. */
    private static void dropCovered(TreeMap<String, Expansion.Entry> entries) {
        List<String> dirs = entries.values().stream()
                .filter(e -> e.kind() == Expansion.Entry.Kind.DIRECTORY).map(Expansion.Entry::relPath).toList();
        for (String d : dirs) {
            if (entries.containsKey(d)) {
                entries.subMap(d + "/", d + "0").clear(); // '0' follows '/' in code order
            }
        }
    }

    /**
     * Whether tools may name a rule's policy file by its name alone ({@code agent.lock:4}): when the set holds one
     * policy. With several, each rule's file is named in full ({@link RuleText.Naming}).
     */
    public boolean namesByFileName() {
        return policies.size() == 1;
    }

    /** How tools name a rule's policy file for this set ({@link RuleText}): see {@link #namesByFileName()}. */
    public RuleText.Naming naming() {
        return RuleText.Naming.of(namesByFileName());
    }

    @Override
    public String toString() {
        return (explicit ? "explicit " : "") + files();
    }
}
