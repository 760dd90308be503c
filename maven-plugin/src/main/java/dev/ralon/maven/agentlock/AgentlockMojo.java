package dev.ralon.maven.agentlock;

import dev.ralon.policy.PolicyException;
import dev.ralon.policy.walk.PolicyDiscovery;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * What both goals share: the skip switches, the adoption mode and how problems are reported. Each problem is logged
 * on its own line, {@code [ERROR] /abs/path/agent.lock:L:C: reason} (or {@code [WARNING]}), the form IDEs and CI
 * annotators match; the exception that fails the build then carries only a one-line summary.
 */
abstract class AgentlockMojo extends AbstractMojo {

    /** Skip every agentlock goal ({@code true}/{@code false}; anything else is an error). */
    @Parameter(property = "agentlock.skip", defaultValue = "false")
    private String skip;

    /**
     * {@code false}: report problems as warnings and let the build go on (adopting agent.lock in an existing build,
     * or a report-only CI job). Configuration and machine errors still fail.
     */
    @Parameter(property = "agentlock.failOnError", defaultValue = "true")
    private String failOnError;

    /**
     * The agent.lock to use instead of searching. A relative path is relative to the module's base directory. Must
     * exist.
     */
    @Parameter(property = "agentlock.policyFile")
    protected File policyFile;

    @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
    protected File basedir;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    protected MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    protected MavenSession session;

    /** The goal's own skip parameter's property and value ({@code agentlock.check.skip}, ...). */
    abstract String goalSkipProperty();

    abstract String goalSkip();

    /** What this goal does, for the "skipped" line: "agent.lock check". */
    abstract String what();

    abstract void run() throws MojoExecutionException, MojoFailureException;

    @Override
    public final void execute() throws MojoExecutionException, MojoFailureException {
        boolean skipAll = Flag.parse("agentlock.skip", skip);
        boolean skipGoal = Flag.parse(goalSkipProperty(), goalSkip());
        Flag.parse("agentlock.failOnError", failOnError);
        if (skipAll || skipGoal) {
            getLog().info(what() + " skipped (" + (skipGoal ? goalSkipProperty() : "agentlock.skip") + ")");
            return;
        }
        run();
    }

    /**
     * The agent.lock files this plugin judges for {@code dir}: those in force there ({@link PolicyDiscovery}) up to the
     * root of the git repository that holds it, farthest first, then every agent.lock below the outermost of them
     * (or below {@code dir}), as {@code ralon run} enforces them ({@link PolicyDiscovery#inRepositoryTree}). A file above the repository belongs to another project
     * (a home directory's, a monorepo's parent): it is neither loaded nor walked, and one line per build says so
     * (ralon still enforces it on the command line). Outside a repository every file up to the file system root counts.
     */
    List<Path> policiesInRepository(Path dir) throws MojoExecutionException {
        PolicyDiscovery.InRepository found;
        try {
            found = PolicyDiscovery.inRepositoryTree(dir);
        } catch (PolicyException e) {
            throw new MojoExecutionException(PolicyCheck.describe(e, e.file()), e);
        }
        if (!found.outside().isEmpty()) {
            String files = String.join(", ", found.outside().stream().map(Path::toString).toList());
            if (BuildState.checked(session).putIfAbsent("\u0000outside\u0000" + files, new String[] {BuildState.OK, module()})
                    == null) {
                getLog().info("agent.lock " + files + " not checked: above the repository " + found.repositoryRoot()
                        + " (ralon still enforces it there)");
            }
        }
        return found.inside();
    }

    /**
     * Writes {@code results} as a SARIF log to {@code sarifFile} (nothing when it is not set); a file that cannot be
     * written is an execution error.
     */
    void writeSarif(File sarifFile, List<Sarif.Result> results) throws MojoExecutionException {
        if (sarifFile == null) {
            return;
        }
        Path out = sarifFile.toPath().toAbsolutePath().normalize();
        try {
            Sarif.write(out, results);
        } catch (java.io.IOException e) {
            throw new MojoExecutionException("agentlock: cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    String module() {
        return project.getGroupId() + ":" + project.getArtifactId();
    }

    /**
     * Reports problems that fail the build: each on its own {@code [ERROR]} line, then a failure with {@code summary};
     * with {@code failOnError=false} each on its own {@code [WARNING]} line and the build goes on.
     */
    void fail(List<String> problems, String summary) throws MojoExecutionException, MojoFailureException {
        if (Flag.parse("agentlock.failOnError", failOnError)) {
            for (String p : problems) {
                getLog().error(p);
            }
            throw new MojoFailureException(summary);
        }
        for (String p : problems) {
            getLog().warn(p);
        }
        getLog().warn(summary + " (agentlock.failOnError=false: the build goes on)");
    }
}
