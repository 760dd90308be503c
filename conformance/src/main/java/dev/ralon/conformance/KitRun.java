package dev.ralon.conformance;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

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
     * be judged (null when it could: see {@link #restorePolicy}).
     */
    record Outcome(String rc, List<String> changes, String notJudged) {
        Outcome(String rc, List<String> changes) {
            this(rc, changes, null);
        }

        boolean changed() {
            return notJudged == null && !changes.isEmpty();
        }
    }

    /** The whole run. */
    record Result(String backend, int uid, int exit, String output, String stderr, String log,
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
    private final List<Case> cases = new ArrayList<>();
    private final Path base;
    private final Path proj;
    private final Path home;
    private final Path free;
    private final boolean includeMissing;
    private final boolean includeLinked;

    KitRun(String backend, int uid, String classpath, boolean includeMissing) throws IOException {
        this(backend, uid, classpath, includeMissing, true);
    }

    /**
     * @param includeLinked whether to make the cases of protected files reached through a symbolic link on the way:
     *                      such a link is a protected path of kind SYMLINK, which the host refuses for a backend that
     *                      does not declare it covers links (host-side admission), and the whole run would be refused
     */
    KitRun(String backend, int uid, String classpath, boolean includeMissing, boolean includeLinked) throws IOException {
        this.includeLinked = includeLinked;
        this.backend = backend;
        this.uid = uid;
        this.classpath = classpath;
        this.includeMissing = includeMissing;
        this.base = Files.createTempDirectory(Path.of("/tmp"), "ralon-kit-" + backend + "-");
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        this.proj = base.resolve("proj");
        this.home = base.resolve("home");
        this.free = proj.resolve("free");
        boolean root = uid == 0;
        for (Attack a : Attacks.all()) {
            if (a.rootOnly() && !root) {
                continue;
            }
            for (PathKind k : PathKind.values()) {
                if (!a.kinds().contains(k) || (k == PathKind.MISSING && !includeMissing)
                        || (k == PathKind.LINKED && !includeLinked)) {
                    continue;
                }
                String id = a.id() + "-" + k.id();
                Path dir = proj.resolve("c").resolve(id);
                Path target;
                Path way;
                switch (k) {
                    case FILE -> {
                        target = dir.resolve("w/target.txt");
                        way = dir.resolve("w");
                    }
                    case GLOB -> {
                        target = dir.resolve("w/target.pem");
                        way = dir.resolve("w");
                    }
                    case NESTED -> {
                        target = dir.resolve("locked/sub/target.txt");
                        way = dir;
                    }
                    case DIRECTORY -> {
                        target = dir.resolve("locked");
                        way = dir;
                    }
                    case POLICY -> {
                        target = proj.resolve("agent.lock");
                        way = proj;
                    }
                    case MISSING -> {
                        target = dir.resolve("w/secret.env");
                        way = dir.resolve("w");
                    }
                    case LINKED -> {
                        target = dir.resolve("lib/door");
                        way = dir.resolve("lib");
                    }
                    default -> throw new IllegalStateException(k.name());
                }
                cases.add(new Case(a, k, id, target, way));
            }
        }
    }

    List<Case> cases() {
        return cases;
    }

    Path project() {
        return proj;
    }

    // ------------------------------------------------------------------------------------------ the project

    static final String POLICY_COMMITTED = "version: 1\nprotect: []\n";

    /** Writes the project, commits it to git, makes the git-checkout targets locally modified; returns agent.lock text. */
    String buildProject() throws IOException {
        Files.createDirectories(free);
        Files.createDirectories(home.resolve("tmp"));
        write(free.resolve("evil"), "pwned evil\n");
        write(free.resolve("existing.txt"), "unprotected\n");
        write(proj.resolve("c/ok-next/w/target.txt"), "original ok-next\n");
        // ordinary work the run must not stop (or, in a create-restricted directory, must stop: the plan says which)
        write(proj.resolve("c/ok-next/w/notes.txt"), "notes\n");
        write(proj.resolve("c/ok-next/w/notes2.txt"), "notes2\n");
        write(proj.resolve("c/ok-next/sibling.txt"), "sibling\n");
        for (String f : List.of("movable", "linkable", "crossing", "removable")) {
            write(free.resolve("a").resolve(f), f + "\n");
        }
        Files.createDirectories(free.resolve("b"));
        StringBuilder lock = new StringBuilder("version: 1\nprotect:\n  - c/**/*.pem\n  - c/ok-next/w/target.txt\n");
        for (Case c : cases) {
            Path rel = proj.relativize(c.target());
            switch (c.kind()) {
                case FILE -> {
                    write(c.target(), "original " + c.id() + "\n");
                    lock.append("  - ").append(rel).append('\n');
                }
                case GLOB -> write(c.target(), "original " + c.id() + "\n");
                case NESTED -> {
                    write(c.target(), "original " + c.id() + "\n");
                    lock.append("  - ").append(proj.relativize(c.way().resolve("locked"))).append("/\n");
                }
                case DIRECTORY -> {
                    write(c.target().resolve("inner.txt"), "original inner " + c.id() + "\n");
                    write(c.target().resolve("sub/deep.txt"), "original deep " + c.id() + "\n");
                    lock.append("  - ").append(rel).append("/\n");
                }
                case MISSING -> {
                    Files.createDirectories(c.way());
                    lock.append("  - ").append(rel).append('\n');
                }
                case POLICY -> {
                }
                case LINKED -> {
                    Path dir = c.way().getParent();
                    write(dir.resolve("real/target.key"), "original " + c.id() + "\n");
                    write(dir.resolve("decoy/target.key"), "decoy " + c.id() + "\n");
                    Files.createDirectories(c.way());
                    Files.createSymbolicLink(c.target(), Path.of("../real"));
                    lock.append("  - ").append(proj.relativize(c.target())).append("/*.key\n");
                }
                default -> throw new IllegalStateException();
            }
            if (c.program() && List.of("exchange", "exchange-aside").contains(c.attack().operation())) {
                Path other = c.other(free);
                if (c.attack().watchesWay() || c.kind() == PathKind.DIRECTORY) {
                    write(other.resolve("planted.txt"), "pwned " + c.id() + "\n");
                } else {
                    write(other, "pwned " + c.id() + "\n");
                }
            }
        }
        write(proj.resolve("agent.lock"), POLICY_COMMITTED);
        git("init", "-q");
        git("add", "-A");
        git("-c", "user.name=kit", "-c", "user.email=kit@example.invalid", "commit", "-q", "-m", "kit project");
        String policy = lock.toString();
        write(proj.resolve("agent.lock"), policy);
        for (Case c : cases) {
            if (c.attack().id().equals("git-checkout") && c.kind() != PathKind.POLICY) {
                write(c.target(), "local edit " + c.id() + "\n");
            }
        }
        run(List.of("chmod", "-R", "a+rX", base.toString()), 60);
        if (uid != currentUid()) {
            run(List.of("chown", "-R", "-h", uid + ":" + uid, proj.toString(), home.toString()), 60);
            // the project's parent too: renaming the project itself (an attack on a directory on the way) must be
            // possible for this user without a sandbox, or the attack would prove nothing
            run(List.of("chown", uid + ":" + uid, base.toString()), 60);
        }
        return policy;
    }

    private void git(String... args) throws IOException {
        // HOME is the run's own: the invoking user's git configuration (signing, hooks) must not change the project
        List<String> cmd = new ArrayList<>(List.of("env", "HOME=" + home, "git", "-C", proj.toString()));
        cmd.addAll(List.of(args));
        String out = run(cmd, 60);
        if (out == null) {
            throw new IOException("git " + String.join(" ", args) + " failed in " + proj);
        }
    }

    private static void write(Path p, String content) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, content, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
    }

    // ------------------------------------------------------------------------------------------ the script

    private String script(Path kitClasspathFile) {
        StringBuilder s = new StringBuilder("#!/bin/sh\n");
        s.append("P=").append(q(proj)).append("; F=").append(q(free)).append("; LOG=").append(q(home.resolve("attacks.log")))
                .append("; export P F\n");
        s.append("cd \"$P\" || exit 70\n");
        // who the sandboxed command is: its pid (must be the pid ralon was started as: no supervisor), its user
        // namespace's uid map and its capabilities, for failure messages
        s.append("echo \"PID $$\"\n");
        s.append("{ echo \"uid_map: $(tr -s ' ' < /proc/self/uid_map | tr '\\n' ';')\"; grep -E '^(Uid|Cap(Prm|Eff|Bnd|Amb)):'"
                + " /proc/self/status | tr -s '\\t ' ' '; } > \"$F/sandbox-identity\" 2>&1\n");
        // kit_program OP ID TARGET OTHER: one AttackProgram operation, for shell attacks that need a system call
        StringBuilder fn = new StringBuilder("kit_program() { ");
        for (String part : javaCommand(home, "dev.ralon.conformance.attack.AttackProgram")) {
            fn.append(part.equals("@CP@") ? "\"$(cat " + q(kitClasspathFile) + ")\"" : q(part)).append(' ');
        }
        s.append(fn).append("\"$@\"; }\n");
        // what must keep working
        s.append("echo changed >> \"$F/existing.txt\"; echo \"RESULT ok-write-unprotected $?\"\n");
        s.append("echo ok > \"$F/new.txt\"; echo \"RESULT ok-create-unprotected $?\"\n");
        s.append("echo ok > c/ok-next/w/new.txt 2>>\"$LOG\"; echo \"RESULT ok-create-next-to-protected $?\"\n");
        s.append("cat c/ok-next/w/target.txt agent.lock > \"$F/read-copy\"; echo \"RESULT ok-read-protected $?\"\n");
        s.append("git status --porcelain > \"$F/git-status.out\" 2>>\"$LOG\"; echo \"RESULT ok-git-status $?\"\n");
        // who and where the command is: the user, the working directory, the environment, the descriptor limit
        s.append("id -u > \"$F/id-uid\"; id -g > \"$F/id-gid\"; /bin/pwd > \"$F/id-pwd\"; ulimit -n > \"$F/id-nofile\"\n");
        s.append("printf '%s' \"$RALON_KIT_MARKER\" > \"$F/id-marker\"; printf '%s' \"$JAVA_TOOL_OPTIONS\" > \"$F/id-jto\"\n");
        for (String[] w : WORK) {
            s.append("( ").append(w[1]).append(" ) >>\"$LOG\" 2>&1 </dev/null; echo \"RESULT ").append(w[0]).append(" $?\"\n");
        }
        List<Case> batchProgram = new ArrayList<>();
        List<Case> batchUserns = new ArrayList<>();
        List<Case> policy = new ArrayList<>();
        List<Case> later = new ArrayList<>();
        for (Case c : cases) {
            if (c.attack().viaTerminal()) {
                continue; // made from an interactive shell on a terminal, after this script (terminalCases)
            } else if (c.kind() == PathKind.POLICY) {
                policy.add(c);
            } else if (c.program()) {
                (c.attack().inUserNamespace() ? batchUserns : batchProgram).add(c);
            } else if (c.attack().watchesWay()) {
                later.add(c);
            } else {
                shellCase(s, c);
            }
        }
        if (!batchProgram.isEmpty()) {
            programLine(s, batchProgram, kitClasspathFile);
        }
        if (!batchUserns.isEmpty()) {
            programLine(s, batchUserns, kitClasspathFile);
        }
        for (Case c : later) {
            shellCase(s, c);
        }
        // The policy file: one attack at a time; the kit looks at it (and restores it) between two attacks.
        policy.sort((a, b) -> Boolean.compare(a.attack().watchesWay(), b.attack().watchesWay()));
        for (Case c : policy) {
            if (c.program()) {
                programLine(s, List.of(c), kitClasspathFile);
            } else {
                shellCase(s, c);
            }
            s.append("echo \"SNAP ").append(c.id()).append("\"; read ack || exit 71; cd \"$P\" || exit 72\n");
        }
        // signals sent to the pid ralon was started as reach the command (no supervisor in between)
        s.append("got=none; trap 'got=USR1' USR1; echo SIGNAL-READY; i=0\n");
        s.append("while [ \"$got\" = none ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done\n");
        s.append("trap - USR1; echo \"RESULT ok-signal $got\"\n");
        s.append("echo END\nexit ").append(EXIT_MARK).append('\n');
        return s.toString();
    }

    /**
     * Ordinary work beside the attacks: id, shell command. {@code ok-next-*} and {@code ok-way-mkdir} act in
     * directories a backend may list as create-restricted (the protected file's directory c/ok-next/w and its parent):
     * there they must be refused, elsewhere they must work ({@link ConformanceKit}'s checks read the plan).
     */
    static final String[][] WORK = {
        {"ok-mkdir-deep", "mkdir -p \"$F/new/dir\" && echo ok > \"$F/new/dir/file\""},
        {"ok-mv-between", "mv \"$F/a/movable\" \"$F/b/movable\""},
        {"ok-ln-between", "ln \"$F/a/linkable\" \"$F/b/linkable\""},
        {"ok-mv-out-of-project", "mv \"$F/a/crossing\" \"$HOME/crossing\""},
        {"ok-rm-unprotected", "rm \"$F/a/removable\""},
        {"ok-write-in-ancestor", "echo more >> c/ok-next/sibling.txt"},
        {"ok-way-mkdir", "mkdir c/ok-next/newdir && echo ok > c/ok-next/newdir/f"},
        {"ok-next-mkdir", "mkdir c/ok-next/w/newdir"},
        {"ok-next-rename", "mv c/ok-next/w/notes.txt c/ok-next/w/notes.bak"},
        {"ok-next-move-out", "mv c/ok-next/w/notes2.txt \"$F/notes2.txt\""},
        {"ok-next-via-link", "ln -s \"$P/c/ok-next/w\" \"$F/up\" && echo ok > \"$F/up/via-link.txt\""},
    };

    private void shellCase(StringBuilder s, Case c) {
        s.append("printf '== %s\\n' ").append(c.id()).append(" >>\"$LOG\"\n");
        s.append("( T=").append(q(c.target())).append("; W=").append(q(c.way())).append("; R=")
                .append(q(c.protectedRoot())).append("; ID=").append(c.id())
                .append("; export T W R ID; ").append(c.attack().shell()).append(" ) >>\"$LOG\" 2>&1 </dev/null; echo \"RESULT ")
                .append(c.id()).append(" $?\"\n");
    }

    /** One attack program for all of {@code cs}, which are all made in a nested user namespace or none is. */
    private void programLine(StringBuilder s, List<Case> cs, Path kitClasspathFile) {
        List<String> cmd = new ArrayList<>();
        if (cs.get(0).attack().inUserNamespace()) {
            cmd.addAll(List.of("unshare", "-Ur", "-m"));
        }
        cmd.addAll(javaCommand(home, "dev.ralon.conformance.attack.AttackProgram"));
        for (Case c : cs) {
            String op = c.attack().operation();
            cmd.add(op);
            cmd.add(c.id());
            cmd.add(c.attacked().toString());
            cmd.add(switch (op) {
                case "copy-file-range" -> free.resolve("evil").toString();
                case "open-by-handle" -> free.toString();
                case "open-by-handle-dir" -> "/"; // the root mount: not the protected path's own
                case "open-tree-clone", "open-tree-clone-rw" -> proj.toString();
                case "setattr-write" -> c.protectedRoot().toString();
                default -> c.other(free).toString();
            });
        }
        StringBuilder line = new StringBuilder();
        for (String part : cmd) {
            line.append(q(part)).append(' ');
        }
        line.append("</dev/null 2>>\"$LOG\"\n");
        s.append(line.toString().replace(q("@CP@"), "\"$(cat " + q(kitClasspathFile) + ")\""));
    }

    private List<String> javaCommand(Path home, String main) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-XX:-UsePerfData");
        cmd.add("-Xshare:auto");
        cmd.add("--enable-native-access=ALL-UNNAMED"); // JDK 22+ warns about JNA's System.load otherwise
        cmd.add("-Djava.io.tmpdir=" + home.resolve("tmp"));
        cmd.add("-Djna.tmpdir=" + home.resolve("tmp"));
        cmd.add("-cp");
        cmd.add("@CP@");
        cmd.add(main);
        return cmd;
    }

    static String q(Object o) {
        return "'" + o.toString().replace("'", "'\\''") + "'";
    }

    // ------------------------------------------------------------------------------------------ the run

    /** Runs the attacks under the backend; the project must have been built. */
    Result execute(int timeoutSeconds) throws IOException {
        Path cpFile = home.resolve("kit.classpath");
        Files.writeString(cpFile, classpath);
        Path scriptFile = home.resolve("attacks.sh");
        Files.writeString(scriptFile, script(cpFile));
        run(List.of("chmod", "-R", "a+rX", home.toString()), 30);
        if (uid != currentUid()) {
            run(List.of("chown", "-R", uid + ":" + uid, home.toString()), 30);
        }
        Map<String, SortedMap<String, String>> before = new LinkedHashMap<>();
        for (Case c : cases) {
            before.put(c.id(), watch(c));
        }
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        Map<String, String> rc = new LinkedHashMap<>();
        String policyText = Files.readString(proj.resolve("agent.lock"));
        Object policyInode = Files.getAttribute(proj.resolve("agent.lock"), "unix:ino", LinkOption.NOFOLLOW_LINKS);
        String policyLost = null; // set once an earlier breach replaced agent.lock (its mount in the sandbox is gone)
        long pid = -1;

        // RLIMIT_NOFILE as a plain child of this JVM, as this user, has it: the command must get the same soft limit
        String nofile = run(asUser(List.of("/bin/sh", "-c", "ulimit -n")), 30);
        String expectedNofile = nofile == null ? "(unknown)" : nofile.strip();
        // A process of the same user, started plainly outside any sandbox, for the /proc/PID/root attack.
        Process outside = new ProcessBuilder(asUser(List.of("/bin/sleep", "600"))).start();
        List<String> cmd = new ArrayList<>();
        List<String> ralon = new ArrayList<>(javaCommand(home, MAIN));
        ralon.add(1, "-XX:-MaxFDLimit");
        ralon.set(ralon.indexOf("@CP@"), classpath);
        cmd.addAll(asUser(ralon));
        cmd.addAll(List.of("run", "--backend", backend, "--", "/bin/sh", scriptFile.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(proj.toFile())
                .redirectError(base.resolve("stderr.txt").toFile());
        pb.environment().put("HOME", home.toString());
        pb.environment().put("TMPDIR", home.resolve("tmp").toString());
        pb.environment().put("OUTSIDE_PID", Long.toString(outside.pid()));
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
                    run(List.of("kill", "-USR1", Long.toString(p.pid())), 10);
                } else if (line.startsWith("SNAP ")) {
                    String id = line.substring(5).trim();
                    Case c = cases.stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
                    SortedMap<String, String> after = watch(c);
                    outcomes.put(id, policyLost != null
                            ? new Outcome(rc.getOrDefault(id, "(no result)"), List.of(), policyLost)
                            : new Outcome(rc.getOrDefault(id, "(no result)"), changes(c, before.get(id), after)));
                    // under noop (the control) nothing is bound to the inode: a recreated agent.lock is attacked as
                    // well as the first one, and every attack must still show its effect there
                    if (!restorePolicy(policyText, policyInode) && policyLost == null && !backend.equals("noop")) {
                        policyLost = "not judged: attack '" + c.attack().id() + "' replaced agent.lock (a new inode);"
                                + " the sandbox's protection of the old one cannot speak for the new one";
                    }
                    for (Case other : cases) {
                        if (other.kind() == PathKind.POLICY) {
                            before.put(other.id(), watch(other));
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
                outcomes.put(c.id(), new Outcome(rc.getOrDefault(c.id(), "(no result)"),
                        c.kind() == PathKind.POLICY ? List.of() : changes(c, before.get(c.id()), watch(c))));
            }
        }
        Map<String, Outcome> plainOutcomes = new LinkedHashMap<>();
        terminalCases(before, outcomes, plainOutcomes);
        Map<String, String> sanity = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : rc.entrySet()) {
            if (e.getKey().startsWith("ok-")) {
                sanity.put(e.getKey(), e.getValue());
            }
        }
        sanity.put("existing.txt", readOrNull(free.resolve("existing.txt")));
        sanity.put("new.txt", readOrNull(free.resolve("new.txt")));
        sanity.put("next.txt", readOrNull(proj.resolve("c/ok-next/w/new.txt")));
        sanity.put("read-copy", readOrNull(free.resolve("read-copy")));
        sanity.put("read-expected", "original ok-next\n" + policyText);
        sanity.put("git-status", readOrNull(free.resolve("git-status.out")));
        for (String id : List.of("uid", "gid", "pwd", "nofile", "marker", "jto")) {
            String v = readOrNull(free.resolve("id-" + id));
            sanity.put("id-" + id, v == null ? null : v.strip());
        }
        sanity.put("expected-nofile", expectedNofile);
        sanity.put("expected-gid", Integer.toString(uid == currentUid() ? currentGid() : uid));
        sanity.put("expected-pwd", proj.toString());
        // what the work left, seen from outside
        sanity.put("seen-ok-mkdir-deep", readOrNull(free.resolve("new/dir/file")));
        sanity.put("seen-ok-mv-between", String.valueOf(exists(free.resolve("b/movable")) && !exists(free.resolve("a/movable"))));
        sanity.put("seen-ok-ln-between", String.valueOf(exists(free.resolve("b/linkable"))));
        sanity.put("seen-ok-mv-out-of-project", String.valueOf(exists(home.resolve("crossing"))));
        sanity.put("seen-ok-rm-unprotected", String.valueOf(!exists(free.resolve("a/removable"))));
        sanity.put("seen-ok-write-in-ancestor", String.valueOf("sibling\nmore\n".equals(readOrNull(proj.resolve("c/ok-next/sibling.txt")))));
        sanity.put("seen-ok-way-mkdir", String.valueOf(exists(proj.resolve("c/ok-next/newdir/f"))));
        sanity.put("seen-ok-next-mkdir", String.valueOf(exists(proj.resolve("c/ok-next/w/newdir"))));
        sanity.put("seen-ok-next-rename", String.valueOf(exists(proj.resolve("c/ok-next/w/notes.bak"))
                || !exists(proj.resolve("c/ok-next/w/notes.txt"))));
        sanity.put("seen-ok-next-move-out", String.valueOf(!exists(proj.resolve("c/ok-next/w/notes2.txt"))));
        sanity.put("seen-ok-next-via-link", String.valueOf(exists(proj.resolve("c/ok-next/w/via-link.txt"))));
        String stderr = readOrNull(base.resolve("stderr.txt"));
        String log = readOrNull(home.resolve("attacks.log"));
        String identity = readOrNull(free.resolve("sandbox-identity"));
        sanity.put("pid-expected", Long.toString(p.pid()));
        sanity.put("pid-seen", Long.toString(pid));
        return new Result(backend, uid, exit, output.toString(), stderr == null ? "" : stderr, log == null ? "" : log,
                outcomes, sanity, true, plainOutcomes, pid,
                identity == null ? "(not recorded)" : identity.strip().replace('\n', ';'));
    }

    /**
     * The attacks made through the user's terminal ({@link Attack#viaTerminal()}), each twice from an interactive shell
     * on a fresh pseudo-terminal: through {@code ralon run --backend NAME} (the verdict), then the same program started
     * plainly by that shell (the control: the machine lets a process inject into its terminal). Outcomes are what
     * changed on disk, read from outside, after the shell had the chance to run an injected line.
     */
    private void terminalCases(Map<String, SortedMap<String, String>> before, Map<String, Outcome> outcomes,
                               Map<String, Outcome> plainOutcomes) throws IOException {
        Path cpFile = home.resolve("kit.classpath");
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", home.toString());
        env.put("TMPDIR", home.resolve("tmp").toString());
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        List<String> user = asUser(List.of());
        for (Case c : cases) {
            if (!c.attack().viaTerminal()) {
                continue;
            }
            StringBuilder program = new StringBuilder();
            for (String part : javaCommand(home, "dev.ralon.conformance.attack.AttackProgram")) {
                program.append(part.equals("@CP@") ? "\"$(cat " + q(cpFile) + ")\"" : q(part)).append(' ');
            }
            program.append(q(c.attack().program())).append(' ').append(q(c.id())).append(' ').append(q(c.target()))
                    .append(" -");
            StringBuilder ralon = new StringBuilder();
            Map<String, String> shellEnv = new LinkedHashMap<>(System.getenv());
            shellEnv.putAll(env);
            for (String part : KitLocale.envPrefix(shellEnv)) {
                ralon.append(q(part)).append(' ');
            }
            List<String> host = new ArrayList<>(javaCommand(home, MAIN));
            host.add(1, "-XX:-MaxFDLimit");
            for (String part : host) {
                ralon.append(part.equals("@CP@") ? "\"$(cat " + q(cpFile) + ")\"" : q(part)).append(' ');
            }
            ralon.append("run --backend ").append(q(backend)).append(" -- ").append(program);
            String sandboxed = TerminalAttack.session(user, proj, env, ralon.toString());
            SortedMap<String, String> afterSandboxed = watch(c);
            outcomes.put(c.id(), new Outcome(resultOf(c, sandboxed), changes(c, before.get(c.id()), afterSandboxed)));
            String plain = TerminalAttack.session(user, proj, env, program.toString());
            plainOutcomes.put(c.id(), new Outcome(resultOf(c, plain), changes(c, afterSandboxed, watch(c))));
        }
    }

    private static String resultOf(Case c, String transcript) {
        Matcher m = Pattern.compile("RESULT " + Pattern.quote(c.id()) + " (\\S+.*)").matcher(transcript);
        return m.find() ? m.group(1).trim() : "(no result; terminal: " + tailOf(transcript) + ")";
    }

    private static String tailOf(String s) {
        String t = s.replace('\r', ' ').replace('\n', ' ');
        return t.length() > 300 ? t.substring(t.length() - 300) : t;
    }

    private SortedMap<String, String> watch(Case c) {
        SortedMap<String, String> m = new java.util.TreeMap<>();
        for (Map.Entry<String, String> e : Snapshot.of(c.target()).entrySet()) {
            m.put("T:" + e.getKey(), e.getValue());
        }
        if (c.attack().watchesWay()) {
            m.put("W:.", Snapshot.identity(c.way()).get("."));
        }
        return m;
    }

    private List<String> changes(Case c, SortedMap<String, String> before, SortedMap<String, String> after) {
        SortedMap<String, String> tb = new java.util.TreeMap<>();
        SortedMap<String, String> ta = new java.util.TreeMap<>();
        SortedMap<String, String> wb = new java.util.TreeMap<>();
        SortedMap<String, String> wa = new java.util.TreeMap<>();
        split(before, tb, wb);
        split(after, ta, wa);
        List<String> out = new ArrayList<>(Snapshot.diff(proj.relativize(c.target()).toString(), tb, ta));
        out.addAll(Snapshot.diff("directory on the way " + (c.way().equals(proj) ? "(the project)" : proj.relativize(c.way())),
                wb, wa));
        return out;
    }

    private static void split(SortedMap<String, String> m, SortedMap<String, String> t, SortedMap<String, String> w) {
        for (Map.Entry<String, String> e : m.entrySet()) {
            (e.getKey().startsWith("T:") ? t : w).put(e.getKey().substring(2), e.getValue());
        }
    }

    /**
     * Puts the project and agent.lock back as they were (only ever needed after an attack got through), in place:
     * the same inode, content written through the existing file, mode and owner set back. Deleting and rewriting it
     * would drop its bind mount in the sandbox (a mount goes with the dentry it is on, mount_namespaces(7)), and every
     * later attack on it would then break through because of the kit, not the enforcer.
     *
     * @return whether agent.lock is still the inode the run started with; when not (an attack deleted, renamed or
     *         replaced it), it has been recreated, and later attacks on it cannot be judged
     */
    private boolean restorePolicy(String policyText, Object inode) throws IOException {
        Path moved = Path.of(proj + ".moved");
        if (!Files.exists(proj, LinkOption.NOFOLLOW_LINKS) && Files.isDirectory(moved, LinkOption.NOFOLLOW_LINKS)) {
            Files.move(moved, proj);
        }
        Path lock = proj.resolve("agent.lock");
        boolean sameInode;
        try {
            sameInode = Files.isRegularFile(lock, LinkOption.NOFOLLOW_LINKS)
                    && inode.equals(Files.getAttribute(lock, "unix:ino", LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
            sameInode = false;
        }
        if (sameInode) {
            if (!Files.readString(lock).equals(policyText)) {
                // O_WRONLY|O_TRUNC on the existing file: same inode
                Files.writeString(lock, policyText, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.WRITE,
                        java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
            }
            Files.setPosixFilePermissions(lock, PosixFilePermissions.fromString("rw-r--r--"));
            if (currentUid() == 0) { // only root can have been breached by chown (a root-only attack)
                run(List.of("chown", uid + ":" + uid, lock.toString()), 30);
            }
            return true;
        }
        if (Files.isDirectory(lock, LinkOption.NOFOLLOW_LINKS)) {
            run(List.of("rm", "-rf", lock.toString()), 30);
        } else {
            Files.deleteIfExists(lock);
        }
        write(lock, policyText);
        if (uid != currentUid()) {
            run(List.of("chown", uid + ":" + uid, lock.toString()), 30);
        }
        return false;
    }

    void delete() {
        try {
            run(List.of("rm", "-rf", "--one-file-system", base.toString()), 120);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    private List<String> asUser(List<String> cmd) {
        if (uid == currentUid()) {
            return cmd;
        }
        List<String> out = new ArrayList<>(List.of("setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups"));
        out.addAll(cmd);
        return out;
    }

    static int currentGid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:gid");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }

    static int currentUid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readOrNull(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : null;
        } catch (IOException e) {
            return "unreadable: " + e;
        }
    }

    /** Runs a helper command on the host; returns its output, or null when it failed. */
    static String run(List<String> cmd, int timeoutSeconds) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + cmd);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + cmd);
        }
        return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
    }

    // ------------------------------------------------------------------------------------------ class path

    private static volatile String sharedClasspath;

    /**
     * The test class path (the enforcer under test, the kit, ralon-cli and its backends), copied once per JVM into a
     * directory under /tmp every user may read, so that uid 65534 can run it (a build tree under a home directory of mode 700 is not readable to it).
     */
    static synchronized String readableClasspath() throws IOException {
        if (sharedClasspath != null) {
            return sharedClasspath;
        }
        String cp = System.getProperty("surefire.test.class.path");
        if (cp == null || cp.isBlank()) {
            cp = System.getProperty("java.class.path");
        }
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "ralon-kit-cp-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                run(List.of("rm", "-rf", "--one-file-system", dir.toString()), 60);
            } catch (IOException e) {
                // best effort at exit
            }
        }));
        List<String> out = new ArrayList<>();
        int i = 0;
        for (String entry : cp.split(java.io.File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path src = Path.of(entry).toAbsolutePath();
            if (!Files.exists(src)) {
                continue;
            }
            Path dst = dir.resolve((i++) + "-" + src.getFileName());
            if (Files.isDirectory(src)) {
                try (Stream<Path> s = Files.walk(src)) {
                    for (Path f : (Iterable<Path>) s::iterator) {
                        Path t = dst.resolve(src.relativize(f).toString());
                        if (Files.isDirectory(f)) {
                            Files.createDirectories(t);
                        } else {
                            Files.copy(f, t, StandardCopyOption.REPLACE_EXISTING);
                        }
                    }
                }
            } else {
                Files.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
            }
            out.add(dst.toString());
        }
        run(List.of("chmod", "-R", "a+rX", dir.toString()), 60);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        sharedClasspath = String.join(java.io.File.pathSeparator, out);
        return sharedClasspath;
    }

    static Path codeSource(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
