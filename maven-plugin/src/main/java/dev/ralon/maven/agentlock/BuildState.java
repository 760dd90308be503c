package dev.ralon.maven.agentlock;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.SessionData;

/**
 * State that lives exactly as long as one Maven build, so that one agent.lock shared by many modules is checked
 * (and one repository's changes are judged) once per build, not once per module.
 *
 * <p>Where it lives: in the {@link RepositorySystemSession#getData() session data} of the build's repository
 * session. Maven creates one repository session per build and drops it when the build ends, and its data map is
 * the resolver's documented place for per-session state of components. A {@code static} field would outlive the
 * build in a long-lived Maven (mvnd, an IDE's embedded Maven) and report nothing in the next build; a static map
 * keyed by the session would need weak references to avoid that leak. The value stored is a JDK map holding JDK
 * types only ({@code String}, {@code String[]}), so two plugin class realms of the same build can share it.
 *
 * <p>Thread safety: {@code -T} builds run modules in parallel. {@link ConcurrentMap#computeIfAbsent} runs the check
 * once per key; other modules asking for the same key wait for that result.
 */
final class BuildState {

    private static final String KEY = "dev.ralon.agentlock.maven.checked";

    static final String OK = "ok";
    private static final String FAILURE = "failure";
    private static final String ERROR = "error";

    /** A check that reports itself and throws when it does not pass. */
    interface Check {
        void run() throws MojoExecutionException, MojoFailureException;
    }

    private BuildState() {}

    @SuppressWarnings("unchecked")
    static ConcurrentMap<String, String[]> checked(MavenSession session) {
        SessionData data = session.getRepositorySession().getData();
        Object map = data.get(KEY);
        if (map == null) {
            // set(key, expected, new) is a compare-and-set: the first of racing modules wins, all then read its map
            data.set(KEY, null, new ConcurrentHashMap<String, String[]>());
            map = data.get(KEY);
        }
        return (ConcurrentMap<String, String[]>) map;
    }

    /**
     * Runs {@code check} the first time {@code key} is seen in this build; a later module logs one line starting with
     * {@code already} ("agent.lock /p/agent.lock was already checked in this build") and passes or fails as the first.
     */
    static void once(MavenSession session, String key, String module, String already, Log log, Check check)
            throws MojoExecutionException, MojoFailureException {
        Exception[] thrown = new Exception[1];
        String[] outcome = checked(session).computeIfAbsent(key, k -> {
            try {
                check.run();
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
            return; // reported by the check itself
        }
        String line = already + " in this build (module " + outcome[1] + ")";
        switch (outcome[0]) {
            case OK -> log.info(line + ": OK");
            case FAILURE -> throw new MojoFailureException(line + " and failed; see the errors reported there");
            default -> throw new MojoExecutionException(line + " and could not be done; see the error reported there");
        }
    }
}
