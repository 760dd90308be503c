package dev.ralon.host;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Host-side admission: what a plan leaves uncovered, decided by the host from the backend's <em>declared</em>
 * guarantees and covered kinds (which the conformance kit attacks for real), for every enforcer alike; never from the
 * plan's own account of itself. A backend that silently skips a path it cannot protect gets the same verdict as one
 * that says so.
 *
 * <p>The rules (docs/spec.md, "Admission"; docs/security.md, "What a run does not cover"):
 * <ol>
 *   <li>Every refusal in the plan stands.</li>
 *   <li>An incomplete expansion (a directory that could not be listed) is refused: the set may miss a path.</li>
 *   <li>An existing protected path of a kind the backend does not list in {@link Enforcer#coveredKinds()} (a symbolic
 *       link, a device, fifo or socket, or a kind a later version adds) is refused, costing every declared
 *       guarantee for that path.</li>
 *   <li>A literal path that does not exist ({@link ProtectedPath.Kind#MISSING}) under a backend that does not declare
 *       {@link Guarantee#CREATE_MISSING} is not refused: the run starts, and the host says in one line, before the
 *       command starts, that it is not protected against creation. That guarantee was never declared, so no declared
 *       guarantee is lost; refusing would make the machine's default backend (mount) unusable with the most common
 *       policy (a {@code .env.production} not created yet), and the only opt-in left would be
 *       {@code --allow-degraded}, which hides real losses. Under a backend that declares it, creation is refused by
 *       the kernel.</li>
 * </ol>
 * Any refusal stops the run (exit 2) unless {@code --allow-degraded}; the notice never does.
 *
 * @param refusals           the plan's and the host's, in that order
 * @param notCreateProtected missing literal paths that the run does not protect against creation
 */
public record Admission(List<Plan.Refusal> refusals, List<Path> notCreateProtected) {

    public static Admission of(Enforcer enforcer, ProtectedSet set, Plan plan, List<String> incomplete) {
        List<Plan.Refusal> refusals = new ArrayList<>(plan.refusals());
        Set<Guarantee> declared = enforcer.guarantees();
        for (String why : incomplete) {
            refusals.add(Plan.Refusal.of(null, why, declared));
        }
        Set<ProtectedPath.Kind> covered = enforcer.coveredKinds();
        List<Path> notCreateProtected = new ArrayList<>();
        for (ProtectedPath p : set.paths()) {
            if (p.kind() == ProtectedPath.Kind.MISSING) {
                if (!declared.contains(Guarantee.CREATE_MISSING)) {
                    notCreateProtected.add(p.path());
                }
            } else if (!covered.contains(p.kind()) && !declared.isEmpty()) {
                refusals.add(Plan.Refusal.of(p.path(), p.path() + " is " + kindWords(p.kind()) + ", and backend "
                        + enforcer.name() + " does not declare that it protects " + plural(p.kind()), declared));
            }
        }
        return new Admission(List.copyOf(refusals), List.copyOf(notCreateProtected));
    }

    public boolean enforceable() {
        return refusals.isEmpty();
    }

    /** The reasons, one line each. */
    public List<String> reasons() {
        return refusals.stream().map(Plan.Refusal::reason).toList();
    }

    /**
     * The one line said before the command starts when missing literal paths are not protected against creation, or
     * null when there are none: relative to {@code root}, at most three named.
     */
    public String notCreateProtectedLine(String backend, Path root) {
        if (notCreateProtected.isEmpty()) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (Path p : notCreateProtected) {
            if (names.size() == 3) {
                names.add("and " + (notCreateProtected.size() - 3) + " more");
                break;
            }
            names.add(p.startsWith(root) ? root.relativize(p).toString() : p.toString());
        }
        return "not protected against creation: " + String.join(", ", names) + " (does not exist, and backend "
                + backend + " cannot stop " + (notCreateProtected.size() == 1 ? "it" : "them")
                + " being created; create " + (notCreateProtected.size() == 1 ? "it" : "them")
                + " before the run, or use a backend that declares create-missing)";
    }

    private static String plural(ProtectedPath.Kind kind) {
        return switch (kind) {
            case SYMLINK -> "symbolic links";
            case OTHER -> "special files";
            default -> kind.name().toLowerCase(Locale.ROOT) + " paths";
        };
    }

    private static String kindWords(ProtectedPath.Kind kind) {
        return switch (kind) {
            case SYMLINK -> "a symbolic link";
            case OTHER -> "a special file (device, fifo or socket)";
            default -> "a " + kind.name().toLowerCase(Locale.ROOT);
        };
    }
}
