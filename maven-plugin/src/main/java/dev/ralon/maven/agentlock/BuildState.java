package dev.ralon.maven.agentlock;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.maven.execution.MavenSession;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.SessionData;

/**
 * State that lives exactly as long as one Maven build, so that one agent.lock shared by many modules is checked
 * and reported once per build, not once per module.
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
}
