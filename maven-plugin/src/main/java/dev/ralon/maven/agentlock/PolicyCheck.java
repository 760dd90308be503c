package dev.ralon.maven.agentlock;

import dev.ralon.policy.Expansion;
import dev.ralon.policy.FileNames;
import dev.ralon.policy.Policy;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.PolicyLoader;
import dev.ralon.policy.PolicySet;
import dev.ralon.policy.Rule;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The check behind {@code agentlock:check}, free of Maven types so it can be tested directly.
 *
 * <p>Contract: {@link #run} loads the policy with {@link PolicyLoader} (which stops at the first error, so at most
 * one policy error is reported per run), or takes the policies in force ({@link PolicySet}: every agent.lock from the
 * module up, each only adding), expands them against the file system, and returns what to report. It never
 * logs and never swallows a fault: policy errors and I/O faults of the loader come out as {@link PolicyException},
 * I/O faults while walking the tree as {@link IOException}.
 */
final class PolicyCheck {

  /** What the check found. {@code failures} empty means the build may go on. */
  record Result(String summary, List<String> warnings, List<String> failures) {}

  private PolicyCheck() {}

  /**
   * Formats a policy error as {@code /absolute/agent.lock:line:column: reason} (line and column left out when the
   * error concerns the whole file). Unlike {@link PolicyException#getMessage()}, which shows the file relative to
   * the working directory, the path is absolute: in a multi-module build the working directory says nothing.
   */
  static String describe(PolicyException e, Path file) {
    StringBuilder sb = new StringBuilder(file.toAbsolutePath().normalize().toString());
    if (e.line() > 0) {
      sb.append(':').append(e.line());
      if (e.column() > 0) {
        sb.append(':').append(e.column());
      }
    }
    return sb.append(": ").append(e.reason()).toString();
  }

  /**
   * @param file the agent.lock to check
   * @param failOnUnmatched whether a pattern that matches nothing is a failure (otherwise a warning)
   * @param required normalised paths (see {@link RequiredPath}) that the policy must protect
   */
  static Result run(Path file, boolean failOnUnmatched, List<String> required)
      throws PolicyException, IOException {
    return run(PolicySet.explicit(PolicyLoader.load(file)), failOnUnmatched, required);
  }

  /**
   * Checks every policy of {@code policies} together: each one's patterns that match nothing, each one's remarks, and
   * the required paths, relative to the nearest policy's directory, against all of them (a path any of them protects
   * is protected).
   */
  static Result run(PolicySet policies, boolean failOnUnmatched, List<String> required) throws IOException {
    Expansion expansion = policies.expand(true);
    List<String> warnings = new ArrayList<>();
    for (Policy p : policies.policies()) {
      warnings.addAll(p.warnings());
    }
    List<String> remarks = new ArrayList<>(expansion.warnings());
    List<String> failures = new ArrayList<>();
    for (Rule rule : expansion.unmatched()) { // never holds the implicit self-protection rule
      // policy-core words a remark for each unmatched pattern ("pattern "p" (agent.lock:4) matches nothing that
      // exists", or why a slash-less one would match deeper): report that text once, at file:line:col.
      String quoted = "pattern \"" + rule.pattern() + "\"";
      String prefix = quoted + " (" + rule.location(policies.namesByFileName()) + ")";
      String text = quoted + " matches nothing";
      for (int i = 0; i < remarks.size(); i++) {
        if (remarks.get(i).startsWith(prefix)) {
          text = quoted + remarks.remove(i).substring(prefix.length());
          break;
        }
      }
      String msg = rule.file().toAbsolutePath().normalize() + ":" + rule.line() + ":" + rule.column() + ": " + text;
      (failOnUnmatched ? failures : warnings).add(msg);
    }
    Policy nearest = policies.nearest();
    String shown = String.join(", ", policies.files().stream().map(f -> f.toAbsolutePath().normalize().toString()).toList());
    // What the protected set may miss (a directory that cannot be listed, a name this JVM cannot read as UTF-8) fails
    // the check: the answer would otherwise differ from ralon's, silently. Maven's JVM reads file names with the
    // locale Maven was started under, which the plugin does not choose: ASCII names read the same under every
    // locale; a non-ASCII one under C, POSIX or no locale is reported here with what to do.
    for (String inc : expansion.incomplete()) {
      remarks.remove(inc);
      failures.add(shown + ": " + inc);
    }
    for (String w : remarks) {
      if (!warnings.contains(w)) {
        warnings.add(w);
      }
    }
    for (String path : required) {
      Path abs;
      try {
        abs = nearest.root().resolve(path).normalize();
      } catch (java.nio.file.InvalidPathException e) {
        failures.add(nearest.file().toAbsolutePath().normalize() + ": required path \"" + path
            + "\" cannot be represented in this JVM (file names are read as " + FileNames.encoding() + ")");
        continue;
      }
      if (!policies.isProtectedLexically(abs)) {
        failures.add(nearest.file().toAbsolutePath().normalize() + ": required path \"" + path
            + "\" is not protected (no pattern " + (policies.policies().size() == 1 ? "" : "of " + shown + " ")
            + "covers " + abs + ")");
      }
    }
    String notUtf8 = FileNames.notUtf8Reason();
    if (!failures.isEmpty() && notUtf8 != null) {
      failures.add("agentlock: " + notUtf8 + "; Maven's own locale decides it: LC_ALL=C.UTF-8 mvn ...");
    }
    int patterns = 0;
    for (Policy p : policies.policies()) {
      patterns += p.declaredRules().size();
    }
    long onDisk = expansion.entries().stream().filter(e -> e.kind() != Expansion.Entry.Kind.MISSING).count();
    String summary = "agent.lock OK: " + shown + " (" + patterns + " pattern" + (patterns == 1 ? "" : "s")
        + ", " + onDisk + " protected path" + (onDisk == 1 ? "" : "s") + " on disk" + (required.isEmpty() ? "" : ", " + required.size() + " required path"
        + (required.size() == 1 ? "" : "s") + " protected") + ")";
    return new Result(summary, List.copyOf(warnings), List.copyOf(failures));
  }
}
