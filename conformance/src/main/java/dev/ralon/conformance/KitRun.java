package dev.ralon.conformance;

import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.host.BackendSurvey;
import dev.ralon.host.BuiltInBackends;
import dev.ralon.host.RunDecision;
import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.PolicySet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One real run: builds a fresh project, starts {@code dev.ralon.cli.Main run --backend NAME -- /bin/sh attacks.sh}
 * in a child JVM (as the given user), answers the policy-file steps, and records from outside what every attack
 * changed on disk.
 */
final class KitRun {
    static final String MAIN = "dev.ralon.cli.Main";
    static final int EXIT_MARK = 42;

    /** One (attack × kind) in a project. */
    record Case(Attack attack, PathKind kind, String id, Path target, Path way) {
        boolean program() {
            return attack.program() != null;
        }

        /** For program attacks: the other path (a scratch file or directory in FREE). */
        Path other(Path free) {
            if ("exchange-aside".equals(attack.operation())) {
                return target.resolveSibling("xa-" + id); // an unprotected file of the protected file's directory
            }
            return free.resolve((attack.watchesWay() ? "xw-" : "x-") + id);
        }

        Path attacked() {
            return attack.program() != null && attack.watchesWay() ? way : target;
        }

        /** The protected path the target lies in ($R): the locked directory for a nested target, else the target. */
        Path protectedRoot() {
            return kind == PathKind.NESTED ? way.resolve("locked") : target;
        }
    }

    /**
     * What one case did: result line from inside (informative), the changes seen from outside, and why it could not
     * be judged (null when it could: see {@link PolicyRestorer}).
     */
    record Outcome(String rc, List<String> changes, String notJudged) {
        Outcome(String rc, List<String> changes) {
            this(rc, changes, null);
        }

        boolean changed() {
            return notJudged == null && !changes.isEmpty();
        }
    }

    /** What the whole run recorded (the {@link Judge} turns it into verdicts). */
    record Recording(String backend, int uid, int exit, String output, String stderr, String log,
                     Map<String, Outcome> outcomes, Map<String, String> sanity, boolean createNextToProtectedExpected,
                     Map<String, Outcome> plainOutcomes, long pid, String sandbox) {
        /** The part of the attack log written by case {@code id} (its stdout and stderr), or "" when none. */
        String logOf(String id) {
            StringBuilder b = new StringBuilder();
            boolean in = false;
            for (String line : log.lines().toList()) {
                if (line.startsWith("== ")) {
                    in = line.equals("== " + id);
                    continue;
                }
                if (in) {
                    b.append(line).append('\n');
                }
            }
            return b.toString();
        }
    }

    private final String backend;
    private final int uid;
    private final String classpath;
    private final KitProject project;
    private final List<Case> cases;
    private final Path base;
    private final Path proj;
    private final Path home;
    private final Path free;
    private boolean launcherNamespace;
    private boolean confines;

    KitRun(String backend, int uid, String classpath, boolean includeMissing) throws IOException {
        this(backend, uid, classpath, includeMissing, true);
    }

    /** A run of {@code backend} as {@code uid}; see {@link KitProject} for the two flags. */
    KitRun(String backend, int uid, String classpath, boolean includeMissing, boolean includeLinked) throws IOException {
        this.backend = backend;
        this.uid = uid;
        this.classpath = classpath;
        this.project = new KitProject(backend, uid, includeMissing, includeLinked);
        this.cases = project.cases;
        this.base = project.base;
        this.proj = project.proj;
        this.home = project.home;
        this.free = project.free;
    }

    /** Whether the host JVM starts as the launcher starts it for {@code ralon run} (ConformanceKit.Builder). */
    KitRun inLauncherNamespace(boolean inIt) {
        this.launcherNamespace = inIt;
        return this;
    }

    /** Whether the backend declares {@link Guarantee#WRITES_OUTSIDE}: its runs are confined (KitExecution). */
    KitRun confining(boolean confining) {
        this.confines = confining;
        return this;
    }

    List<Case> cases() {
        return cases;
    }

    Path project() {
        return proj;
    }

    /** Writes the project, commits it to git, makes the git-checkout targets locally modified; returns agent.lock text. */
    String buildProject() throws IOException {
        return project.build();
    }

    void delete() {
        project.delete();
    }

    // ------------------------------------------------------------------------------------------ the run

