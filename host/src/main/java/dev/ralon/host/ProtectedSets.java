package dev.ralon.host;

import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.policy.Expansion;
import dev.ralon.policy.Policy;
import dev.ralon.policy.Rule;
import dev.ralon.policy.RuleText;

import java.util.ArrayList;
import java.util.List;

/**
 * The typed hand-over from policy-core to the SPI: an {@link Expansion} (what the policies protect on disk) becomes the
 * {@link ProtectedSet} every backend plans from. The one place that does it: {@code run}, {@code status} and the
 * conformance kit all call {@link #from}, so a backend is judged by the kit on the very set a real run hands it.
 */
public final class ProtectedSets {
    private ProtectedSets() {
    }

    /**
     * The enforcer's input for the policies expanded: the root is the expansion's (the farthest policy's root), the
     * policy file the nearest one; each path's reasons are every rule that protects it in {@link RuleText}'s
     * wording (the file name alone when one policy is in force), and a link on the way to a protected path is a {@code SYMLINK} entry.
     * Entries are sorted by path. The expansion's warnings are the set's.
     */
    public static ProtectedSet from(Expansion expansion) {
        Policy policy = expansion.policy();
        RuleText.Naming naming = expansion.naming();
        List<ProtectedPath> paths = new ArrayList<>();
        for (Expansion.Entry e : expansion.entries()) {
            List<String> reasons = new ArrayList<>();
            for (Rule r : e.rules()) {
                reasons.add(RuleText.of(r, naming));
            }
            if (e.via() != null) {
                reasons.add("reached as " + e.via() + " through a symbolic link");
            }
            paths.add(ProtectedPath.of(e.path(), ProtectedPath.Kind.valueOf(e.kind().name()), reasons));
        }
        for (Expansion.Entry link : expansion.linksOnTheWay()) {
            // not a match: a link through which a protected path is reached; retargeting it would change what the
            // next run protects, so the run keeps it as it is (docs/security.md, "links on the way")
            paths.add(ProtectedPath.of(link.path(), ProtectedPath.Kind.SYMLINK,
                    List.of("symbolic link on the way to " + link.via())));
        }
        paths.sort(java.util.Comparator.comparing(ProtectedPath::path));
        return ProtectedSet.of(expansion.root(), policy.file(), paths, expansion.warningMessages());
    }

}
