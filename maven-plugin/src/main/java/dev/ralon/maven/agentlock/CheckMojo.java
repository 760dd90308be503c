package dev.ralon.maven.agentlock;

import dev.ralon.policy.PolicyDiscovery;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.PolicyLoader;
import dev.ralon.policy.PolicySet;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentMap;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Checks the project's agent.lock and fails the build when it is not valid.
 *
 * <p>Finds agent.lock the way {@code ralon} does: every {@code agent.lock} in the project's base directory and in each
 * of its parents is in force, and each only adds protection (or the file given by {@code policyFile} alone). Then:
 * <ul>
 *   <li>a policy error (YAML syntax, unknown key, bad version, bad pattern, duplicate key, ...) fails the build
 *       with {@code file:line:column: reason} — the first error, the one {@code ralon} reports for the file;</li>
 *   <li>a file that cannot be read (a directory, no permission, I/O error) is an execution error;</li>
 *   <li>a pattern that matches nothing on disk is a warning, or a failure with {@code failOnUnmatched};</li>
 *   <li>each {@code required} path the policy does not protect fails the build.</li>
 * </ul>
 *
 * <p>In a multi-module build each agent.lock (with the same settings) is checked and reported once; the other modules
 * that share it log one line saying so.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VALIDATE, threadSafe = true)
public class CheckMojo extends AbstractMojo {

  /** Skip the check. */
  @Parameter(property = "agentlock.skip", defaultValue = "false")
  private boolean skip;

  /**
   * The agent.lock to check, alone. When not set, every {@code agent.lock} in the project's base directory and its
   * parents is checked (all of them are in force: a nearer one only adds to a farther one). A relative path is relative to the project's base directory. A file set here that does not
   * exist is an execution error ({@code onMissing} only applies when nothing was found by searching).
   */
  @Parameter(property = "agentlock.policyFile")
  private File policyFile;

  /**
   * What to do when no agent.lock is found above the project: {@code warn} (default; logged once per build),
   * {@code fail} (fail the build) or {@code ignore} (say nothing).
   */
  @Parameter(property = "agentlock.onMissing", defaultValue = "warn")
  private String onMissing;

  /**
   * Fail the build when a pattern of agent.lock matches nothing on disk (default: only warn). A literal pattern
   * naming a file that does not exist yet counts as matching nothing.
   */
  @Parameter(property = "agentlock.failOnUnmatched", defaultValue = "false")
  private boolean failOnUnmatched;

  /**
   * Paths the policy must protect, e.g. {@code .github/workflows/ci.yml} or {@code pom.xml}. Each entry is one path,
   * not a pattern, relative to the directory holding agent.lock, with {@code /} as separator. The build fails when
   * the policy's patterns do not cover an entry (the path need not exist). On the command line: a comma-separated
   * list ({@code -Dagentlock.required=pom.xml,.github/workflows/ci.yml}).
   */
  @Parameter(property = "agentlock.required")
  private List<String> required;

  @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
  private File basedir;

  @Parameter(defaultValue = "${project}", readonly = true, required = true)
  private MavenProject project;

  @Parameter(defaultValue = "${session}", readonly = true, required = true)
  private MavenSession session;

  private static final String OK = "ok";
  private static final String FAILURE = "failure";
  private static final String ERROR = "error";

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("agent.lock check skipped (agentlock.skip)");
      return;
    }
    OnMissing missingMode = OnMissing.parse(onMissing);
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
      try {
        files = PolicyDiscovery.inForce(basedir.toPath().toAbsolutePath().normalize());
      } catch (PolicyException e) {
        throw new MojoExecutionException(PolicyCheck.describe(e, e.file()), e);
      }
      if (files.isEmpty()) {
        missing(missingMode);
        return;
      }
    }
    String file = String.join(", ", files.stream().map(Path::toString).toList());

    String module = project.getGroupId() + ":" + project.getArtifactId();
    String key = file + "\u0000failOnUnmatched=" + failOnUnmatched + "\u0000required=" + requiredPaths;
    ConcurrentMap<String, String[]> checked = BuildState.checked(session);
    Exception[] thrown = new Exception[1];
    String[] outcome = checked.computeIfAbsent(key, k -> {
      try {
        check(files, requiredPaths);
        return new String[] {OK, module};
      } catch (MojoFailureException e) {
        thrown[0] = e;
        return new String[] {FAILURE, module};
      } catch (MojoExecutionException | RuntimeException e) {
        thrown[0] = e;
        return new String[] {ERROR, module};
      }
    });
    if (thrown[0] != null) { // this module ran the check and it did not pass
      if (thrown[0] instanceof MojoFailureException f) {
        throw f;
      }
      if (thrown[0] instanceof MojoExecutionException x) {
        throw x;
      }
      throw (RuntimeException) thrown[0];
    }
    if (outcome[1].equals(module) && outcome[0].equals(OK)) {
      return; // reported by check()
    }
    String already = "agent.lock " + file + " was already checked in this build (module " + outcome[1] + ")";
    switch (outcome[0]) {
      case OK -> getLog().info(already + ": OK");
      case FAILURE -> throw new MojoFailureException(already + " and failed; see the error reported there");
      default -> throw new MojoExecutionException(already + " and could not be read; see the error reported there");
    }
  }

  private void check(List<Path> files, List<String> requiredPaths)
      throws MojoExecutionException, MojoFailureException {
    PolicyCheck.Result result;
    try {
      // the explicit file alone, or every file in force (each loaded; the first that cannot be is the error)
      PolicySet set = policyFile != null ? PolicySet.explicit(PolicyLoader.load(files.get(0)))
          : PolicySet.inForceAt(basedir.toPath().toAbsolutePath().normalize());
      result = PolicyCheck.run(set, failOnUnmatched, requiredPaths);
    } catch (PolicyException e) {
      String msg = PolicyCheck.describe(e, e.file());
      if (e.isIoFault()) {
        throw new MojoExecutionException(msg, e);
      }
      throw new MojoFailureException(msg, e);
    } catch (IOException e) {
      throw new MojoExecutionException("agent.lock " + String.join(", ", files.stream().map(Path::toString).toList())
          + ": cannot list protected paths: " + e.getMessage(), e);
    }
    for (String w : result.warnings()) {
      getLog().warn(w);
    }
    if (!result.failures().isEmpty()) {
      throw new MojoFailureException(String.join(System.lineSeparator(), result.failures()));
    }
    getLog().info(result.summary());
  }

  private void missing(OnMissing mode) throws MojoFailureException {
    String msg = "no agent.lock in " + basedir + " or any parent directory";
    switch (mode) {
      case FAIL -> throw new MojoFailureException(msg + " (agentlock.onMissing=fail)");
      case IGNORE -> getLog().debug(msg + " (agentlock.onMissing=ignore)");
      case WARN -> {
        // once per build: in a multi-module build without agent.lock every module would say the same
        String[] first = BuildState.checked(session).putIfAbsent(
            "\u0000missing", new String[] {OK, project.getGroupId() + ":" + project.getArtifactId()});
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
