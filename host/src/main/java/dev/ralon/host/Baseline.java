package dev.ralon.host;

import dev.ralon.enforcer.spi.Confinement;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The baseline: paths that make code run later, <em>outside</em> the sandbox, which {@code ralon run} protects on
 * every run besides what agent.lock names, unless the user gives {@code --no-baseline}. They are not part of the
 * policy (agent.lock, {@code check} and the hooks are unchanged): they belong to the run.
 *
 * <p>What is in it, and why each (docs/security.md, "The baseline"):
 * <ul>
 *   <li>the repository's git files that git executes from or that decide what it executes: {@code config} (core.fsmonitor,
 *       core.hooksPath, filter/diff drivers, core.pager, core.sshCommand, include.path…), {@code hooks/}, a linked
 *       worktree's {@code .git} file and {@code commondir} (they say where config and hooks are read from),
 *       {@code config.worktree}, and the {@code config} and {@code hooks/} of every submodule's git directory under
 *       {@code modules/} ({@code git status} in the superproject runs in submodules too);</li>
 *   <li>what git's configuration points at, read as git reads it ({@link GitConfig}: the repository's, the global
 *       and the system files, and every file they include): the included files, {@code core.hooksPath},
 *       {@code core.attributesFile}, {@code core.excludesFile}, a {@code core.fsmonitor} program file, and the
 *       repository's {@code info/} directory (exclude, attributes);</li>
 *   <li>in the home directory: shell start-up and logout files (bash, sh, zsh at {@code $ZDOTDIR}, fish), git's
 *       global configuration, the two {@code PATH} directories the usual profiles put first ({@code ~/.local/bin},
 *       {@code ~/bin}: a planted {@code java} there would run the next {@code ralon}), {@code ~/.mavenrc} (sourced by
 *       {@code mvn}), {@code ~/.npmrc} (script-shell, node-options), ssh's {@code config}, {@code rc} and
 *       {@code authorized_keys}, gpg's {@code gpg-agent.conf}/{@code gpg.conf} (pinentry-program, photo-viewer),
 *       D-Bus session services, systemd user units and environment, desktop autostart entries;</li>
 *   <li>the project's code-running configuration that exists ({@link dev.ralon.policy.CodeRunningConfig}:
 *       {@code .mvn/jvm.config}, {@code .envrc}, {@code .vscode/}...), under the policy's root and the work tree's
 *       top;</li>
 *   <li>every directory on {@code PATH} the invoker can write (outside the project and temporary directories), and
 *       what starts the next {@code ralon} when the invoker can write it: the JDK, the {@code java} the launcher ran
 *       and its directory, the launcher with the links on the way, and its {@code .ralon-cds} archives or, for a
 *       release, its {@code lib/} (archive, JNA's library) and {@code share/} (completion) ({@link Start}). The
 *       invoker "can write" what it owns, too: it may chmod it writable first.</li>
 * </ul>
 * A path reached through symbolic links is protected at its real place, with every link on the way.
 *
 * <p>Per backend ({@link #apply}): an absent path is kept out of a backend that cannot stop creation
 * ({@link Guarantee#CREATE_MISSING}); a path whose protection would make a directory create-restricted that the policy
 * does not already make so (Landlock: protecting {@code ~/.bashrc} restricts {@code $HOME}, protecting
 * {@code .git/config} restricts {@code .git} and so every commit) is dropped; what a plan would refuse is dropped.
 * Every dropped path is reported with its reason, never silently.
 */
public final class Baseline {
    private Baseline() {
    }

    /**
     * One baseline path.
     *
     * @param display how it is shown: {@code ~/.bashrc}, {@code .git/config} (relative to the project), or absolute
     * @param why     what it makes run, in a few words
     * @param paths   what protecting it means: its real path, plus every symbolic link on the way to it (kind
     *                {@link ProtectedPath.Kind#SYMLINK}); kind {@link ProtectedPath.Kind#MISSING} when absent
     */
    public record Item(String display, String why, List<ProtectedPath> paths) {
        public boolean absent() {
            return paths.stream().anyMatch(p -> p.kind() == ProtectedPath.Kind.MISSING);
        }
    }

    /** A baseline path left out of a run, and why. */
    public record Dropped(Item item, String reason) {
    }

    /** The outcome for one backend: the protected set and plan to use, the items kept and those dropped. */
    public record Applied(ProtectedSet set, Plan plan, List<Item> kept, List<Dropped> dropped) {
        /**
         * The warning for the baseline's items that exist and that {@code backend} leaves unprotected, with the reasons;
         * null when there is none (an absent item is said by {@link #summary}).
         */
        public String existingNotProtected(String backend) {
            List<String> names = new ArrayList<>();
            for (Dropped d : dropped) {
                if (!d.item().absent()) {
                    names.add(d.item().display() + " (" + d.reason() + ")");
                }
            }
            return names.isEmpty() ? null : "baseline: NOT protected by " + backend + ", though they exist and run code"
                    + " later outside the sandbox: " + String.join("; ", names) + " (--no-baseline leaves the baseline out)";
        }

        /** The one line about the whole baseline under {@code backend} (notes), or null when it is empty. */
        public String summary(String backend) {
            if (kept.isEmpty() && dropped.isEmpty()) {
                return null;
            }
            StringBuilder s = new StringBuilder("baseline: " + kept.size() + " path" + (kept.size() == 1 ? "" : "s")
                    + " that run code later outside the sandbox protected too");
            List<String> absent = new ArrayList<>();
            Map<String, List<String>> other = new LinkedHashMap<>();
            for (Dropped d : dropped) {
                if (d.item().absent() && d.reason().startsWith(ABSENT)) {
                    absent.add(d.item().display());
                } else {
                    other.computeIfAbsent(d.reason(), k -> new ArrayList<>()).add(d.item().display());
                }
            }
            if (!absent.isEmpty()) {
                s.append("; ").append(absent.size()).append(" absent, whose creation ").append(backend)
                        .append(" cannot stop");
            }
            for (Map.Entry<String, List<String>> e : other.entrySet()) {
                s.append("; NOT protected by ").append(backend).append(": ").append(String.join(", ", e.getValue()))
                        .append(" (").append(e.getKey()).append(')');
            }
            return s.append(" (`ralon status` lists them; --no-baseline leaves them out)").toString();
        }
    }

    public static final String ABSENT = "absent: this backend cannot stop its creation";

    /**
     * The items {@code e} protects one by one in a session confined by {@code confinement}: when the backend declares
     * {@link Guarantee#WRITES_OUTSIDE} and the session is confined, only those inside a writable area (everything
     * outside is read-only already, and protecting it again would cost a bind, or under Landlock make its directory
     * create-restricted); otherwise all of them.
     */
    public static List<Item> forConfinement(Enforcer e, List<Item> items,
                                            Confinement confinement) {
        if (!confinement.confined() || !e.guarantees().contains(Guarantee.WRITES_OUTSIDE)) {
            return items;
        }
        List<Item> out = new ArrayList<>();
        for (Item i : items) {
            Path p = i.paths().get(i.paths().size() - 1).path();
            if (confinement.areas().stream().anyMatch(a -> a.directory() ? p.startsWith(a.path()) : p.equals(a.path()))) {
                out.add(i);
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------ what is in it

    /**
     * The baseline for a project whose policy lies in {@code projectRoot} (real), with the user's environment: the
     * paths listed above that concern it ({@link BaselineItems}).
     */
    public static List<Item> items(Path projectRoot, Map<String, String> env) {
        return BaselineItems.of(projectRoot, env, Start.current());
    }

    /** {@link #items(Path, Map)} for a ralon started as {@code start} says (tests give {@link Start#NONE}). */
    public static List<Item> items(Path projectRoot, Map<String, String> env, Start start) {
        return BaselineItems.of(projectRoot, env, start);
    }

    /**
     * How this ralon was started, for the baseline's items about its own start: each field an absolute path or null.
     *
     * @param javaHome     the JDK running this JVM ({@code java.home})
     * @param launcher     the launcher file as invoked ({@code -Dralon.launcher}, set by ralon.sh: {@code $0} made
     *                     absolute, not resolved)
     * @param launcherJava the {@code java} the launcher ran ({@code -Dralon.launcher.java}: from RALON_JAVA, JAVA_HOME
     *                     or PATH, not resolved)
     * @param tmpdir       {@code java.io.tmpdir}
     */
    public record Start(String javaHome, String launcher, String launcherJava, String tmpdir) {
        /** Nothing known about the start. */
        public static final Start NONE = new Start(null, null, null, null);

        /** This JVM's: from its system properties. */
        public static Start current() {
            return new Start(System.getProperty("java.home"), System.getProperty("ralon.launcher"),
                    System.getProperty("ralon.launcher.java"), System.getProperty("java.io.tmpdir"));
        }
    }

    // ------------------------------------------------------------------------------------------ per backend

    /**
     * What {@code enforcer} can add of {@code items} to the policy's {@code set}, whose plan is {@code plan}: absent
     * paths only when it keeps {@link Guarantee#CREATE_MISSING}; nothing that makes a plan refuse what it did not
     * refuse; nothing that makes a directory create-restricted that the policy's plan leaves free (the absent items
     * beneath such a directory are blamed first). Plans at most four times (once when nothing must be dropped).
     */
    public static Applied apply(Enforcer enforcer, ProtectedSet set, Plan plan, List<Item> items) {
        return apply(enforcer, set, plan, items, null);
    }

    /**
     * {@link #apply(Enforcer, ProtectedSet, Plan, List)}, where {@code withCandidates}, when not null, gives the plan it
     * makes first, {@code enforcer.plan(}{@link #withCandidates}{@code (enforcer, set, items))}, made ahead (on another
     * thread, by BackendSurvey); it is asked only when there are candidates, and a failure it throws is thrown
     * here as that plan() would throw it.
     */
    public static Applied apply(Enforcer enforcer, ProtectedSet set, Plan plan, List<Item> items,
                                java.util.function.Supplier<Plan> withCandidates) {
        List<Dropped> dropped = new ArrayList<>();
        if (enforcer.guarantees().isEmpty()) {
            for (Item i : items) {
                dropped.add(new Dropped(i, "backend " + enforcer.name() + " enforces nothing"));
            }
            return new Applied(set, plan, List.of(), dropped);
        }
        List<Item> candidates = candidates(enforcer, items, dropped);
        if (candidates.isEmpty()) {
            return new Applied(set, plan, List.of(), dropped);
        }
        Plan with = withCandidates != null ? withCandidates.get() : enforcer.plan(merge(set, candidates));
        List<Plan.Refusal> newRefusals = new ArrayList<>(with.refusals());
        newRefusals.removeAll(plan.refusals());
        Set<Path> newRestricted = new HashSet<>(with.createRestricted());
        newRestricted.removeAll(plan.createRestricted());
        if (newRefusals.isEmpty() && newRestricted.isEmpty()) {
            return new Applied(merge(set, candidates), with, candidates, dropped);
        }
        if (newRefusals.isEmpty()) {
            // Only new create-restricted directories: first blame the absent items beneath them. A plan can protect an
            // existing path without restricting its directories (landlock's contained route binds those outside the
            // project) but never an absent one, and dropping all beneath a directory for one absent name (an agent's
            // state directory: settings.json there, hooks/ not yet) would lose what exists for nothing.
            List<Item> present = new ArrayList<>();
            List<Dropped> absentDropped = new ArrayList<>();
            for (Item i : candidates) {
                Path under = i.absent() ? restrictedAncestor(i, newRestricted) : null;
                if (under == null) {
                    present.add(i);
                } else {
                    absentDropped.add(new Dropped(i, "it does not exist, and keeping it from being created would make " + under
                            + " create-restricted"));
                }
            }
            if (!absentDropped.isEmpty() && !present.isEmpty()) {
                Plan narrowed = enforcer.plan(merge(set, present));
                if (addsNothingTo(plan, narrowed)) {
                    dropped.addAll(absentDropped);
                    return new Applied(merge(set, present), narrowed, present, dropped);
                }
            }
        }
        List<Item> kept = new ArrayList<>();
        for (Item i : candidates) {
            String why = null;
            for (ProtectedPath p : i.paths()) {
                for (Plan.Refusal r : newRefusals) {
                    if (p.path().equals(r.path()) || r.reason().contains(p.path().toString())) {
                        why = "the plan refuses it: " + r.reason();
                    }
                }
            }
            Path under = why == null ? restrictedAncestor(i, newRestricted) : null;
            if (under != null) {
                why = "it would make " + under + " create-restricted";
            }
            if (why == null) {
                kept.add(i);
            } else {
                dropped.add(new Dropped(i, why));
            }
        }
        if (kept.isEmpty()) {
            return new Applied(set, plan, kept, dropped);
        }
        Plan last = enforcer.plan(merge(set, kept));
        if (!addsNothingTo(plan, last)) {
            for (Item i : kept) {
                dropped.add(new Dropped(i, "its plan differs from the policy's in a way that cannot be narrowed"));
            }
            return new Applied(set, plan, List.of(), dropped);
        }
        return new Applied(merge(set, kept), last, kept, dropped);
    }

    /**
     * The set {@link #apply} plans first for {@code enforcer}: {@code set} with every item it can be asked to keep
     * (absent ones only when it keeps {@link Guarantee#CREATE_MISSING}, none of a kind it does not declare it
     * covers); null when there is none, or when it enforces nothing (then apply plans nothing).
     */
    public static ProtectedSet withCandidates(Enforcer enforcer, ProtectedSet set, List<Item> items) {
        if (enforcer.guarantees().isEmpty()) {
            return null;
        }
        List<Item> candidates = candidates(enforcer, items, new ArrayList<>());
        return candidates.isEmpty() ? null : merge(set, candidates);
    }

    /** Whether {@code candidate} refuses what {@code policy} refuses and restricts no directory it leaves free. */
    private static boolean addsNothingTo(Plan policy, Plan candidate) {
        return candidate.refusals().equals(policy.refusals())
                && new HashSet<>(policy.createRestricted()).containsAll(candidate.createRestricted());
    }

    /** The nearest directory of {@code restricted} above one of the item's paths, or null. */
    private static Path restrictedAncestor(Item item, Set<Path> restricted) {
        for (ProtectedPath p : item.paths()) {
            for (Path a = p.path().getParent(); a != null; a = a.getParent()) {
                if (restricted.contains(a)) {
                    return a;
                }
            }
        }
        return null;
    }

    /** The items {@code enforcer} can be asked to keep; the others are added to {@code dropped}, with the reason. */
    private static List<Item> candidates(Enforcer enforcer, List<Item> items, List<Dropped> dropped) {
        List<Item> candidates = new ArrayList<>();
        for (Item i : items) {
            ProtectedPath uncovered = i.paths().stream().filter(p -> p.kind() != ProtectedPath.Kind.MISSING
                    && !enforcer.coveredKinds().contains(p.kind())).findFirst().orElse(null);
            if (i.absent() && !enforcer.guarantees().contains(Guarantee.CREATE_MISSING)) {
                dropped.add(new Dropped(i, ABSENT));
            } else if (uncovered != null) { // host-side admission would refuse the run for it (Admission)
                dropped.add(new Dropped(i, "backend " + enforcer.name() + " does not declare that it covers "
                        + uncovered.path() + " (" + uncovered.kind().name().toLowerCase(java.util.Locale.ROOT) + ")"));
            } else {
                candidates.add(i);
            }
        }
        return candidates;
    }

    /**
     * The policy's set with the items' paths added: a path the set already protects (or that lies in a protected
     * directory) is not added again; a set path beneath an added directory gives way to it (a directory stands for its
     * subtree, ProtectedSet's contract).
     */
    public static ProtectedSet merge(ProtectedSet set, List<Item> items) {
        Map<Path, ProtectedPath> all = new LinkedHashMap<>();
        for (ProtectedPath p : set.paths()) {
            all.put(p.path(), p);
        }
        for (Item i : items) {
            for (ProtectedPath p : i.paths()) {
                if (all.containsKey(p.path()) || coveredBy(all, p.path())) {
                    continue;
                }
                if (p.kind() == ProtectedPath.Kind.DIRECTORY) {
                    all.keySet().removeIf(q -> q.startsWith(p.path()));
                }
                all.put(p.path(), p);
            }
        }
        List<ProtectedPath> paths = new ArrayList<>(all.values());
        paths.sort(Comparator.comparing(ProtectedPath::path));
        return ProtectedSet.of(set.root(), set.policyFile(), paths, set.warnings());
    }

    private static boolean coveredBy(Map<Path, ProtectedPath> all, Path p) {
        for (Path a = p.getParent(); a != null; a = a.getParent()) {
            ProtectedPath q = all.get(a);
            if (q != null && q.kind() == ProtectedPath.Kind.DIRECTORY) {
                return true;
            }
        }
        return false;
    }
}