    /** Runs the attacks under the backend; the project must have been built. */
    Recording execute(int timeoutSeconds) throws IOException {
        Path cpFile = home.resolve("kit.classpath");
        Files.writeString(cpFile, classpath);
        Path scriptFile = home.resolve("attacks.sh");
        Files.writeString(scriptFile, new AttackScript(project).text(cpFile));
        KitHost.run(List.of("chmod", "-R", "a+rX", home.toString()), 30);
        if (uid != KitHost.currentUid()) {
            KitHost.run(List.of("chown", "-R", uid + ":" + uid, home.toString()), 30);
        }
        CaseWatch watcher = new CaseWatch(proj);
        Map<String, SortedMap<String, String>> before = new LinkedHashMap<>();
        for (Case c : cases) {
            before.put(c.id(), watcher.watch(c));
        }
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        Map<String, String> rc = new LinkedHashMap<>();
        String policyText = Files.readString(proj.resolve("agent.lock"));
        Object policyInode = Files.getAttribute(proj.resolve("agent.lock"), "unix:ino", LinkOption.NOFOLLOW_LINKS);
        String policyLost = null; // set once an earlier breach replaced agent.lock (its mount in the sandbox is gone)
        long pid = -1;

        // RLIMIT_NOFILE as a plain child of this JVM, as this user, has it: the command must get the same soft limit
        String nofile = KitHost.run(KitHost.asUser(uid, List.of("/bin/sh", "-c", "ulimit -n")), 30);
        String expectedNofile = nofile == null ? "(unknown)" : nofile.strip();
        // A process of the same user, started plainly outside any sandbox, for the /proc/PID/root attack.
        Process outside = new ProcessBuilder(KitHost.asUser(uid, List.of("/bin/sleep", "600"))).start();
        List<String> cmd = new ArrayList<>();
        List<String> ralon = new ArrayList<>(AttackScript.javaCommand(home, MAIN));
        ralon.add(1, "-XX:-MaxFDLimit");
        ralon.set(ralon.indexOf("@CP@"), classpath);
        if (launcherNamespace) {
            // as ralon.sh does for `ralon run`: unshare execs the JVM in the same process, named by its pid ($$)
            List<String> wrapped = new ArrayList<>(List.of("/bin/sh", "-c", "j=$1; shift; RALON_LAUNCHER_USERNS=$$;"
                    + " export RALON_LAUNCHER_USERNS; exec unshare --user --map-root-user --mount --propagation private"
                    + " -- \"$j\" \"$@\"", "sh"));
            wrapped.addAll(ralon);
            ralon = wrapped;
        }
        cmd.addAll(KitHost.asUser(uid, ralon));
        cmd.addAll(List.of("run", "--backend", backend));
        // A backend that confines writes gets the one temporary directory home/tmp (--temp), so that $HOME, beside
        // it, is outside every writable area; any other runs with --write-anywhere (the host refuses it otherwise)
        // and its writes-outside attacks must get through
        cmd.addAll(confines ? List.of("--temp", home.resolve("tmp").toString()) : List.of("--write-anywhere"));
        cmd.addAll(List.of("--", "/bin/sh", scriptFile.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(proj.toFile())
                .redirectError(base.resolve("stderr.txt").toFile());
        pb.environment().put("HOME", home.toString());
        pb.environment().put("TMPDIR", home.resolve("tmp").toString());
        pb.environment().put("OUTSIDE_PID", Long.toString(outside.pid()));
        // names this run's entries in the machine's shared /dev/shm and /dev (the writes-outside rows): runs of other
        // backends, side by side, make the same case ids
        pb.environment().put("RALON_KIT_RUN", runName());
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().remove("_JAVA_OPTIONS");
        pb.environment().remove("RALON_ORIG_NOFILE");
        // reach the command unchanged (a harmless JVM option: the JVMs on the way pick it up too)
        pb.environment().put("RALON_KIT_MARKER", "kit marker");
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Dralon.kit.marker=1");
        KitLocale.apply(pb.environment()); // as the launcher does: a UTF-8 JVM, the user's locale for the command
        StringBuilder output = new StringBuilder();
        int exit;
        Process p = pb.start();
        Thread watchdog = new Thread(() -> {
            try {
                if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ralon-kit-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        Pattern result = Pattern.compile("^RESULT (\\S+) (.*)$");
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                output.append(line).append('\n');
                Matcher m = result.matcher(line);
                if (m.matches()) {
                    rc.put(m.group(1), m.group(2));
                } else if (line.startsWith("PID ")) {
                    pid = Long.parseLong(line.substring(4).trim());
                } else if (line.equals("SIGNAL-READY")) {
                    KitHost.run(List.of("kill", "-TERM", Long.toString(p.pid())), 10);
                } else if (line.startsWith("SNAP ")) {
                    String id = line.substring(5).trim();
                    Case c = cases.stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
                    SortedMap<String, String> after = watcher.watch(c);
                    outcomes.put(id, policyLost != null
                            ? new Outcome(rc.getOrDefault(id, Judge.NO_RESULT), List.of(), policyLost)
                            : new Outcome(rc.getOrDefault(id, Judge.NO_RESULT), watcher.changes(c, before.get(id), after)));
                    // under noop (the control) nothing is bound to the inode: a recreated agent.lock is attacked as
                    // well as the first one, and every attack must still show its effect there
                    if (!new PolicyRestorer(proj, uid).restore(policyText, policyInode) && policyLost == null && !backend.equals(BuiltInBackends.NOOP)) {
                        policyLost = "not judged: attack '" + c.attack().id() + "' replaced agent.lock (a new inode);"
                                + " the sandbox's protection of the old one cannot speak for the new one";
                    }
                    for (Case other : cases) {
                        if (other.kind() == PathKind.POLICY) {
                            before.put(other.id(), watcher.watch(other));
                        }
                    }
                    w.write("go\n");
                    w.flush();
                }
            }
        } catch (IOException e) {
            output.append("(reading the child failed: ").append(e).append(")\n");
        } finally {
            outside.destroyForcibly();
        }
        try {
            exit = p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted");
        }
        for (Case c : cases) {
            if (!outcomes.containsKey(c.id())) {
                outcomes.put(c.id(), new Outcome(rc.getOrDefault(c.id(), Judge.NO_RESULT),
                        c.kind() == PathKind.POLICY ? List.of() : watcher.changes(c, before.get(c.id()), watcher.watch(c))));
            }
        }
        long ended = System.nanoTime();
        outside(outcomes, rc);
        Map<String, Outcome> plainOutcomes = new LinkedHashMap<>();
        new TerminalCases(project, backend, uid, watcher).run(cases, before, outcomes, plainOutcomes);
        new HelperCases(project, backend, uid, watcher, classpath).run(cases, before, outcomes, plainOutcomes);
        leftovers(outcomes, rc, ended); // after the terminal and helper cases: their time counts towards the wait
        Map<String, String> sanity = SanityReadings.read(project, uid, rc, policyText, expectedNofile);
        String stderr = KitHost.readOrNull(base.resolve("stderr.txt"));
        String log = KitHost.readOrNull(home.resolve("tmp/attacks.log")); // in the run's one writable temp directory
        String identity = KitHost.readOrNull(free.resolve("sandbox-identity"));
        sanity.put("pid-expected", Long.toString(p.pid()));
        sanity.put("pid-seen", Long.toString(pid));
        return new Recording(backend, uid, exit, output.toString(), stderr == null ? "" : stderr, log == null ? "" : log,
                outcomes, sanity, true, plainOutcomes, pid,
                identity == null ? "(not recorded)" : identity.strip().replace('\n', ';'));
    }

    /** This run's name in shared places: its base directory's, unique on the machine while the run lasts. */
    private String runName() {
        return String.valueOf(base.getFileName());
    }

    /**
     * The writes-outside attacks ({@link Guarantee#WRITES_OUTSIDE}) are judged by {@code $HOME}, outside the project:
     * a new entry {@code outside-ID}, or the case's line appended to {@code outside.txt}; and by {@code /dev/shm} and
     * {@code /dev}: an entry {@code outside-RUN-ID} there (removed once seen).
     */
    private void outside(Map<String, Outcome> outcomes, Map<String, String> rc) throws IOException {
        String text = KitHost.readOrNull(home.resolve("outside.txt"));
        for (Case c : cases) {
            if (c.attack().guarantee() != Guarantee.WRITES_OUTSIDE) {
                continue;
            }
            List<String> changes = new ArrayList<>();
            if (Files.exists(home.resolve("outside-" + c.id()), LinkOption.NOFOLLOW_LINKS)) {
                changes.add("created " + home.resolve("outside-" + c.id()) + ", outside the project and the writable"
                        + " areas");
            }
            for (Path p : List.of(Path.of("/dev/shm/outside-" + runName() + "-" + c.id()),
                    Path.of("/dev/outside-" + runName() + "-" + c.id()))) {
                if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                    changes.add("created " + p + ", outside the project and the writable areas");
                    Files.deleteIfExists(p); // the host's, shared: not left for the next run
                }
            }
            if (text != null && text.contains("pwned " + c.id())) {
                changes.add("appended to " + home.resolve("outside.txt") + ", outside the project and the writable"
                        + " areas");
            }
            outcomes.put(c.id(), new Outcome(rc.getOrDefault(c.id(), Judge.NO_RESULT), changes));
        }
    }

    /**
     * The leftover attacks ({@link Guarantee#LEFTOVERS}) are judged by a file of their own: each leftover writes
     * {@code FREE/leftover-ID} a second after the command ended; looked for here, no sooner than 3 s after the run
     * ended ({@code ended}, a {@link System#nanoTime()}): the cases made after the run (terminal, helpers) use that
     * time, and only what is left of it is waited; a leftover still running then is waited for, up to
     * {@link #LEFTOVER_GRACE_SECONDS}.
     */
    private void leftovers(Map<String, Outcome> outcomes, Map<String, String> rc, long ended) throws IOException {
        List<Case> left = cases.stream().filter(c -> c.attack().guarantee() == Guarantee.LEFTOVERS).toList();
        if (left.isEmpty()) {
            return;
        }
        try {
            long waited = (System.nanoTime() - ended) / 1_000_000;
            if (waited < 3000) {
                Thread.sleep(3000 - waited);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        long grace = System.nanoTime() + TimeUnit.SECONDS.toNanos(LEFTOVER_GRACE_SECONDS);
        for (Case c : left) {
            Path mark = free.resolve("leftover-" + c.id());
            // A leftover still alive but late (on a busy machine its polling can be starved for seconds) is waited
            // for, bounded, rather than judged "held": the verdict must not depend on the scheduler. One that a
            // backend ended is gone at once and costs nothing here.
            try {
                while (!Files.exists(mark) && leftoverAlive(c.id(), free) && System.nanoTime() < grace) {
                    Thread.sleep(100);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            outcomes.put(c.id(), new Outcome(rc.getOrDefault(c.id(), Judge.NO_RESULT), Files.exists(mark)
                    ? List.of("a process the command left running wrote " + proj.relativize(mark) + " after the command"
                    + " ended") : List.of()));
            // judged: the kit ends what the backend did not (a leftover whose run never made $F/ended, as under
            // a supervising variant, would otherwise wait out its hour)
            endLeftovers(c.id(), free);
        }
    }

    /** Kills the leftovers of case {@code id} of the run whose {@code FREE} directory is {@code free}, if any. */
    static void endLeftovers(String id, Path free) {
        leftovers(id, free).forEach(ProcessHandle::destroyForcibly);
    }

    /** How long a leftover that is still alive after the 3 s is waited for before it is judged by its file. */
    static final int LEFTOVER_GRACE_SECONDS = 30;

    /**
     * Whether the leftover of case {@code id} of the run whose {@code FREE} directory is {@code free} is still
     * running: a process (in any PID namespace: an ancestor's /proc lists them all) whose arguments include both, as
     * the leftover attack starts it ({@link Attacks}).
     */
    static boolean leftoverAlive(String id, Path free) {
        return leftovers(id, free).findAny().isPresent();
    }

    /** The live processes whose arguments include both {@code id} and {@code free}: that case's leftovers of that run. */
    private static java.util.stream.Stream<ProcessHandle> leftovers(String id, Path free) {
        String f = free.toString();
        return ProcessHandle.allProcesses().filter(p -> {
            try {
                List<String> args = List.of(Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline"))
                        .split("\0"));
                return args.contains(id) && args.contains(f);
            } catch (IOException | RuntimeException e) {
                return false; // gone, or not readable
            }
        });
    }

    /**
     * The decision {@code ralon run} makes for this run's project, made here as the run makes it: the same backend,
     * options ({@code --temp home/tmp} or {@code --write-anywhere}), {@code HOME}, {@code TMPDIR} and directory.
     */
    RunDecision decision() throws IOException {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("HOME", home.toString());
        env.put("TMPDIR", home.resolve("tmp").toString());
        PolicySet policies;
        try {
            policies = PolicySet.explicit(PolicyLoader.load(proj.resolve("agent.lock")));
        } catch (dev.ralon.policy.PolicyException e) {
            throw new IOException("the kit's own policy is invalid: " + e.getMessage(), e);
        }
        return RunDecision.decide(BackendSurvey.forRun(backend), policies, policies.expand(false),
                new RunDecision.Options(backend, false, false, false, !confines, confines ? home.resolve("tmp") : null,
                        List.of(), env, proj));
    }
}
