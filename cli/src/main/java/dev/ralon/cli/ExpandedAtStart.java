package dev.ralon.cli;

import dev.ralon.policy.Rule;
import dev.ralon.policy.RuleText;

import java.util.List;

/**
 * The line {@code status} and {@code run --dry-run} say about the patterns expanded at start (docs/spec-patterns.md):
 * a path created during a run that matches one is protected only inside a protected directory. Rendering only; which
 * rules are expanded at start is host's ({@code StartReport.expandedAtStart}).
 */
final class ExpandedAtStart {
    private ExpandedAtStart() {
    }

    /** The line naming {@code rules} as the user wrote them, or null when there are none. */
    static String line(List<Rule> rules, RuleText.Naming naming) {
        if (rules.isEmpty()) {
            return null;
        }
        List<String> shown = rules.stream().map(r -> RuleText.of(r, naming)).toList();
        return "expanded at start: " + String.join(", ", shown) + ": a path created during a run that matches "
                + (rules.size() == 1 ? "it" : "one of them") + " is protected only inside a protected directory";
    }
}
