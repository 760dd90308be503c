package dev.ralon.cli;

import dev.ralon.policy.PolicyException;
import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.PolicySet;

import java.nio.file.Path;

/**
 * The policies that judge one target of a hook: every agent.lock in force at the target's own place
 * ({@link PolicySet#inForceFor}: its directory, and its real location's when a link leads elsewhere), whatever the
 * agent's working directory; or, with {@code --policy}, that one file for every target.
 */
final class HookPolicies {
    private final Path only;
    private PolicySet explicit;

    /** @param only the policy given by {@code --policy}, used alone for every target; null to discover */
    HookPolicies(Path only) {
        this.only = only;
    }

    /** The policies in force for {@code target} (absolute, normalised); empty when none is. */
    PolicySet forTarget(Path target) throws PolicyException {
        if (only == null) {
            return PolicySet.inForceFor(target);
        }
        if (explicit == null) {
            explicit = PolicySet.explicit(PolicyLoader.load(only));
        }
        return explicit;
    }
}
