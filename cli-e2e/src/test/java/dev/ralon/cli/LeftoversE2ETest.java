package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nothing the command starts outlives it (docs/security.md, "Nothing outlives the session"): under the mount and landlock backends the
 * command runs beneath PID 1 of a PID namespace of its own, so every process it leaves behind ({@code &}, {@code nohup},
 * {@code setsid}, a double fork) is killed when it ends. Each leftover would write a file 2 s after the command
 * exited; the files are looked for from outside after 4 s. Control: the same script without the sandbox leaves all
 * four files. And the chain keeps what a user relies on: the exit status, SIGTERM to ralon's pid, Ctrl-C in a terminal,
 * and (for a non-root invoker) a /proc of the session's own processes, so {@code pkill} finds them by the ids it kills.
 */
class LeftoversE2ETest {
    static final List<String> KINDS = List.of("background", "nohup", "setsid", "double-fork");

    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    /** Each invoker under each backend that contains the session. */
    static Stream<Arguments> users() {
        return Stream.of(Arguments.of(0, "mount"), Arguments.of(65534, "mount"), Arguments.of(0, "landlock"),
                Arguments.of(65534, "landlock"));
    }

    /** Starts the four kinds of leftover, each writing OUT/KIND two seconds later, then exits 3. */
    static String leftovers(Path out) {
        String late = "sleep 2; echo late > " + out + "/";
        return "(" + late + "background) & nohup sh -c '" + late + "nohup' >/dev/null 2>&1 & setsid sh -c '" + late
                + "setsid' & sh -c '(" + late + "double-fork) &'; exit 3";
    }

    static AsUser user(int uid) throws Exception {
        AsUser.assumeRoot();
        return new AsUser(uid);
    }

