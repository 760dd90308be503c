package dev.ralon.maven.agentlock;

import dev.ralon.policy.PolicyException;
import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.PolicySet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Checks the project's agent.lock and fails the build when it is not valid.
 *
 * <p>Finds agent.lock the way {@code ralon} does, up to the repository's root: every {@code agent.lock} in the project's
 * base directory and in each of its parents within the git repository that holds it is in force, and each only adds
 * protection (or the file given by {@code policyFile} alone). A file above the repository is another project's: it is
 * not checked, and one line says so. Then:
 * <ul>
 *   <li>policy errors (YAML syntax, unknown key, bad version, bad pattern, duplicate key, ...) fail the build, each
 *       on its own line {@code [ERROR] /abs/agent.lock:line:column: reason} — every error the loader reports;</li>
 *   <li>a file that cannot be read (a directory, no permission, I/O error) is an execution error;</li>
 *   <li>a pattern that matches nothing on disk is a warning, or a failure with {@code failOnUnmatched};</li>
 *   <li>each {@code required} path the policy does not protect fails the build.</li>
 * </ul>
 *
 * <p>In a multi-module build each agent.lock (with the same settings) is checked and reported once; the other modules
 * that share it log one line saying so.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VALIDATE, threadSafe = true)
public class CheckMojo extends AgentlockMojo {

    /** Skip this goal only ({@code agentlock.skip} skips every goal). */
    @Parameter(property = "agentlock.check.skip", defaultValue = "false")
    private String skipCheck;

    /**
     * What to do when no agent.lock is found above the project: {@code warn} (default; logged once per build),
     * {@code fail} (fail the build) or {@code ignore} (say nothing).
     */
    @Parameter(property = "agentlock.onMissing", defaultValue = "warn")
    private String onMissing;

    /**
     * Fail the build when a pattern of agent.lock matches nothing on disk (default: only warn). A literal pattern
     * naming a file that does not exist yet counts as matching nothing. {@code true} or {@code false}.
     */
    @Parameter(property = "agentlock.failOnUnmatched", defaultValue = "false")
    private String failOnUnmatched;

    /**
     * Paths the policy must protect, e.g. {@code .github/workflows/ci.yml} or {@code pom.xml}. Each entry is one path,
     * not a pattern, relative to the directory holding agent.lock, with {@code /} as separator. The build fails when
     * the policy's patterns do not cover an entry (the path need not exist). On the command line: a comma-separated
     * list ({@code -Dagentlock.required=pom.xml,.github/workflows/ci.yml}).
     */
    @Parameter(property = "agentlock.required")
    private List<String> required;

    /**
     * Also write the problems found as a SARIF 2.1.0 log to this file (for GitHub code scanning's upload-sarif and
     * other CI annotators). Written on every run, empty of results when the policy passes.
     */
    @Parameter(property = "agentlock.sarifFile")
    private java.io.File sarifFile;

    @Override
    String goalSkipProperty() {
        return "agentlock.check.skip";
    }

    @Override
    String goalSkip() {
        return skipCheck;
    }

    @Override
    String what() {
        return "agent.lock check";
    }

    @Override
    void run() throws MojoExecutionException, MojoFailureException {
        OnMissing missingMode = OnMissing.parse(onMissing);
        boolean failUnmatched = Flag.parse("agentlock.failOnUnmatched", failOnUnmatched);
        List<String> requiredPaths = new ArrayList<>();
        if (required != null) {
            for (String entry : required) {
                try {
                    requiredPaths.add(RequiredPath.normalize(entry));
                } catch (IllegalArgumentException e) {
                    throw new MojoExecutionException("agentlock: " + e.getMessage());
                }
            }
        }

        List<Path> files;
        if (policyFile != null) {
            files = List.of(policyFile.toPath().toAbsolutePath().normalize());
        } else {
            files = policiesInRepository(basedir.toPath().toAbsolutePath().normalize());
            if (files.isEmpty()) {
                missing(missingMode);
                return;
            }
        }
        String file = String.join(", ", files.stream().map(Path::toString).toList());
        String key = file + "\u0000failOnUnmatched=" + failUnmatched + "\u0000required=" + requiredPaths;
        BuildState.once(session, key, module(), "agent.lock " + file + " was already checked", getLog(),
                () -> check(files, file, failUnmatched, requiredPaths));
    }

    private void check(List<Path> files, String file, boolean failUnmatched, List<String> requiredPaths)
            throws MojoExecutionException, MojoFailureException {
        PolicyCheck.Result result;
        try {
            // the explicit file alone, or every file in force in the repository (each loaded; the first that cannot be is
            // the error)
            PolicySet set = policyFile != null ? PolicySet.explicit(PolicyLoader.load(files.get(0)))
                    : PolicySet.discovered(files, basedir.toPath());
            result = PolicyCheck.run(set, failUnmatched, requiredPaths);
        } catch (PolicyException e) {
            Path where = e.file() != null ? e.file().toAbsolutePath().normalize() : files.get(0);
            if (e.isIoFault()) {
                throw new MojoExecutionException(PolicyCheck.describe(e, where), e);
            }
            List<String> errors = PolicyCheck.describeAll(e, where);
            writeSarif(List.of(where), errors, List.of());
            fail(errors, "agent.lock " + where + " is not valid: " + count(errors.size(), "error") + " (listed above)");
            return;
        } catch (IOException e) {
            throw new MojoExecutionException("agent.lock " + file + ": cannot list protected paths: " + e.getMessage(), e);
        }
        writeSarif(files, result.failures(), result.warnings());
        for (String w : result.warnings()) {
            getLog().warn(w);
        }
        if (!result.failures().isEmpty()) {
            fail(result.failures(), "agent.lock " + file + ": " + count(result.failures().size(), "problem")
                    + " (listed above)");
            return;
        }
        getLog().info(result.summary());
    }

    private void writeSarif(List<Path> files, List<String> errors, List<String> warnings)
            throws MojoExecutionException {
        writeSarif(sarifFile, Sarif.problems(files, errors, warnings));
    }

    static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private void missing(OnMissing mode) throws MojoFailureException {
        String msg = "no agent.lock in " + basedir + " or any parent directory";
        switch (mode) {
            case FAIL -> throw new MojoFailureException(msg + " (agentlock.onMissing=fail)");
            case IGNORE -> getLog().debug(msg + " (agentlock.onMissing=ignore)");
            case WARN -> {
                // once per build: in a multi-module build without agent.lock every module would say the same
                String[] first = BuildState.checked(session).putIfAbsent("\u0000missing", new String[] {BuildState.OK, module()});
                if (first == null) {
                    getLog().warn(msg + "; nothing to check (set agentlock.onMissing=fail to require one, =ignore to hide this)");
                } else {
                    getLog().debug(msg);
                }
            }
        }
    }

    /** Values of {@code onMissing}. */
    enum OnMissing {
        WARN, FAIL, IGNORE;

        static OnMissing parse(String value) throws MojoExecutionException {
            String v = value == null ? "warn" : value.trim().toLowerCase(Locale.ROOT);
            return switch (v) {
                case "warn" -> WARN;
                case "fail" -> FAIL;
                case "ignore" -> IGNORE;
                default -> throw new MojoExecutionException(
                        "agentlock.onMissing is \"" + value + "\"; expected warn, fail or ignore");
            };
        }
    }
}
