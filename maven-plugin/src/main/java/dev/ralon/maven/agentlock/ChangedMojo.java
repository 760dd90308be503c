package dev.ralon.maven.agentlock;

import dev.ralon.policy.PolicyException;
import dev.ralon.policy.Rule;
import dev.ralon.policy.RuleText;
import dev.ralon.policy.git.ChangedPaths;
import dev.ralon.policy.git.GitException;
import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.PolicySet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Fails the build when a branch changed paths protected by agent.lock: the CI guard for branches written by agents
 * outside any sandbox ({@code mvn agentlock:changed -Dagentlock.base=origin/main}). The same check as
 * {@code ralon check --changed BASE}: what the branch changed since it left BASE (the work tree, untracked files
 * included, against the merge base of BASE and HEAD; or with {@code A...B} commit B against the merge base of A and
 * B), both sides of renames, each judged by every agent.lock in force in the repository's work tree and as it was at the merge
 * base (so a branch cannot weaken or delete an agent.lock and change what it protected). With {@code staged}, the index against HEAD instead (what the
 * next commit records). "The work tree" means everything the branch would carry: the commits since the merge base,
 * the index and the work tree, protected files compared by content whatever the index's flags; code-running
 * configuration ({@code .mvn/jvm.config}, ...) is reported even when git ignores it ({@link ChangedPaths}).
 *
 * <p>Under {@code CI=true} a base must be given: HEAD against itself finds nothing in a CI checkout. An unknown base
 * or a shallow clone that does not reach the merge base is an execution error that says what to fetch. git runs
 * hardened: nothing the repository configures (fsmonitor, filters, diff drivers, hooks, pager) is executed.
 *
 * <p>Not bound to a phase by default; runs once per build wherever it is bound.
 */
@Mojo(name = "changed", threadSafe = true, aggregator = true)
public class ChangedMojo extends AgentlockMojo {

    /**
     * The base the branch is judged against: {@code origin/main} (the work tree against the merge base of it and HEAD)
     * or {@code A...B} (commit B against the merge base of A and B). Not set: HEAD, refused under {@code CI=true}.
     */
    @Parameter(property = "agentlock.base")
    private String base;

    /** Compare the index with HEAD instead ({@code true}/{@code false}). */
    @Parameter(property = "agentlock.staged", defaultValue = "false")
    private String staged;

    /**
     * Also write what the guard found as a SARIF 2.1.0 log to this file: one result per protected path changed,
     * located at that path, with the protecting pattern's place in agent.lock as a related location (or the policy's
     * errors). Written on every run, empty of results when nothing protected changed. Its own property, so that
     * {@code check}'s log in the same build is not overwritten.
     */
    @Parameter(property = "agentlock.changed.sarifFile")
    private java.io.File sarifFile;

    /** Skip this goal only ({@code agentlock.skip} skips every goal). */
    @Parameter(property = "agentlock.changed.skip", defaultValue = "false")
    private String skipChanged;

    @Override
    String goalSkipProperty() {
        return "agentlock.changed.skip";
    }

    @Override
    String goalSkip() {
        return skipChanged;
    }

    @Override
    String what() {
        return "agent.lock change guard";
    }

    @Override
    void run() throws MojoExecutionException, MojoFailureException {
        boolean index = Flag.parse("agentlock.staged", staged);
        Path dir = basedir.toPath().toAbsolutePath().normalize();
        String given = base == null || base.isBlank() ? null : base.trim();
        List<Path> files;
        files = policyFile != null ? List.of(policyFile.toPath().toAbsolutePath().normalize())
                : policiesInRepository(dir);
        // once per build for the same policies and base: git answers for the whole repository, so modules that share
        // the agent.lock files in force share the answer (a module with an agent.lock of its own gets its own guard)
        String key = "changed\u0000" + files + "\u0000" + given + "\u0000" + index;
        BuildState.once(session, key, module(), "the change guard for " + String.join(", ",
                files.stream().map(Path::toString).toList()) + " already ran", getLog(),
                () -> guard(dir, files, given, index));
    }

    private void guard(Path dir, List<Path> files, String given, boolean index) throws MojoExecutionException, MojoFailureException {
        PolicySet policy;
        ChangedPaths.Result result;
        try {
            policy = policyFile != null ? PolicySet.explicit(PolicyLoader.load(files.get(0)))
                    : PolicySet.discovered(files, dir);
            if (policy.isEmpty()) {
                throw new MojoExecutionException("no agent.lock in " + dir + " or any parent directory: nothing to guard");
            }
            result = ChangedPaths.find(policy, dir, given, index, ChangedPaths.underCi(System.getenv()),
                    "-Dagentlock.base=");
        } catch (PolicyException e) {
            Path where = e.file() != null ? e.file().toAbsolutePath().normalize() : dir.resolve("agent.lock");
            if (e.isIoFault()) {
                throw new MojoExecutionException(PolicyCheck.describe(e, where), e);
            }
            List<String> errors = PolicyCheck.describeAll(e, where);
            writeSarif(sarifFile, Sarif.problems(List.of(where), errors, List.of()));
            fail(errors, "agent.lock " + where + " is not valid: " + CheckMojo.count(errors.size(), "error")
                    + " (listed above)");
            return;
        } catch (GitException e) {
            throw new MojoExecutionException("agentlock: " + e.getMessage(), e);
        }
        String shown = String.join(", ", policy.files().stream().map(Path::toString).toList());
        List<String> lines = new ArrayList<>();
        List<Sarif.Result> results = new ArrayList<>();
        for (ChangedPaths.Finding f : result.findings()) {
            java.util.Set<String> why = new java.util.LinkedHashSet<>(); // the work tree's and the base's rule, once
            List<Sarif.Location> where = new ArrayList<>();
            for (Rule r : f.rules()) {
                why.add(RuleText.of(r, RuleText.Naming.ABSOLUTE)); // a rule of a compared revision names "REV:path"
                // a rule of the policy at a compared revision names its file "REV:path", not a file on disk
                if (r.file() != null && !r.file().toString().contains(":")) {
                    Sarif.Location at = new Sarif.Location(r.file().toAbsolutePath().normalize(), r.line(), r.column());
                    if (!where.contains(at)) {
                        where.add(at);
                    }
                }
            }
            List<String> reasons = new ArrayList<>();
            if (!why.isEmpty()) {
                reasons.add("protected by " + String.join(", ", why));
            }
            if (f.codeRunning() != null) {
                reasons.add("code-running configuration: " + f.codeRunning());
            }
            String text = f.status() + (f.from() == null ? "" : " from " + f.from()) + ", " + String.join("; ", reasons)
                    + (f.where().isEmpty() ? "" : " (in " + String.join(", ", f.where()) + ")");
            Path changed = result.top().resolve(f.path());
            lines.add(changed + ": " + text);
            results.add(new Sarif.Result(Sarif.CHANGE_RULE, "error", text, new Sarif.Location(changed, 0, 0),
                    List.copyOf(where)));
        }
        writeSarif(sarifFile, results);
        if (result.findings().isEmpty()) {
            getLog().info("agent.lock " + shown + ": no protected path changed (" + result.against() + ")");
            return;
        }
        fail(lines, "protected paths changed (" + result.against() + "): " + CheckMojo.count(lines.size(), "path")
                + " (listed above)");
    }
}
