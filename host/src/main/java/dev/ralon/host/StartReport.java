package dev.ralon.host;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.policy.Policy;
import dev.ralon.policy.walk.PolicySet;
import dev.ralon.policy.Rule;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code ralon run} tells the user and the command when it starts: the one start line on stderr, the meaning of
 * the kernel's error codes where they mislead, the lines about what the run does not cover, and the {@code RALON_*}
 * environment variables (README, "Inside the sandbox").
 */
public final class StartReport {
    /** The backend's name, as the command sees it. */
    public static final String ENV_BACKEND = "RALON_BACKEND";
    /** The nearest policy file's absolute path (the others: {@code run --dry-run}). */
    public static final String ENV_POLICY = "RALON_POLICY";
    /** The policy root (the directory holding agent.lock: patterns are anchored there). */
    public static final String ENV_ROOT = "RALON_ROOT";
    /** How many paths are locked in this run (the start line's number). */
    public static final String ENV_LOCKED = "RALON_LOCKED";
    /** The errno names that mean "this path is protected" under the backend in use, space-separated. */
    public static final String ENV_DENIED_ERRNOS = "RALON_DENIED_ERRNOS";

    /** How many names a one-line list shows before "and N more". */
    private static final int NAMED = 3;

    private StartReport() {
    }

    /**
     * The one start line: how many paths are locked, by which backend, and what is not covered (missing paths the
     * backend cannot stop being created, patterns expanded at start).
     */
    public static String startLine(Enforcer enforcer, ProtectedSet planned, List<ProtectedPath> notPreventable,
                            PolicySet policy) {
        if (enforcer.guarantees().isEmpty()) {
            return "ralon: nothing is locked: the " + enforcer.name() + " backend enforces nothing";
        }
        int n = planned.paths().size();
        StringBuilder b = new StringBuilder("ralon: ").append(n).append(n == 1 ? " path" : " paths")
                .append(" locked via the ").append(enforcer.name()).append(" backend");
        List<String> exceptions = new ArrayList<>();
        if (!notPreventable.isEmpty()) {
            exceptions.add("creating " + names(notPreventable.stream().map(p -> rel(planned.root(), p.path())).toList())
                    + " (missing at start)");
        }
        List<String> expanded = expandedAtStart(policy).stream().map(Rule::pattern).toList();
        if (!expanded.isEmpty()) {
            exceptions.add("new files matching " + names(expanded) + " outside protected directories (expanded at start)");
        }
        if (!exceptions.isEmpty()) {
            b.append("; not covered: ").append(String.join("; ", exceptions));
        }
        return b.toString();
    }

    /**
     * The kernel's error codes that mean "protected" under {@code enforcer} ({@link Enforcer#deniedErrors()}), named
     * with their messages: agents read "Device or resource busy" (EBUSY: a mount point, mount(2)/rename(2)/unlink(2))
     * as "try again", and "Permission denied" (EACCES: Landlock, landlock(7)) as a permissions problem to work around.
     * Null when the backend denies nothing (noop).
     */
    public static String errnoLine(Enforcer enforcer) {
        List<String> named = enforcer.deniedErrors().stream().map(StartReport::describe).toList();
        if (named.isEmpty()) {
            return null;
        }
        String errors = named.size() == 1 ? named.get(0)
                : String.join(", ", named.subList(0, named.size() - 1)) + " and " + named.get(named.size() - 1);
        return "ralon: in this run " + errors + (named.size() == 1 ? " means" : " mean") + " the path is protected by"
                + " agent.lock, or lies outside the places the session may write (`ralon run --dry-run` lists them):"
                + " retrying will not help";
    }

    /** An errno name as the start line shows it: the message ({@code strerror}) first, then the name. */
    static String describe(String errno) {
        return switch (errno) {
            case "EROFS" -> "\"Read-only file system\" (EROFS)";
            case "EACCES" -> "\"Permission denied\" (EACCES)";
            case "EBUSY" -> "\"Device or resource busy\" (EBUSY, on rename or delete)";
            case "EXDEV" -> "\"Invalid cross-device link\" (EXDEV, on rename or link)";
            case "EPERM" -> "\"Operation not permitted\" (EPERM)";
            default -> errno;
        };
    }

    /** The errno names that mean "protected" under the backend ({@link #ENV_DENIED_ERRNOS}): its own word. */
    public static String deniedErrnos(Enforcer enforcer) {
        return String.join(" ", enforcer.deniedErrors());
    }

    /** The variables the command sees, besides RALON_BACKEND and RALON_POLICY. */
    public static void putEnv(Map<String, String> env, Enforcer enforcer, ProtectedSet planned) {
        env.put(ENV_ROOT, planned.root().toString());
        env.put(ENV_LOCKED, String.valueOf(enforcer.guarantees().isEmpty() ? 0 : planned.paths().size()));
        env.put(ENV_DENIED_ERRNOS, deniedErrnos(enforcer));
    }

    /**
     * The declared rules with a wildcard that do not only say "everything beneath a literal path": the run expands
     * them when it starts, so a path created later that matches one is protected only if it lies in a protected
     * directory (docs/spec-patterns.md).
     */
    public static List<Rule> expandedAtStart(PolicySet policies) {
        List<Rule> out = new ArrayList<>();
        for (Policy policy : policies.policies()) {
            for (Rule r : policy.declaredRules()) {
                if (!r.glob().isLiteral() && r.glob().literalHolder() == null) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /**
     * What the backend in use does to git (git writes {@code .git/index.lock} and new objects in {@code .git}): under
     * a backend whose plan makes {@code .git} create-restricted (landlock, when something in .git is protected),
     * commits fail; under mount, protecting {@code .git/hooks} or {@code .git/config} costs git nothing.
     */
    public static List<String> gitNotes(Enforcer enforcer, ProtectedSet set, Plan plan) {
        Path git = set.root().resolve(".git");
        if (plan.createRestricted().contains(git)) {
            return List.of("nothing can be created in " + git + " under the " + enforcer.name() + " backend (it leads"
                    + " to protected paths): git commit, checkout and even status fail in this run; the mount backend"
                    + " has no such cost");
        }
        return List.of();
    }

    private static String rel(Path root, Path p) {
        return p.startsWith(root) && !p.equals(root) ? root.relativize(p).toString() : p.toString();
    }

    private static String names(List<String> all) {
        return names(all, NAMED);
    }

    /** The first {@code named} of {@code all}, joined by {@code ", "}, then {@code " and N more"} when there are more. */
    public static String names(List<String> all, int named) {
        if (all.size() <= named) {
            return String.join(", ", all);
        }
        return String.join(", ", all.subList(0, named)) + " and " + (all.size() - named) + " more";
    }
}
