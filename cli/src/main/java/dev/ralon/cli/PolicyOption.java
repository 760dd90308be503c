package dev.ralon.cli;

import dev.ralon.policy.Policy;
import dev.ralon.policy.PolicyDiscovery;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.PolicyLoader;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** {@code --policy FILE}, shared by the commands that read a policy; without it the policy is discovered. */
final class PolicyOption {
    @Option(names = "--policy", paramLabel = "FILE",
            description = "Use this policy file instead of the nearest agent.lock above the working directory.")
    Path policy;

    /** Loads the policy, or fails with one line and exit 2. */
    Policy load() {
        Path file = policy;
        if (file == null) {
            Path cwd = Path.of("").toAbsolutePath();
            file = PolicyDiscovery.find(cwd).orElseThrow(() -> CliException.of("no-policy", 
                    "no " + PolicyDiscovery.FILE_NAME + " in " + cwd + " or any parent directory (create one with: ralon init)"));
        }
        try {
            return PolicyLoader.load(file);
        } catch (PolicyException e) {
            throw CliException.policy(e);
        }
    }
}
