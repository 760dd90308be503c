package dev.ralon.policy.walk;

import dev.ralon.policy.Policy;
import dev.ralon.policy.Rule;
import dev.ralon.policy.glob.Glob;
import dev.ralon.policy.glob.PatternException;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The advice visitor of the walk ({@link TreeWalker}): for each slash-less declared pattern that matches nothing at
 * the top, counts what its floating form {@code **}{@code /P} would match deeper, so the warning can say "would match
 * N paths deeper". It counts the distinct real paths the floating form matches, not descending beneath a directory it
 * matches (as a walk of that pattern alone would count), and not beneath a directory {@link IgnoredDirectories} names
 * (that directory itself still counts when the pattern matches it). It never makes an entry or a warning of its own.
 * Its state for a directory says which probes still count there; null when none does.
 */
final class AdviceVisitor implements WalkVisitor<boolean[]> {
    private final Policy policy;
    private final IgnoredDirectories ignored;
    private final List<Probe> probes = new ArrayList<>();

    /** One slash-less declared rule that matches nothing at the top, and the real paths its floating form matched. */
    private record Probe(Rule rule, Glob floating, Set<String> hits) {
    }

    AdviceVisitor(Policy policy, IgnoredDirectories ignored) {
        this.policy = policy;
        this.ignored = ignored;
    }

    /** A slash-less pattern can only match an entry of the root: lists its names once to see which match none. */
    @Override
    public boolean[] atRoot() {
        List<Rule> slashLess = new ArrayList<>();
        for (Rule r : policy.declaredRules()) {
            if (r.glob().normalized().indexOf('/') < 0) {
                slashLess.add(r);
            }
        }
        if (slashLess.isEmpty()) {
            return null;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(policy.root())) {
            for (Path c : ds) {
                String name = c.getFileName().toString();
                slashLess.removeIf(r -> r.glob().matchesExactly(name));
            }
        } catch (IOException | SecurityException | DirectoryIteratorException e) {
            return null; // the protection visitor reports it
        }
        for (Rule r : slashLess) {
            try {
                probes.add(new Probe(r, Glob.compile("**/" + r.glob().normalized()), new HashSet<>()));
            } catch (PatternException e) {
                // no floating form: no advice for it
            }
        }
        if (probes.isEmpty()) {
            return null;
        }
        boolean[] counting = new boolean[probes.size()];
        Arrays.fill(counting, true);
        return counting;
    }

    @Override
    public boolean[] visit(boolean[] counting, WalkEntry child) {
        DirectoryReader.Type type = child.type();
        if (type == null) {
            child.skip(); // vanished, or cannot be examined: not counted (the protection visitor says so if it cares)
            return null;
        }
        boolean[] beneath = counting;
        for (int i = 0; i < counting.length; i++) {
            Probe p = probes.get(i);
            if (counting[i] && p.floating.matchesExactly(child.rel())) {
                String realRel = child.realRel();
                if (realRel != null) {
                    p.hits.add(realRel);
                }
                if (beneath == counting) {
                    beneath = counting.clone();
                }
                beneath[i] = false;
            }
        }
        if (!any(beneath) || (type != DirectoryReader.Type.FILE && ignored.ignored(child.rel()))) {
            return null;
        }
        return beneath;
    }

    /** How many paths {@code r}'s floating form matched deeper (0 for a rule without a probe). */
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
}
