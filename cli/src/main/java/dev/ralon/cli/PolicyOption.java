package dev.ralon.cli;

import dev.ralon.policy.PolicyException;
import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.PolicyDiscovery;
import dev.ralon.policy.walk.PolicySet;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code --policy FILE}, shared by the commands that read a policy. Without it, every agent.lock from the working
 * directory up to the file system root is in force, and every agent.lock below the top of that tree
 * ({@link PolicySet#inTree}, docs/spec.md §2.1); with it, that file alone is (no tree is walked): the user asked for
 * it explicitly, and an agent cannot pass it to the user's later runs.
 */
final class PolicyOption {
    @Option(names = "--policy", paramLabel = "FILE",
            description = "Use this policy file alone, instead of every agent.lock from the working directory up and below"
                    + " the top of that tree.")
    Path policy;

    /** Loads the policies in force, or fails with one line (naming the file that cannot be used) and exit 2. */
    PolicySet load() {
        return load(policy);
    }

    /**
     * Loads the policies in force: {@code policy} alone when not null (given by {@code --policy}), else every agent.lock
     * from the working directory up and below the top of that tree; fails with one line (naming the file that cannot be used) and exit 2.
     */
    static PolicySet load(Path policy) {
        try {
            if (policy != null) {
                return PolicySet.explicit(PolicyLoader.load(policy));
            }
            Path cwd = Path.of("").toAbsolutePath();
            WalkReader.install(); // the tree's walk reads entry types from the listing, as the expansion's does
            PolicySet set = PolicySet.inTree(cwd);
            if (set.isEmpty()) {
                throw CliException.of("no-policy", "no " + PolicyDiscovery.FILE_NAME + " in " + cwd
                        + ", any parent directory or below (create one with: ralon init)");
            }
            return set;
        } catch (PolicyException e) {
            throw CliException.policy(e);
        }
    }

    /**
     * With {@code --policy}: the agent.lock files discovery would have put in force from the working directory up and
     * the explicit file leaves out (said by status and run, so that replacing them is never silent); else empty. The
     * tree below is not walked for this: the note says that files below were not looked for.
     */
    static List<Path> leftOutByExplicitPolicy(Path policy) {
        if (policy == null) {
            return List.of();
        }
        try {
            Path chosen = policy.toAbsolutePath().normalize();
            return PolicyDiscovery.inForce(Path.of("").toAbsolutePath()).stream()
                    .filter(f -> !f.equals(chosen) && !sameFile(f, chosen)).toList();
        } catch (PolicyException e) {
            return List.of(); // discovery is not in use: its own problems are not this command's
        }
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return java.nio.file.Files.isSameFile(a, b);
        } catch (java.io.IOException | SecurityException e) {
            return false;
        }
    }

    /** The note for {@link #leftOutByExplicitPolicy}, or null when nothing is left out. */
    static String leftOutNote(Path policy) {
        List<Path> left = leftOutByExplicitPolicy(policy);
        if (left.isEmpty()) {
            return null;
        }
        return "--policy replaces discovery: not in force in this command: "
                + String.join(", ", left.stream().map(Path::toString).toList())
                + " (nor any agent.lock below; those were not looked for)";
    }
}