    static Path project(AsUser u) throws Exception {
        Path p = Files.createDirectories(u.base.resolve("proj"));
        Files.writeString(p.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
        Files.writeString(p.resolve("secret.txt"), "s\n");
        Files.createDirectories(u.base.resolve("out"));
        Files.createDirectories(u.base.resolve("control"));
        return p;
    }

    @ParameterizedTest(name = "uid {0}, {1}")
    @MethodSource("users")
    void noProcessOutlivesTheCommand(int uid, String backend) throws Exception {
        try (AsUser u = user(uid)) {
            Path p = project(u);
            u.handOver();
            u.assumeBackend(p, backend);
            ProcessResult c = u.sh(p, leftovers(u.base.resolve("control")));
            assertEquals(3, c.code(), c.toString());
            ProcessResult r = u.ralon(p, "run", "--backend", backend, "--", "sh", "-c", leftovers(u.base.resolve("out")));
            assertEquals(3, r.code(), "the command's exit status comes back: " + r);
            Thread.sleep(4000);
            for (String k : KINDS) {
                assertTrue(Files.exists(u.base.resolve("control/" + k)), "control: without the sandbox the " + k
                        + " leftover lives on and writes its file");
                assertFalse(Files.exists(u.base.resolve("out/" + k)), "the " + k + " leftover outlived the command: "
                        + r);
            }
        }
    }

    /**
     * Around the containment: a leftover that tries to keep PID 1 alive (reopen its lifeline for writing through
     * /proc/1/fd/3 or any other descriptor of PID 1, stop or kill PID 1) still dies with the command.
     * Checked from outside: its file is never written.
     */
    @ParameterizedTest(name = "uid {0}, {1}")
    @MethodSource("users")
    void aLeftoverCannotKeepPid1Alive(int uid, String backend) throws Exception {
        try (AsUser u = user(uid)) {
            Path p = project(u);
            u.handOver();
            u.assumeBackend(p, backend);
            Path out = u.base.resolve("out");
            // each reopen in a leftover of its own (opening a pipe for writing may wait for a reader), holding what
            // it got; and one plain leftover beside them (the noop control: it writes "late")
            String hold = "for f in /proc/1/fd/* /proc/1/task/*/fd/*; do (exec 9>>\"$f\" && { echo \"$f\" > " + out
                    + "/reopened; sleep 2; echo late > " + out + "/held; }) & done; kill -STOP 1;"
                    + " kill -KILL 1; sleep 2; echo late > " + out + "/late";
            ProcessResult r = u.ralon(p, "run", "--quiet", "--backend", backend, "--", "sh", "-c",
                    "(" + hold + ") >/dev/null 2>&1 & sleep 0.5; exit 0");
            assertEquals(0, r.code(), r.toString());
            Thread.sleep(4000);
            assertFalse(Files.exists(out.resolve("reopened")), "a descriptor of PID 1 was reopened: " + r);
            assertFalse(Files.exists(out.resolve("held")), "a leftover holding PID 1's descriptor lived on: " + r);
            assertFalse(Files.exists(out.resolve("late")), "the leftover outlived the command: " + r);
        }
    }

    @ParameterizedTest(name = "uid {0}, {1}")
    @MethodSource("users")
    void sigtermToRalonsPidReachesTheCommandAndStatusesComeBack(int uid, String backend) throws Exception {
        try (AsUser u = user(uid)) {
            Path p = project(u);
            u.handOver();
            u.assumeBackend(p, backend);
            Path out = u.base.resolve("out");
            String cmd = "trap 'echo term > " + out + "/t; exit 0' TERM; echo started > " + out + "/s;"
                    + " while :; do sleep 0.1; done";
            String script = "\"$0\" run --quiet --backend " + backend + " -- sh -c \"$1\" & p=$!\n"
                    + "i=0; while [ ! -e \"$2/s\" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done\n"
                    + "kill -TERM $p; wait $p; echo \"status $?\"\n"
                    + "\"$0\" run --quiet --backend " + backend + " -- sh -c 'kill -KILL $$'; echo \"killed $?\"\n";
            ProcessResult r = u.sh(p, "exec sh -c '" + script.replace("'", "'\\''") + "' \"" + u.exe + "\" \"" + cmd
                    .replace("\"", "\\\"").replace("$", "\\$") + "\" \"" + out + "\"");
            assertTrue(r.out().contains("status 0"), "SIGTERM reached the command's trap, which exited 0: " + r);
            assertEquals("term\n", Files.readString(out.resolve("t")), r.toString());
            assertTrue(r.out().contains("killed 137"), "a command killed by SIGKILL: status 128+9: " + r);
        }
    }

    /** Ctrl-C typed into a real terminal (script(1)) reaches the command in the foreground. */
    @ParameterizedTest(name = "uid {0}, {1}")
    @MethodSource("users")
    void ctrlCInTheTerminalReachesTheCommand(int uid, String backend) throws Exception {
        try (AsUser u = user(uid)) {
            Path p = project(u);
            u.handOver();
            u.assumeBackend(p, backend);
            Path out = u.base.resolve("out");
            String inner = u.exe + " run --quiet --backend " + backend + " -- sh -c 'trap \"echo int > " + out
                    + "/i; exit 0\" INT; : > " + out + "/ready; while :; do sleep 0.1; done'";
            // Ctrl-C is typed once the command runs (a slow start must not get it instead)
            String typist = "i=0; while [ ! -e " + out + "/ready ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done;"
                    + " sleep 0.5; printf '\\003'; sleep 3";
            // exec: no shell between script(1) and ralon (a non-interactive sh waiting for ralon dies of the Ctrl-C
            // itself, and script then hangs up the terminal before the command's trap has run)
            ProcessResult r = u.sh(p, "(" + typist + ") | timeout 90 script -qefc \"exec " + inner
                    .replace("\"", "\\\"") + "\" /dev/null; echo \"script $?\"");
            assertTrue(Files.exists(out.resolve("i")), "Ctrl-C reached the command's trap: " + r);
            assertTrue(r.out().contains("script 0"), r.toString());
        }
    }

    /**
     * The session sees its own processes in /proc (root too: PID 1 binds the kernel interfaces on the new /proc):
     * pkill finds and stops them by the ids kill takes, and /proc/sys stays read-only for a root invoker.
     */
    @ParameterizedTest(name = "uid {0}, {1}")
    @MethodSource("users")
    void procShowsTheSessionsOwnProcesses(int uid, String backend) throws Exception {
        try (AsUser u = user(uid)) {
            Path p = project(u);
            u.handOver();
            u.assumeBackend(p, backend);
            ProcessResult r = u.ralon(p, "run", "--quiet", "--backend", backend, "--", "sh", "-c",
                    // the pattern does not match this shell's own command line (pkill -f would stop it too)
                    "s=100; sleep $s & sleep 0.3; pkill -f 'sleep 1[0]0'; echo \"pkill $?\"; wait; ps -o comm= -p 1");
            assertTrue(r.out().contains("pkill 0"), "pkill found the session's sleep by the id kill takes: " + r);
            // PID 1 is timeout(1) under mount, the shell that mounted /proc under landlock (SessionContainer)
            assertTrue(r.out().contains("mount".equals(backend) ? "timeout" : "sh"), "PID 1 is the session's: " + r);
            if (uid == 0) {
                ProcessResult w = u.ralon(p, "run", "--quiet", "--backend", backend, "--", "sh", "-c",
                        "echo 1 > /proc/sys/kernel/sysrq; echo \"sysctl $?\"; grep -c ' /proc/sys .*ro' /proc/self/mountinfo");
                assertTrue(w.out().contains("sysctl 1") || w.out().contains("sysctl 2"), "a root run cannot write"
                        + " /proc/sys of the session's own /proc: " + w);
            }
        }
    }
}
