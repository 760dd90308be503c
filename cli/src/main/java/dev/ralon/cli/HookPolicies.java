package dev.ralon.cli;

import dev.ralon.policy.Policy;
import dev.ralon.policy.PolicyDiscovery;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.PolicyLoader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The policies that judge one target path of a hook: those in force at the target's own directory, whatever the
 * agent's working directory is. The directory is taken twice: as written (lexically normalised) and with the symbolic
 * links of its existing part resolved, so a path through a link into a project is judged by that project's policy
 * too. Each agent.lock is loaded once per hook run.
 */
final class HookPolicies {
    private final Path only;
    private final Map<Path, Policy> loaded = new HashMap<>();

    /** @param only the policy given by {@code --policy}, used alone for every target; null to discover */
    HookPolicies(Path only) {
        this.only = only;
    }

    /** The policies in force for {@code target} (absolute, normalised); empty when none is. */
    List<Policy> forTarget(Path target) throws PolicyException {
        Set<Path> files = new LinkedHashSet<>();
        if (only != null) {
            files.add(only);
        } else {
            Path dir = target.getParent() != null ? target.getParent() : target;
            files.addAll(inForce(dir));
            Path real = realForm(dir);
            if (real != null && !real.equals(dir)) {
                files.addAll(inForce(real));
            }
        }
        List<Policy> out = new ArrayList<>();
        for (Path f : files) {
            Policy p = loaded.get(f);
            if (p == null) {
                p = PolicyLoader.load(f);
                loaded.put(f, p);
            }
            out.add(p);
        }
        return out;
    }

    /**
     * Every agent.lock in force at {@code dir}. Today's discovery gives the nearest one; when "policies only add"
     * lands (every agent.lock from the directory up to the root), this is the one line to change.
     */
    static List<Path> inForce(Path dir) {
        Optional<Path> nearest = PolicyDiscovery.find(dir);
        return nearest.map(List::of).orElse(List.of());
    }

    /** {@code dir} with the links in its longest existing prefix resolved and the rest appended; null if none resolves. */
    static Path realForm(Path dir) {
        Path existing = dir;
        Path rest = null;
        while (existing != null) {
            if (Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Path real = existing.toRealPath();
                    return rest == null ? real : real.resolve(rest).normalize();
                } catch (IOException | SecurityException e) {
                    // a dangling link or an unreadable directory: go one level up
                }
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
}
