package dev.ralon.policy.git;

import dev.ralon.policy.CodeRunningConfig;
import dev.ralon.policy.FileNames;
import dev.ralon.policy.Paths2;
import dev.ralon.policy.Policy;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.Rule;
import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.PolicyDiscovery;
import dev.ralon.policy.walk.PolicySet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Protected paths that changed: what a branch would carry since it left a base revision, or what the next commit
 * records (the index against HEAD). For a base A, the union of three layers (docs/spec.md §2.3): the commits from
 * the merge base to HEAD, the index against HEAD, and the work tree against the index (tracked changes, deletions,
 * untracked files that are not ignored), the last compared by content for protected entries whatever the index's
 * flags ({@link IndexCheck}); so a change written only into git's objects and committed, the file on disk untouched,
 * is found. {@link CodeRunningConfig} files are reported whether or not a rule protects them, ignored ones included
 * (listed with {@code git ls-files --others --ignored --exclude-standard} restricted to those entries, so the walk
 * never enters an ignored build directory). Rename detection is on, and both sides of a rename are judged. Each path is judged by the work tree's policy,
 * the policy at the merge base and (for {@code A...B}) the policy at B, so a change cannot un-protect what it then
 * changes. Used by {@code ralon check --changed/--staged} and by the Maven plugin's {@code changed} goal. Every git
 * command runs through {@link HardenedGit}: nothing the repository configures is executed.
 *
 * <p>The base, as given:
 * <ul>
 *   <li>{@code A}: the commits, the index and the work tree against the merge base of A and HEAD (what the branch
 *       changed, not what A did since);</li>
 *   <li>{@code A...B}: commit B against the merge base of A and B (git diff's meaning; an empty side means HEAD);</li>
 *   <li>{@code A..B}: refused, it means the two end points to {@code git diff} and the branch's own commits to
 *       {@code git log}; the message says to write {@code A...B};</li>
 *   <li>none: HEAD, except under {@code CI=true}, where a guard that compares HEAD with itself would pass by
 *       accident in the usual detached CI checkout: refused with what to pass.</li>
 * </ul>
 * A base that git does not know, or no merge base (a shallow clone that stops before the branch point), is an error
 * that says what to fetch.
 */
public final class ChangedPaths {
    /**
     * One protected change.
     *
     * @param status git's letter: A, M, D, R, C, T
     * @param path   the path (the destination of a rename), relative to the repository's top level
     * @param from   the source of a rename or copy, else null
     * @param rules  the rules that protect either side, each pattern once (empty for code-running configuration
     *               that no rule protects)
     * @param where  where the change is, in this order, each once: {@link #COMMITS} (the commits from the merge base
     *               to HEAD, or to B), {@link #INDEX} (the index against HEAD), {@link #WORKTREE} (the work tree
     *               against the index: tracked changes, deletions, untracked files that are not ignored),
     *               {@link #IGNORED} (an untracked file git ignores)
     * @param codeRunning for a path of {@link CodeRunningConfig}, what it makes run (reported whether or not a rule
     *               protects it); else null
     */
    public record Finding(String status, String path, String from, List<Rule> rules, List<String> where,
            String codeRunning) {
        /** A change protected by {@code rules} (no place, not code-running configuration), as before places existed. */
        public Finding(String status, String path, String from, List<Rule> rules) {
            this(status, path, from, rules, List.of(), null);
        }
    }

    /**
     * What was compared, and what was found.
     *
     * @param base     the base as given (HEAD when none was given)
     * @param against  what was compared, in words: "the work tree against origin/main (merge base 1a2b3c4d5e6f)", the
     *                 merge base named when the base has moved on since the branch left it
     */
    public record Result(Path top, String base, boolean staged, String against, List<Finding> findings) {
    }

    private ChangedPaths() {
    }

    /** Whether {@code env} says the process runs under CI ({@code CI=true}, set by GitHub Actions, GitLab CI, ...). */
    public static boolean underCi(Map<String, String> env) {
        return "true".equalsIgnoreCase(env.getOrDefault("CI", "").trim());
    }

    /**
     * Protected paths changed in the repository holding {@code dir}.
     *
     * <p>Each path is judged by every policy of {@code policies} as it is on disk, and by every agent.lock as it was at
     * each compared revision (the merge base; for {@code A...B} also B; for {@code staged} HEAD): for a discovered
     * set, the agent.lock of each directory from {@code dir} up to the repository's top level (so a change that
     * deletes or weakens any policy in force still has its changes judged by the policy it replaced); for an explicit
     * set, the named file.
     *
     * @param policies   the policies in force for {@code dir} in the work tree
     * @param base       the base revision ({@code A} or {@code A...B}); null for the default; ignored when {@code staged}
     * @param staged     compare the index with HEAD instead
     * @param ci         whether the caller runs under CI ({@code CI=true}): then a null base is an error
     * @param baseOption how the caller's user passes a base, for messages: {@code --changed } or {@code -Dagentlock.base=}
     * @throws PolicyException when a policy at a compared revision exists but is not valid
     */
    public static Result find(PolicySet policies, Path dir, String base, boolean staged, boolean ci, String baseOption)
            throws GitException, PolicyException {
        HardenedGit git = HardenedGit.in(dir);
        Path top = Path.of(new String(git.run("rev-parse", "--show-toplevel"), StandardCharsets.UTF_8).trim());
        try {
            top = top.toRealPath();
        } catch (IOException e) {
            // keep git's answer
        }
        Path real = realOrSame(dir);
        if (!real.startsWith(top)) {
            throw new GitException("git's work tree " + top + " does not contain " + real
                    + " (core.worktree or a .git file points elsewhere); Ralon checks only the repository it runs in");
        }
        git = HardenedGit.in(top);
        Changes changes = new Changes();
        // the revisions whose policy also judges: {commit, label}; the label names the policy in messages
        // ("main:agent.lock:4"), the name the user gave where it names that commit, else the short commit id
        List<String[]> revisions = new ArrayList<>();
        String given = base == null ? "HEAD" : base;
        String against;
        boolean workTree = false;
        if (staged) {
            changes.add(INDEX, diff(git, "--cached", "HEAD"));
            revisions.add(new String[] {"HEAD", "HEAD"});
            against = "the index against HEAD";
        } else {
            if (base == null && ci) {
                throw new GitException("no base revision given and CI=true: comparing HEAD with itself would find "
                        + "nothing; pass " + baseOption + "origin/main (the branch the change goes into, fetched: "
                        + "fetch-depth: 0 in actions/checkout, GIT_DEPTH: 0 in GitLab) or " + baseOption + "HEAD^1 "
                        + "on a pull request's merge commit");
            }
            String from = given;
            String to = null;
            int dots = given.indexOf("...");
            if (dots >= 0) {
                from = given.substring(0, dots).isEmpty() ? "HEAD" : given.substring(0, dots);
                to = given.substring(dots + 3).isEmpty() ? "HEAD" : given.substring(dots + 3);
            } else if (given.contains("..")) {
                throw new GitException("\"" + given + "\" is ambiguous for a change guard (the two end points to git "
                        + "diff, the branch's commits to git log): write " + given.replace("..", "...")
                        + " for what the second side changed since it left the first, or just the first side to "
                        + "judge the work tree");
            }
            String fromCommit = resolve(git, from);
            String toCommit = resolve(git, to == null ? "HEAD" : to);
            String mergeBase = mergeBase(git, from, fromCommit, to == null ? "HEAD" : to, toCommit);
            if (to == null) {
                workTree = true;
                // the net change, the work tree against the merge base: only its letters and rename pairs are used
                // (what a reader expects to see); what is reported comes from the three layers below, since this
                // comparison alone reads the work tree where the index says so and misses what the commits and
                // the index carry but the work tree does not (a blob written with update-index --cacheinfo)
                changes.net(diff(git, mergeBase));
                for (String p : split(git.run("ls-files", "-z", "--others", "--exclude-standard"))) {
                    changes.net(List.<String[]>of(new String[] {"A", p, null}));
                    changes.add(WORKTREE, List.<String[]>of(new String[] {"A", p, null}));
                }
                if (!mergeBase.equals(toCommit)) {
                    changes.add(COMMITS, diff(git, mergeBase, toCommit));
                }
                changes.add(INDEX, diff(git, "--cached", "HEAD"));
                changes.add(WORKTREE, diff(git));
                against = "the work tree against " + given;
            } else {
                changes.add(COMMITS, diff(git, mergeBase, toCommit));
                revisions.add(new String[] {toCommit, to});
                against = to + " against " + from;
            }
            if (!mergeBase.equals(fromCommit)) { // the base moved on since the branch left it: say where it left
                against += " (merge base " + mergeBase.substring(0, Math.min(12, mergeBase.length())) + ")";
            }
            revisions.add(0, new String[] {mergeBase, mergeBase.equals(fromCommit) ? from
                    : mergeBase.substring(0, Math.min(12, mergeBase.length()))});
        }
        List<Policy> judges = new ArrayList<>(policies.policies());
        for (Path file : policyFilesAtBase(policies, dir, top)) {
            String rel = top.relativize(file).toString();
            for (String[] rev : revisions) {
                Optional<byte[]> old = show(git, rev[0], rel);
                if (old.isPresent()) {
                    judges.add(PolicyLoader.parse(old.get(), Path.of(rev[1] + ":" + rel), file, file.getParent()));
                }
            }
        }
        List<String> projectRoots = projectRoots(policies, top);
        if (staged || workTree) {
            if (workTree) {
                IndexCheck.run(git, top, judges, projectRoots, changes);
            } else {
                // code-running configuration that git does not show: untracked, ignored or not
                List<String> specs = codeRunningPathspecs(projectRoots, true);
                for (String p : split(git.run(concat(List.of("ls-files", "-z", "--others", "--exclude-standard",
                        "--"), specs)))) {
                    changes.add(WORKTREE, List.<String[]>of(new String[] {"A", p, null}));
                }
            }
            // ignored files are listed only beneath the code-running entries: the listing of every ignored file
            // (build output, node_modules) would cost a walk of all of it and report noise
            // (and not the user-local entries, .idea/ and .vscode/, which most projects ignore on purpose:
            // CodeRunningConfig.Entry.userLocal)
            List<String> specs = codeRunningPathspecs(projectRoots, false);
            for (String p : split(git.run(concat(List.of("ls-files", "-z", "--others", "--ignored",
                    "--exclude-standard", "--"), specs)))) {
                changes.add(IGNORED, List.<String[]>of(new String[] {"A", p, null}));
            }
        }
        List<Finding> findings = new ArrayList<>();
        for (Changes.Change c : changes.all()) {
            List<String> sides = c.from == null ? List.of(c.path) : List.of(c.from, c.path);
            Map<String, Rule> byPattern = new LinkedHashMap<>();
            String codeRunning = null;
            for (String side : sides) {
                Path changed;
                try {
                    changed = top.resolve(side);
                } catch (java.nio.file.InvalidPathException e) {
                    String why = FileNames.notUtf8Reason();
                    throw new GitException("cannot judge " + side + ": " + (why != null ? why : e.getMessage()));
                }
                for (Policy p : judges) {
                    for (Rule r : p.check(changed)) {
                        byPattern.putIfAbsent(r.file() + "\0" + r.pattern() + "\0" + r.line(), r);
                    }
                }
                if (codeRunning == null) {
                    CodeRunningConfig.Entry e = codeRunning(projectRoots, side);
                    codeRunning = e == null ? null : e.why();
                }
            }
            if (!byPattern.isEmpty() || codeRunning != null) {
                List<String> where = c.where.isEmpty() ? List.of(WORKTREE) : List.copyOf(c.where);
                findings.add(new Finding(c.status, c.path, c.from, List.copyOf(byPattern.values()), where,
                        codeRunning));
            }
        }
        return new Result(top, given, staged, against, findings);
    }

    /** Where a change is: in the commits since the merge base, the index against HEAD, the work tree, ignored files. */
    public static final String COMMITS = "commits";
    /** See {@link #COMMITS}. */
    public static final String INDEX = "index";
    /** See {@link #COMMITS}. */
    public static final String WORKTREE = "worktree";
    /** See {@link #COMMITS}. */
    public static final String IGNORED = "ignored";

    /** {@code git diff --name-status} with renames, hardened, of the given revisions (none: the index and the work tree). */
    private static List<String[]> diff(HardenedGit git, String... revisions) throws GitException {
        List<String> args = new ArrayList<>(List.of("diff", "--name-status", "-z", "-M", "--no-ext-diff",
                "--no-textconv", "--ignore-submodules=none"));
        args.addAll(List.of(revisions));
        args.add("--");
        return parse(git.run(args.toArray(String[]::new)));
    }

    private static String[] concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all.toArray(String[]::new);
    }

    /**
     * The directories, relative to the top with a trailing {@code /} ({@code ""} for the top), at which
     * {@link CodeRunningConfig} entries are looked for: the repository's top and the directory of each policy in force
     * inside it.
     */
    private static List<String> projectRoots(PolicySet policies, Path top) {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        out.add("");
        for (Policy p : policies.policies()) {
            Path root = realOrSame(p.root());
            String rel = Paths2.relativeBeneath(top, root);
            if (rel != null) {
                out.add(rel + "/");
            }
        }
        return List.copyOf(out);
    }

    /** The code-running entry covering {@code rel} (relative to the top) at one of {@code roots}, or null. */
    static CodeRunningConfig.Entry codeRunning(List<String> roots, String rel) {
        for (String root : roots) {
            if (rel.startsWith(root)) {
                CodeRunningConfig.Entry e = CodeRunningConfig.covering(rel.substring(root.length()));
                if (e != null) {
                    return e;
                }
            }
        }
        return null;
    }

    /** Literal, top-anchored pathspecs of every code-running entry at every root (the user-local ones if asked). */
    private static List<String> codeRunningPathspecs(List<String> roots, boolean userLocal) {
        List<String> out = new ArrayList<>();
        for (String root : roots) {
            for (CodeRunningConfig.Entry e : CodeRunningConfig.ENTRIES) {
                if (e.userLocal() && !userLocal) {
                    continue;
                }
                out.add(":(top,literal)" + root + e.bare());
            }
        }
        return out;
    }

    /** The changes found, by path (the destination of a rename), each with where it was seen. */
    static final class Changes {
        static final class Change {
            String status;
            final String path;
            String from;
            final java.util.Set<String> where = new java.util.LinkedHashSet<>();
            boolean netLetter;

            Change(String status, String path, String from) {
                this.status = status;
                this.path = path;
                this.from = from;
            }
        }

        private final Map<String, Change> byPath = new LinkedHashMap<>();

        /** The net change's letters and rename pairs (no place of its own). */
        void net(List<String[]> triples) {
            for (String[] t : triples) {
                Change c = byPath.computeIfAbsent(t[1], k -> new Change(t[0], t[1], t[2]));
                c.status = t[0];
                c.from = t[2] != null ? t[2] : c.from;
                c.netLetter = true;
            }
        }

        /** Changes seen in one layer; a path not in the net change takes the letter of the first layer naming it. */
        void add(String layer, List<String[]> triples) {
            for (String[] t : triples) {
                Change c = byPath.computeIfAbsent(t[1], k -> new Change(t[0], t[1], t[2]));
                if (c.from == null && t[2] != null && !c.netLetter) {
                    c.from = t[2];
                }
                c.where.add(layer);
            }
        }

        boolean seen(String path, String layer) {
            Change c = byPath.get(path);
            return c != null && c.where.contains(layer);
        }

        /** The changes that some layer saw (a net change no layer saw is kept too, placed in the work tree). */
        List<Change> all() {
            return List.copyOf(byPath.values());
        }
    }

    /** The work-tree paths whose version at the compared revisions also judges the changes (see {@link #find}). */
    private static List<Path> policyFilesAtBase(PolicySet policies, Path dir, Path top) {
        java.util.Set<Path> files = new java.util.LinkedHashSet<>();
        for (Policy p : policies.policies()) {
            if (p.file().startsWith(top)) {
                files.add(p.file());
            }
        }
        if (!policies.isExplicit()) {
            for (Path d = realOrSame(dir); d != null && d.startsWith(top); d = d.getParent()) {
                files.add(d.resolve(PolicyDiscovery.FILE_NAME));
            }
        }
        return List.copyOf(files);
    }

    /** The commit {@code rev} names, or an error saying what to fetch. */
    private static String resolve(HardenedGit git, String rev) throws GitException {
        if (rev.startsWith("-")) {
            throw new GitException("\"" + rev + "\" is not a revision");
        }
        HardenedGit.Output o = git.attempt("rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}");
        if (o.exit() == 0) {
            return o.text();
        }
        if (shallow(git)) {
            return fail("unknown revision \"" + rev + "\" in this shallow clone: fetch it with enough history to "
                    + "reach where the branch left it (git fetch --depth=N origin BRANCH, fetch-depth: 0 in "
                    + "actions/checkout, GIT_DEPTH: 0 in GitLab CI)");
        }
        return fail("unknown revision \"" + rev + "\": fetch it first (git fetch origin BRANCH) or name a branch, "
                + "tag or commit that exists in this repository");
    }

    private static String mergeBase(HardenedGit git, String a, String aCommit, String b, String bCommit)
            throws GitException {
        if (aCommit.equals(bCommit)) {
            return aCommit;
        }
        HardenedGit.Output o = git.attempt("merge-base", aCommit, bCommit);
        if (o.exit() == 0) {
            return o.text().lines().findFirst().orElseThrow();
        }
        if (shallow(git)) {
            return fail("no merge base of " + a + " and " + b + " in this shallow clone: the history stops before "
                    + "the branch left " + a + "; fetch more (git fetch --deepen=N, or --unshallow; fetch-depth: 0 "
                    + "in actions/checkout, GIT_DEPTH: 0 in GitLab CI)");
        }
        return fail(a + " and " + b + " have no common history (no merge base): nothing to judge the change against");
    }

    private static boolean shallow(HardenedGit git) throws GitException {
        return git.attempt("rev-parse", "--is-shallow-repository").text().equals("true");
    }

    private static String fail(String message) throws GitException {
        throw new GitException(message);
    }

    private static Path realOrSame(Path dir) {
        try {
            return dir.toRealPath();
        } catch (IOException e) {
            return dir.toAbsolutePath().normalize();
        }
    }

    private static Optional<byte[]> show(HardenedGit git, String rev, String relPath) throws GitException {
        // cat-file: plumbing, never a filter or textconv
        HardenedGit.Output o = git.attempt("cat-file", "blob", rev + ":" + relPath);
        return o.exit() == 0 ? Optional.of(o.out()) : Optional.empty(); // no policy at that revision
    }

    /** {status, path, from} triples from {@code git diff --name-status -z}. */
    static List<String[]> parse(byte[] z) {
        List<String> f = split(z);
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < f.size(); ) {
            String status = f.get(i++);
            if (status.startsWith("R") || status.startsWith("C")) {
                String from = f.get(i++);
                String to = f.get(i++);
                out.add(new String[] {status.substring(0, 1), to, from});
            } else {
                out.add(new String[] {status.substring(0, 1), f.get(i++), null});
            }
        }
        return out;
    }

    private static List<String> split(byte[] z) {
        List<String> out = new ArrayList<>();
        for (String s : new String(z, StandardCharsets.UTF_8).split("\0")) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }
}
