package dev.ralon.conformance;

import dev.ralon.conformance.KitRun.Case;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The shell script one run makes inside the sandbox: who the command is, what must keep working, every case (shell
 * attacks in subshells, program attacks batched into one {@link dev.ralon.conformance.attack.AttackProgram} JVM, or
 * one in a nested user namespace), the policy file one attack at a time ({@code SNAP ID}, then it waits for the kit),
 * the signal check, {@code END} and exit {@link KitRun#EXIT_MARK}. It prints {@code RESULT ID RC} lines.
 */
final class AttackScript {
    private final List<Case> cases;
    private final Path proj;
    private final Path free;
    private final Path home;

    AttackScript(KitProject project) {
        this.cases = project.cases;
        this.proj = project.proj;
        this.free = project.free;
        this.home = project.home;
    }

    /** The script, reading the kit's class path from {@code kitClasspathFile} for the attack programs. */
    String text(Path kitClasspathFile) {
        StringBuilder s = new StringBuilder("#!/bin/sh\n");
        s.append("P=").append(q(proj)).append("; F=").append(q(free)).append("; LOG=").append(q(home.resolve("tmp/attacks.log")))
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
            if (c.attack().viaTerminal() || c.attack().viaHelper()) {
                continue; // made after this script: from a terminal (TerminalCases), with a helper (HelperCases)
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
        // SIGTERM sent to the pid ralon was started as reaches the command (directly, or passed on by the session's
        // PID 1 when the backend contains the session: SessionContainer)
        s.append("got=none; trap 'got=TERM' TERM; echo SIGNAL-READY; i=0\n");
        s.append("while [ \"$got\" = none ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done\n");
        s.append("trap - TERM; echo \"RESULT ok-signal $got\"\n");
        // the leftover attack waits for this before it acts
        s.append(": > \"$F/ended\"; echo END\nexit ").append(KitRun.EXIT_MARK).append('\n');
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
        {"ok-mv-out-of-project", "mv \"$F/a/crossing\" \"$TMPDIR/crossing\""},
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

    /** A short-lived JVM of the kit (class path as the placeholder {@code @CP@}) running {@code main}. */
    static List<String> javaCommand(Path home, String main) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-XX:-UsePerfData");
        cmd.add("-Xshare:auto");
        cmd.addAll(KitHost.jvmOptions()); // the class path's class-data archive and JNA's library, when made
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
}
