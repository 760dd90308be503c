package dev.ralon.maven.agentlock;

import dev.ralon.policy.ChangedPaths;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.PolicyLoader;
import dev.ralon.policy.PolicySet;
import dev.ralon.policy.Rule;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Fails the build when paths protected by agent.lock changed since a base revision: the CI guard for branches written
 * by agents outside any sandbox ({@code mvn agentlock:changed -Dagentlock.base=origin/main}). The same check as
 * {@code ralon check --changed BASE}: tracked changes and untracked files of the work tree against BASE, both sides of
 * renames, each judged by the work tree's policy and by the policy at BASE (so a branch cannot weaken agent.lock and
 * change what it protected). With {@code staged}, the index against HEAD instead (what the next commit records).
 *
 * <p>Not bound to a phase by default, and runs once per build (in the execution root), since git answers for the
 * whole repository.
 */
@Mojo(name = "changed", threadSafe = true, aggregator = true)
public class ChangedMojo extends AbstractMojo {

  /** The revision to compare the work tree with, e.g. {@code origin/main}. */
  @Parameter(property = "agentlock.base", defaultValue = "HEAD")
  private String base;

  /** Compare the index with HEAD instead of the work tree with {@code base}. */
  @Parameter(property = "agentlock.staged", defaultValue = "false")
  private boolean staged;

  /** Skip the check. */
  @Parameter(property = "agentlock.skip", defaultValue = "false")
  private boolean skip;

  /**
   * The agent.lock to use, alone; by default every agent.lock in the base directory and its parents (each only adds).
   */
  @Parameter(property = "agentlock.policyFile")
  private File policyFile;

  @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
  private File basedir;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("agent.lock change guard skipped (agentlock.skip)");
      return;
    }
    Path dir = basedir.toPath().toAbsolutePath().normalize();
    PolicySet policy;
    ChangedPaths.Result result;
    try {
      policy = policyFile != null ? PolicySet.explicit(PolicyLoader.load(policyFile.toPath().toAbsolutePath().normalize()))
          : PolicySet.inForceAt(dir);
      if (policy.isEmpty()) {
        throw new MojoExecutionException("no agent.lock in " + dir + " or any parent directory: nothing to guard");
      }
      result = ChangedPaths.find(policy, dir, base, staged);
    } catch (PolicyException e) {
      String msg = PolicyCheck.describe(e, e.file());
      if (e.isIoFault()) {
        throw new MojoExecutionException(msg, e);
      }
      throw new MojoFailureException(msg, e);
    } catch (ChangedPaths.GitException e) {
      throw new MojoExecutionException("agentlock: " + e.getMessage(), e);
    }
    String against = staged ? "the index against HEAD" : "the work tree against " + base;
    if (result.findings().isEmpty()) {
      getLog().info("agent.lock " + shown(policy) + ": no protected path changed (" + against + ")");
      return;
    }
    List<String> lines = new ArrayList<>();
    lines.add("protected paths changed (" + against + "), see " + shown(policy) + ":");
    for (ChangedPaths.Finding f : result.findings()) {
      java.util.Set<String> why = new java.util.LinkedHashSet<>(); // the work tree's and the base's rule, once
      for (Rule r : f.rules()) {
        String in = policy.policies().size() == 1 ? "" : r.file() + " ";
        why.add(r.implicit() ? "the policy file " + in + "itself" : "\"" + r.pattern() + "\" (" + in + "line " + r.line() + ")");
      }
      lines.add("  " + f.status() + " " + (f.from() == null ? f.path() : f.from() + " -> " + f.path())
          + ": protected by " + String.join(", ", why));
    }
    throw new MojoFailureException(String.join(System.lineSeparator(), lines));
  }

  private static String shown(PolicySet policies) {
    return String.join(", ", policies.files().stream().map(Path::toString).toList());
  }
}
