package dev.ralon.policy;

import dev.ralon.policy.glob.Glob;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
        Walk w = new Walk(policy, adviseDeeper);
        w.walk(policy.root(), "");
        w.addMissingLiterals();
        w.addLinkTargets();
        List<Expansion.Entry> links = w.linksOnTheWay();
        Expansion e = w.result();
        adviseUnmatched(policy, e, w);
        adviseGit(e);
        return new Expansion(List.of(policy), policy.root(), e.entries(), java.util.Collections.unmodifiableMap(e.counts()),
                List.copyOf(e.unmatched()), List.copyOf(e.warnings()), List.copyOf(e.incomplete()), links);
    }

    /**
     * One warning per pattern that matches nothing. A slash-less pattern is anchored at the root (unlike
     * .gitignore); when one matches nothing there but would match deeper, the warning says so: it is the most common
     * surprise of the language. How many paths it would match deeper is counted during the one walk (see
     * {@link Walk.Probe}), not by walking again.
     */
    private static void adviseUnmatched(Policy policy, Expansion e, Walk walk) {
        for (Rule r : e.unmatched()) {
            String n = r.glob().normalized();
            int deeper = walk.deeperMatches(r);
            if (deeper > 0) {
                e.warnings().add(Warning.about(Warning.Kind.MATCHES_DEEPER, r, "matches nothing at the top level but would match " + deeper + " path"
                        + (deeper == 1 ? "" : "s") + " deeper; patterns are anchored at the policy's directory, so write \"**/"
                        + n + "\" to protect them anywhere"));
            } else if (r.glob().isLiteral() && existsLiterally(policy, r)) {
                continue; // it exists beyond a symbolic link leading outside the root: warned about already
            } else if (r.glob().isLiteral()) {
                e.warnings().add(Warning.about(Warning.Kind.NAMES_NOTHING_YET, r, "names nothing that exists yet"));
            } else {
                e.warnings().add(Warning.about(Warning.Kind.MATCHES_NOTHING, r, "matches nothing that exists"));
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

    private static final class Walk {
        final Policy policy;
        final List<Rule> rules;
        final TreeMap<String, Expansion.Entry> entries = new TreeMap<>();
        final List<Warning> warnings = new ArrayList<>();
        /** The warnings that mean a protected path may be missing (Expansion.incomplete). */
        final List<Warning> incomplete = new ArrayList<>();
        /** Links (with a trailing '/') already reported as leading outside the root. */
        final java.util.Set<String> linksLeadingOut = new java.util.HashSet<>();
        /** The "would match deeper" probes: one per slash-less declared rule that matches nothing at the top. */
        final List<Probe> probes = new ArrayList<>();

        /**
         * The floating form {@code **}{@code /P} of a slash-less pattern P that matches no entry of the root, counted
         * during the main walk: the distinct real paths it matches, not descending beneath a directory it matches
         * (as a walk of that pattern alone would count). It never makes an entry or a warning; it only makes the walk
         * go where the policy's own rules would not, which a separate walk for the advice would do anyway.
         */
        static final class Probe {
            final Rule rule;
            final Glob floating;
            final java.util.Set<String> hits = new java.util.HashSet<>();

            Probe(Rule rule, Glob floating) {
                this.rule = rule;
                this.floating = floating;
            }
        }

        /** Whether slash-less patterns that match nothing at the top get probes (see {@link #expand(Policy, boolean)}). */
        final boolean adviseDeeper;

        Walk(Policy policy, boolean adviseDeeper) {
            this.policy = policy;
            this.rules = policy.rules();
            this.adviseDeeper = adviseDeeper;
        }

        void walk(Path dir, String rel) {
            if (adviseDeeper) {
                addProbes(dir);
            }
            boolean[] counting = new boolean[probes.size()];
            java.util.Arrays.fill(counting, true);
            walk(dir, rel, null, new java.util.HashSet<>(), true, counting);
        }

        /** A slash-less pattern can only match an entry of the root: list its names once to see which match none. */
        private void addProbes(Path root) {
            List<Rule> slashLess = new ArrayList<>();
            for (Rule r : policy.declaredRules()) {
                if (r.glob().normalized().indexOf('/') < 0) {
                    slashLess.add(r);
                }
            }
            if (slashLess.isEmpty()) {
                return;
            }
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(root)) {
                for (Path c : ds) {
                    String name = c.getFileName().toString();
                    slashLess.removeIf(r -> r.glob().matchesExactly(name));
                }
            } catch (IOException | SecurityException | java.nio.file.DirectoryIteratorException e) {
                return; // the main walk reports it
            }
            for (Rule r : slashLess) {
                try {
                    probes.add(new Probe(r, Glob.compile("**/" + r.glob().normalized())));
                } catch (dev.ralon.policy.glob.PatternException e) {
                    // no floating form: no advice for it
                }
            }
        }

        int deeperMatches(Rule r) {
            for (Probe p : probes) {
                if (p.rule == r) {
                    return p.hits.size();
                }
            }
            return 0;
        }

        private static boolean any(boolean[] flags) {
            for (boolean f : flags) {
                if (f) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Walks {@code dir}, whose lexical path relative to the root is {@code rel}. {@code via} is non-null beneath a
         * symbolic link to a directory: then {@code dir} is the link's real target and what matches is recorded at its
         * real path, with the lexical path as {@code via} (Policy.check calls the lexical path protected, so the run
         * must protect what it reaches). {@code chain} holds the real directories entered through links on the way
         * down, so a link cycle is entered once. {@code main} is false where only probes are still counting (beneath
         * a protected directory, or where no rule can match): nothing is recorded there. {@code counting[i]} says
         * whether probe i still counts here.
         */
        private void walk(Path dir, String rel, String via, java.util.Set<Path> chain, boolean main,
                          boolean[] counting) {
            List<Rule> live = new ArrayList<>();
            if (main) {
                for (Rule r : rules) {
                    if (r.glob().couldMatchBeneath(rel)) {
                        live.add(r);
                    }
                }
                main = !live.isEmpty();
            }
            if (!main && !any(counting)) {
                return;
            }
            List<Child> children = new ArrayList<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
                for (Path c : ds) {
                    children.add(new Child(c.getFileName().toString(), c));
                }
            } catch (NoSuchFileException e) {
                return; // removed while walking
            } catch (IOException | SecurityException | java.nio.file.DirectoryIteratorException e) {
                // (DirectoryIteratorException: reading the listing failed part-way, e.g. EIO; its cause says why)
                Throwable why = e instanceof java.nio.file.DirectoryIteratorException d ? d.getCause() : e;
                if (main) {
                    incomplete(Warning.Kind.CANNOT_LIST, "cannot list " + dir + " (" + why.getClass().getSimpleName().replace("Exception", "")
                            + "): protected paths inside it, if any, are not known");
                }
                return;
            }
            children.sort(null); // by name (each name decoded once: getFileName() in a comparator dominated the walk)
            for (Child c : children) {
                Path child = c.path;
                String name = c.name;
                if (main && FileNames.undecodable(dir, child, name)) {
                    // its decoded name does not lead back to it: matching that name would say nothing true
                    incomplete(Warning.Kind.UNREADABLE_NAME, "cannot read the name of " + FileNames.escaped(child) + " as UTF-8 (file names are "
                            + "read as " + FileNames.encoding() + "): whether it is or holds a protected path is not "
                            + "known; rename it to valid UTF-8");
                    continue;
                }
                String childRel = rel.isEmpty() ? name : rel + "/" + name;
                List<Rule> matched = new ArrayList<>(1);
                for (Rule r : live) {
                    // held (X/** holds X): the directory as a whole, so entries created in it later are protected
                    if (r.glob().matchesExactly(childRel) || r.glob().holds(childRel)) {
                        matched.add(r);
                    }
                }
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (NoSuchFileException e) {
                    continue; // removed since listed
                } catch (IOException | SecurityException e) {
                    // e.g. a directory that can be listed but not searched (mode r--): its names are known, not what
                    // they are. Skipping them would leave a matching file unprotected without a word.
                    if (main && (!matched.isEmpty() || couldMatchBeneath(live, childRel))) {
                        incomplete(Warning.Kind.CANNOT_EXAMINE, "cannot examine " + child + " (" + e.getClass().getSimpleName()
                                .replace("Exception", "") + "): whether it is or holds a protected path is not known");
                    }
                    continue;
                }
                String realRel = null;
                boolean[] childCounting = counting;
                for (int i = 0; i < counting.length; i++) {
                    if (counting[i] && probes.get(i).floating.matchesExactly(childRel)) {
                        if (realRel == null) {
                            realRel = via == null ? childRel : Paths2.relativeBeneath(policy.root(), child);
                        }
                        if (realRel != null) {
                            probes.get(i).hits.add(realRel);
                        }
                        if (childCounting == counting) {
                            childCounting = counting.clone();
                        }
                        childCounting[i] = false;
                    }
                }
                boolean childMain = main;
                if (!matched.isEmpty()) {
                    childMain = false;
                    if (via == null) {
                        entries.put(childRel, new Expansion.Entry(childRel, child, kindOf(a), matched, null));
                    } else {
                        if (realRel == null) {
                            realRel = Paths2.relativeBeneath(policy.root(), child);
                        }
                        if (realRel != null && !covered(realRel)) {
                            entries.put(realRel, new Expansion.Entry(realRel, child, kindOf(a), matched, childRel));
                        }
                    }
                }
                if (!childMain && !any(childCounting)) {
                    continue;
                }
                if (a.isDirectory()) {
                    walk(child, childRel, via == null ? null : childRel, chain, childMain, childCounting);
                } else if (a.isSymbolicLink()) {
                    followLink(child, childRel, childMain ? live : List.of(), chain, childCounting);
                }
            }
        }

        /**
         * A symbolic link that no rule matches, but beneath which a rule could match ({@code door -> real} with
         * {@code door/*.key}): the paths it reaches are protected at their real location when that lies inside the
         * root; a link leading outside is reported, since what it reaches is not protected.
         */
        private void followLink(Path link, String linkRel, List<Rule> live, java.util.Set<Path> chain,
                                boolean[] counting) {
            boolean reachable = couldMatchBeneath(live, linkRel);
            if (!reachable && !any(counting)) {
                return;
            }
            Path target;
            try {
                target = link.toRealPath();
            } catch (IOException e) {
                return; // dangling: nothing beneath it to protect
            }
            if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            if (!target.equals(policy.root()) && Paths2.relativeBeneath(policy.root(), target) == null) {
                if (reachable) {
                    warnings.add(Warning.of(Warning.Kind.LINK, "patterns reach beneath " + linkRel + ", a symbolic link"
                            + " to " + target + " outside the project: paths reached through it are not protected"));
                    linksLeadingOut.add(linkRel + "/");
                }
                return;
            }
            if (!chain.add(target)) {
                return; // a cycle: this real directory is already being walked through a link
            }
            try {
                walk(target, linkRel, linkRel, chain, reachable, counting);
            } finally {
                chain.remove(target);
            }
        }

        private record Child(String name, Path path) implements Comparable<Child> {
            @Override
            public int compareTo(Child o) {
                return name.compareTo(o.name);
            }
        }

        private void incomplete(Warning.Kind kind, String text) {
            incomplete(Warning.of(kind, text));
        }

        private void incomplete(Warning warning) {
            warnings.add(warning);
            incomplete.add(warning);
        }

        private static boolean couldMatchBeneath(List<Rule> live, String rel) {
            for (Rule r : live) {
                if (r.glob().couldMatchBeneath(rel)) {
                    return true;
                }
            }
            return false;
        }

        void addMissingLiterals() {
            for (Rule r : rules) {
                Glob g = r.glob();
                if (!g.isLiteral() && g.literalHolder() == null) {
                    continue;
                }
                // a literal, or the literal path L that "L/**" holds: both name one path the policy protects
                String rel = g.isLiteral() ? g.literalPath() : g.literalHolder();
                if (covered(rel)) {
                    continue;
                }
                Path p;
                try {
                    p = policy.root().resolve(rel);
                } catch (java.nio.file.InvalidPathException e) {
                    incomplete(Warning.about(Warning.Kind.UNREPRESENTABLE_PATTERN, r, "names a path this JVM cannot "
                            + "represent (file names are read as " + FileNames.encoding() + ", not UTF-8)"));
                    continue;
                }
                if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                    // exists but not reached: beneath a symbolic link to a directory. Policy.check calls it
                    // protected, so protect what it reaches, as for a matched link.
                    reachedThroughLink(rel, p, r);
                    continue;
                }
                LinkResolution how = LinkResolution.resolve(policy.root(), rel);
                if (how.links().isEmpty() || how.reached() == null) {
                    entries.put(rel, new Expansion.Entry(rel, p, Expansion.Entry.Kind.MISSING, List.of(r), null));
                    continue;
                }
                // its parent is reached through a symbolic link: creating it would create the link's target, so that
                // is the path to keep from being created (and the links on the way are protected, see linksOnTheWay)
                String realRel = Paths2.relativeBeneath(policy.root(), how.reached());
                if (realRel == null) {
                    warnings.add(Warning.of(Warning.Kind.LINK, "protected path " + rel + " leads through a symbolic "
                            + "link outside the project, to " + how.reached() + ": it is not protected"));
                } else if (!covered(realRel)) {
                    entries.put(realRel, new Expansion.Entry(realRel, how.reached(), Expansion.Entry.Kind.MISSING,
                            List.of(r), rel));
                }
            }
        }

        /**
         * The symbolic links inside the root met on the way to every path protected through a link (an entry with a
         * {@code via}): resolving {@code via} from the root meets them, in order (see {@link LinkResolution}). A link
         * that is itself an entry, or lies in a protected directory, is protected already; a link outside the root on
         * the way is reported, since nothing protects it.
         */
        List<Expansion.Entry> linksOnTheWay() {
            TreeMap<String, Expansion.Entry> out = new TreeMap<>();
            java.util.Set<Path> outside = new java.util.LinkedHashSet<>();
            for (Expansion.Entry e : entries.values()) {
                if (e.via() == null) {
                    continue;
                }
                for (Path link : LinkResolution.resolve(policy.root(), e.via()).links()) {
                    String rel = Paths2.relativeBeneath(policy.root(), link);
                    if (rel == null) {
                        if (outside.add(link)) {
                            warnings.add(Warning.of(Warning.Kind.LINK, "protected path " + e.via() + " is reached through"
                                    + " the symbolic link " + link + " outside the project: that link is not protected"
                                    + " and could be retargeted"));
                        }
                    } else if (!covered(rel) && !out.containsKey(rel)) {
                        out.put(rel, new Expansion.Entry(rel, link, Expansion.Entry.Kind.SYMLINK, e.rules(), e.via()));
                    }
                }
            }
            return List.copyOf(out.values());
        }

        void reachedThroughLink(String rel, Path p, Rule r) {
            Path target;
            try {
                target = p.toRealPath();
            } catch (IOException e) {
                return;
            }
            String targetRel = Paths2.relativeBeneath(policy.root(), target);
            if (targetRel == null) {
                if (linksLeadingOut.stream().anyMatch(rel::startsWith)) {
                    return; // the walk already said so for the link on the way
                }
                warnings.add(Warning.of(Warning.Kind.LINK, "protected path " + rel + " leads through a symbolic link"
                        + " outside the project, to " + target + ": it is not protected"));
                return;
            }
            addTarget(targetRel, target, List.of(r), rel);
        }

        /**
         * Records {@code target} (a path inside the root reached through a symbolic link from {@code via}) as
         * protected, unless an entry already covers it or it vanished meanwhile.
         */
        private void addTarget(String targetRel, Path target, List<Rule> rules, String via) {
            if (covered(targetRel)) {
                return;
            }
            try {
                BasicFileAttributes a = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                entries.put(targetRel, new Expansion.Entry(targetRel, target, kindOf(a), rules, via));
            } catch (IOException e) {
                // vanished
            }
        }

        void addLinkTargets() {
            List<Expansion.Entry> links = entries.values().stream()
                    .filter(e -> e.kind() == Expansion.Entry.Kind.SYMLINK).toList();
            for (Expansion.Entry link : links) {
                Path target;
                try {
                    target = link.path().toRealPath();
                } catch (IOException e) {
                    warnings.add(Warning.of(Warning.Kind.LINK, "protected link " + link.relPath()
                            + " points to nothing that exists"));
                    continue;
                }
                String rel = Paths2.relativeBeneath(policy.root(), target);
                if (rel == null) {
                    if (!target.equals(policy.root())) {
                        warnings.add(Warning.of(Warning.Kind.LINK, "protected link " + link.relPath() + " points outside"
                                + " the project, to " + target + ": the link is protected, its target is not"));
                    }
                    continue;
                }
                // the target is protected as the link was matched: through its own path, or the path it was reached
                // as through a linked directory (its real path may match no pattern)
                addTarget(rel, target, link.rules(), link.via() != null ? link.via() : link.relPath());
            }
            // a directory target makes entries beneath it redundant
            List<String> dirs = entries.values().stream()
                    .filter(e -> e.kind() == Expansion.Entry.Kind.DIRECTORY).map(Expansion.Entry::relPath).toList();
            for (String d : dirs) {
                entries.subMap(d + "/", d + "0").clear(); // '0' follows '/' in code order
            }
        }

        /** Whether an existing entry already covers rel (rel itself or a directory above it). */
        boolean covered(String rel) {
            if (entries.containsKey(rel)) {
                return true;
            }
            for (int i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) {
                Expansion.Entry e = entries.get(rel.substring(0, i));
                if (e != null && e.kind() == Expansion.Entry.Kind.DIRECTORY) {
                    return true;
                }
            }
            return false;
        }

        Expansion result() {
            Map<Rule, Integer> counts = new LinkedHashMap<>();
            for (Rule r : rules) {
                counts.put(r, 0);
            }
            java.util.Set<String> linkNames = new java.util.HashSet<>(); // each protected link as it was matched
            for (Expansion.Entry e : entries.values()) {
                if (e.kind() == Expansion.Entry.Kind.SYMLINK) {
                    linkNames.add(e.via() != null ? e.via() : e.relPath());
                }
            }
            for (Expansion.Entry e : entries.values()) {
                // a link's target is not a match of its own (the link is counted); a path a literal reaches
                // through a linked directory is that literal's match (its "via" is no entry)
                if (e.kind() == Expansion.Entry.Kind.MISSING || (e.via() != null && linkNames.contains(e.via()))) {
                    continue;
                }
                for (Rule r : e.rules()) {
                    counts.merge(r, 1, Integer::sum);
                }
            }
            List<Rule> unmatched = new ArrayList<>();
            for (Rule r : policy.declaredRules()) {
                if (counts.get(r) == 0) {
                    unmatched.add(r);
                }
            }
            return new Expansion(List.of(policy), policy.root(), List.copyOf(entries.values()), counts, unmatched,
                    new ArrayList<>(warnings),
                    List.copyOf(incomplete));
        }
    }

    static Expansion.Entry.Kind kindOf(BasicFileAttributes a) {
        if (a.isSymbolicLink()) {
            return Expansion.Entry.Kind.SYMLINK;
        }
        if (a.isDirectory()) {
            return Expansion.Entry.Kind.DIRECTORY;
        }
        if (a.isRegularFile()) {
            return Expansion.Entry.Kind.FILE;
        }
        return Expansion.Entry.Kind.OTHER;
    }
}
