package dev.ralon.enforcer.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What an enforcer will do for one {@link ProtectedSet}, in a form a person can read before anything happens
 * ({@code ralon run --dry-run}) and the enforcer can later apply.
 *
 * <p>A plan is <em>enforceable</em> when {@link #refusals()} is empty. The host never applies a plan with refusals
 * unless the user explicitly opted in, and then prints every refusal and every guarantee in {@link #missing()} before
 * the command starts.
 *
 * @param backend           the enforcer's name
 * @param steps             every action, in order: each mount, each rule, each namespace
 * @param createRestricted  directories that are not protected but whose entries can no longer be created, removed or
 *                          renamed while the sandbox runs (a side effect of the backend; empty for the mount backend)
 * @param warnings          things the user should know that do not weaken a declared guarantee
 * @param refusals          reasons this plan cannot be enforced as the backend's guarantees promise; each one line
 * @param missing           declared guarantees this particular plan cannot keep (e.g. because of a refusal)
 * @param payload           backend-private data carried from {@link Enforcer#plan} to {@link Enforcer#prepare}; the
 *                          host never looks inside; may be null
 */
public record Plan(String backend, List<Step> steps, List<Path> createRestricted, List<String> warnings,
                   List<String> refusals, Set<Guarantee> missing, Object payload) {
    public Plan {
        Objects.requireNonNull(backend, "backend");
        steps = List.copyOf(steps);
        createRestricted = List.copyOf(createRestricted);
        warnings = List.copyOf(warnings);
        refusals = List.copyOf(refusals);
        missing = Set.copyOf(missing);
    }

    /** True when the backend can keep every guarantee it declares for this protected set. */
    public boolean enforceable() {
        return refusals.isEmpty();
    }

    /**
     * One action of a plan.
     *
     * @param action a short verb phrase, stable for JSON consumers: e.g. "bind-readonly", "landlock-rule", "unshare"
     * @param path   the path it acts on, or null when it acts on none
     * @param detail what exactly, in plain words (flags, access rights, why)
     */
    public record Step(String action, Path path, String detail) {
        public Step {
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(detail, "detail");
        }

        @Override
        public String toString() {
            return path == null ? action + " " + detail : action + " " + path + (detail.isEmpty() ? "" : " (" + detail + ")");
        }
    }
}
