package dev.ralon.policy.walk;

import dev.ralon.policy.Expansion;
import dev.ralon.policy.FileNames;
import dev.ralon.policy.Paths2;
import dev.ralon.policy.Policy;
import dev.ralon.policy.Rule;
import dev.ralon.policy.Warning;
import dev.ralon.policy.glob.Glob;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The protection visitor of the walk ({@link TreeWalker}): records every existing path a policy's rules match, and
 * afterwards completes the set with what the walk cannot see (literal paths that do not exist yet, targets of matched
 * links, the links on the way to paths reached through links). Its state for a directory is the list of rules that
 * can still match beneath it ({@link Glob#couldMatchBeneath}); it is null beneath a matched directory (which stands
 * for its subtree) and where no rule can match, so the walk goes no further for protection. It reads an entry's type
 * only for an entry a rule matches or beneath which a rule can match. Every path it could not examine where a rule
 * could match is a reason the set may be incomplete ({@link Expansion#incomplete()}): never skipped without a word.
 */
final class ProtectionVisitor implements WalkVisitor<List<Rule>> {
    private final Policy policy;
    private final List<Rule> rules;
    private final TreeMap<String, Expansion.Entry> entries = new TreeMap<>();
    private final List<Warning> warnings = new ArrayList<>();
    /** The warnings that mean a protected path may be missing (Expansion.incomplete). */
    private final List<Warning> incomplete = new ArrayList<>();
    /** Links (with a trailing '/') already reported as leading outside the root. */
    private final Set<String> linksLeadingOut = new HashSet<>();

    ProtectionVisitor(Policy policy) {
        this.policy = policy;
        this.rules = policy.rules();
    }

    @Override
    public List<Rule> atRoot() {
        return live(rules, "");
    }

    @Override
    public List<Rule> visit(List<Rule> live, WalkEntry child) {
        if (FileNames.undecodable(child.dir(), child.path(), child.name())) {
            // its decoded name does not lead back to it: matching that name would say nothing true
            incomplete(Warning.Kind.UNREADABLE_NAME, "cannot read the name of " + FileNames.escaped(child.path()) + " as UTF-8 (file names are "
                    + "read as " + FileNames.encoding() + "): whether it is or holds a protected path is not "
                    + "known; rename it to valid UTF-8");
            child.skip();
            return null;
        }
        String rel = child.rel();
        List<Rule> matched = new ArrayList<>(1);
        for (Rule r : live) {
            // held (X/** holds X): the directory as a whole, so entries created in it later are protected
            if (r.glob().matchesExactly(rel) || r.glob().holds(rel)) {
                matched.add(r);
            }
        }
        // nothing lies beneath a file: no rule need be asked (when the listing said what it is)
        List<Rule> beneath = matched.isEmpty() && !child.knownLeaf() ? live(live, rel) : null;
        if (matched.isEmpty() && beneath == null) {
            return null; // nothing here or beneath: its type is not needed
        }
        DirectoryReader.Type type = child.type();
        if (type == null) {
            if (!child.vanished()) {
                Exception e = child.failure();
                incomplete(Warning.Kind.CANNOT_EXAMINE, "cannot examine " + child.path() + " (" + e.getClass().getSimpleName()
                        .replace("Exception", "") + "): whether it is or holds a protected path is not known");
            }
            child.skip();
            return null;
        }
        if (!matched.isEmpty()) {
            if (!child.throughLink()) {
                entries.put(rel, new Expansion.Entry(rel, child.path(), kindOf(type), matched, null));
            } else {
                String realRel = child.realRel();
                if (realRel != null && !covered(realRel)) {
                    entries.put(realRel, new Expansion.Entry(realRel, child.path(), kindOf(type), matched, rel));
                }
            }
        }
        return beneath;
    }

    @Override
    public void cannotList(List<Rule> live, Path dir, Throwable why) {
        incomplete(Warning.Kind.CANNOT_LIST, "cannot list " + dir + " (" + why.getClass().getSimpleName().replace("Exception", "")
                + "): protected paths inside it, if any, are not known");
    }

    @Override
    public void leadsOutside(List<Rule> live, String linkRel, Path target) {
        warnings.add(Warning.of(Warning.Kind.LINK, "patterns reach beneath " + linkRel + ", a symbolic link"
                + " to " + target + " outside the project: paths reached through it are not protected"));
        linksLeadingOut.add(linkRel + "/");
    }

    @Override
    public void tooManyThroughLinks(List<Rule> live, String rel, int limit) {
        incomplete(Warning.Kind.TOO_MANY_LINK_PATHS, "symbolic links inside the project lead to the same directories"
                + " by too many paths (more than " + limit + " entries listed through links; first left out: " + rel
                + "): protected paths reached only through links may be missing; remove the links that lead to a"
                + " directory more than once, or narrow the patterns that reach them");
    }

    /** The rules of {@code rules} that can match beneath {@code rel}; null when none can. */
    private static List<Rule> live(List<Rule> rules, String rel) {
        List<Rule> live = null;
        for (Rule r : rules) {
            if (r.glob().couldMatchBeneath(rel)) {
                if (live == null) {
                    live = new ArrayList<>(rules.size());
                }
                live.add(r);
            }
        }
        return live;
    }

    private void incomplete(Warning.Kind kind, String text) {
        incomplete(Warning.of(kind, text));
    }

    private void incomplete(Warning warning) {
        warnings.add(warning);
        incomplete.add(warning);
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

    static Expansion.Entry.Kind kindOf(BasicFileAttributes a) {
        return kindOf(WalkEntry.typeOf(a));
    }

    static Expansion.Entry.Kind kindOf(DirectoryReader.Type type) {
        return switch (type) {
            case SYMLINK -> Expansion.Entry.Kind.SYMLINK;
            case DIRECTORY -> Expansion.Entry.Kind.DIRECTORY;
            case FILE -> Expansion.Entry.Kind.FILE;
            default -> Expansion.Entry.Kind.OTHER;
        };
    }
}
