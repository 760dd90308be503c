package dev.ralon.cli;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code ralon run} through the real executable ({@code cli/target/ralon}) in child processes: the command becomes
 * this process (same pid), keeps its exit status, signals, terminal and environment, and inherits nothing of the JVM
 * (descriptors, signal mask, raised RLIMIT_NOFILE). Uses the noop backend: these tests are about the host's exec
 * path, which every backend shares; backends are attacked in their own suites and the conformance kit.
 */
class RunE2ETest {
    @TempDir
    Path project;

    Path ralon;

    @BeforeEach
    void setUp() throws IOException {
        String exe = System.getProperty("ralon.executable");
        if (exe == null) {
            fail("system property ralon.executable is not set: run through Maven (mvn verify), which builds cli/target/ralon");
        }
        ralon = Path.of(exe);
        assertTrue(Files.isExecutable(ralon), "not executable: " + ralon);
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
        Files.writeString(project.resolve("secret.txt"), "s3cret\n");
    }

    ProcessResult run(List<String> args, String stdin, Map<String, String> env) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ralon.toString());
        cmd.addAll(args);
        return TestProcess.of(cmd).in(project).env(env).stdin(stdin == null ? "" : stdin).run();
    }

    ProcessResult run(String... args) throws Exception {
        return run(List.of(args), null, Map.of());
    }

    @Test
    void exitStatusComesBackFromTheSamePid() throws Exception {
        ProcessResult r = run("run", "--backend", "noop", "--", "sh", "-c", "echo $$; exit 7");
        assertEquals(7, r.code(), r.err());
        assertEquals(String.valueOf(r.pid()), r.out().trim(), "the command must run in ralon's own process");
        assertTrue(r.err().contains("enforces nothing"), "noop must say loudly that nothing is protected: " + r.err());
    }

    @Test
    void unknownBackendIsOneLineAndExit2() throws Exception {
        ProcessResult r = run("run", "--backend", "nosuch", "--", "true");
        assertEquals(2, r.code());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("ralon: unknown backend 'nosuch'"), r.err());
    }

    @Test
    void commandNotFoundAndNotExecutableAreExit2() throws Exception {
        ProcessResult r = run("run", "--backend", "noop", "--", "no-such-command-xyz");
        assertEquals(2, r.code());
        assertTrue(r.err().lines().anyMatch(l -> l.equals("ralon: command not found: no-such-command-xyz")), r.err());
        Path notExec = project.resolve("script.sh");
        Files.writeString(notExec, "#!/bin/sh\necho hi\n");
        r = run("run", "--backend", "noop", "--", "./script.sh");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("./script.sh: permission denied"), r.err());
    }

    /** A file without #! that the kernel cannot execute (ENOEXEC) runs under /bin/sh, as execvp(3) does, everywhere. */
    @Test
    void aScriptWithoutShebangRunsUnderShUnderEveryBackend() throws Exception {
        Path script = project.resolve("noshebang");
        Files.writeString(script, "echo \"ran as $0 with $*\"\n");
        Files.setPosixFilePermissions(script, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String backend : List.of("noop", "landlock", "mount")) {
            ProcessResult r = run("run", "--backend", backend, "--", "./noshebang", "a", "b");
            assertEquals(0, r.code(), backend + ": " + r.err());
            assertEquals("ran as " + script.toRealPath() + " with a b\n", r.out(), backend);
        }
    }

    @Test
    void argumentsAfterTheCommandBelongToTheCommand() throws Exception {
        ProcessResult r = run("run", "--backend", "noop", "sh", "-c", "printf '%s|' \"$@\"", "x", "--help", "-v");
        assertEquals(0, r.code(), r.err());
        assertEquals("--help|-v|", r.out());
    }

    @Test
    void noDescriptorAbove2LeaksIntoTheCommand() throws Exception {
        // dash opens no descriptor of its own; list the shell's own fds (not ls's)
        ProcessResult r = run("run", "--backend", "noop", "--", "sh", "-c", "ls /proc/$$/fd");
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of("0", "1", "2"), r.out().lines().sorted().toList(), "descriptors in the command");
    }

    /** Standard signals 1..31 of a /proc status mask line; glibc reserves 32 and 33 for itself (signal(7)). */
    static long standard(String status, String field) {
        String line = status.lines().filter(l -> l.startsWith(field + ":")).findFirst().orElseThrow();
        return Long.parseLong(line.substring(field.length() + 1).trim(), 16) & 0x7fffffffL;
    }

    @Test
    void signalMaskIsEmptyAndIgnoredSignalsAreTheUsers() throws Exception {
        // The command reads its own status. (Reading a shell's /proc/$$/status from a child is racy: dash blocks
        // every signal while it waits for children. And plain children of a JVM start with SIGQUIT blocked.)
        String probe = "grep -E '^Sig(Blk|Ign)' /proc/self/status";
        ProcessResult inside = run("run", "--backend", "noop", "--", "grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status");
        assertEquals(0, inside.code(), inside.err());
        assertTrue(inside.out().contains("SigBlk:\t0000000000000000"), "no signal may stay blocked: " + inside.out());
        String baseline = TestProcess.of("sh", "-c", probe).stdin("").run().out();
        assertEquals(standard(baseline, "SigIgn"), standard(inside.out(), "SigIgn"),
                "ignored signals must be what a plain child of the caller has: " + inside.out() + " vs " + baseline);
        // a signal the user ignores (nohup-style) stays ignored in the command
        String ignored = TestProcess.of("sh", "-c", "trap '' HUP; exec \"$0\" run --backend noop -- "
                + "grep -E '^Sig(Blk|Ign)' /proc/self/status", ralon.toString()).in(project).stdin("").run().out();
        assertEquals(1L, standard(ignored, "SigIgn") & 1L, "SIGHUP ignored by the user must stay ignored: " + ignored);
    }

    @Test
    void nofileLimitIsTheUsersNotTheJvms() throws Exception {
        // The JVM would raise the soft limit to the hard one; the user's lower soft limit must come back.
        ProcessResult r = run(List.of("run", "--backend", "noop", "--", "sh", "-c", "ulimit -Sn"), null, Map.of());
        String hard = TestProcess.of("sh", "-c", "ulimit -Hn").run().out().trim();
        assertEquals(0, r.code(), r.err());
        String out = TestProcess.of("sh", "-c", "ulimit -Sn 512 && exec \"$0\" run --backend noop -- sh -c 'ulimit -Sn'",
                ralon.toString()).in(project).stdin("").run().out().trim();
        assertEquals("512", out, "soft RLIMIT_NOFILE in the command (hard limit is " + hard + ")");
    }

    @Test
    void stdinAndStdoutPassThrough() throws Exception {
        ProcessResult r = run(List.of("run", "--backend", "noop", "--", "cat"), "hello\nworld\n", Map.of());
        assertEquals(0, r.code(), r.err());
        assertEquals("hello\nworld\n", r.out());
    }

    @Test
    void environmentPassesThroughAndNamesTheBackendAndPolicy() throws Exception {
        ProcessResult r = run(List.of("run", "--backend", "noop", "--", "sh", "-c",
                "echo \"$MY_VAR|$RALON_BACKEND|$RALON_POLICY|${RALON_ORIG_NOFILE-unset}\""), null, Map.of("MY_VAR", "kept"));
        assertEquals(0, r.code(), r.err());
        assertEquals("kept|noop|" + project.toRealPath().resolve("agent.lock") + "|unset", r.out().trim());
    }

    @Test
    void terminalAndForegroundProcessGroupStayWithTheCommand() throws Exception {
        // script(1) gives the child a real pseudo-terminal; the command must see it and be the foreground group.
        String inner = ralon + " run --backend noop -- sh -c 'tty; ps -o tpgid= -o pgid= -p $$'";
        Process p = new ProcessBuilder("script", "-qec", inner, "/dev/null").directory(project.toFile()).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        List<String> lines = out.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("ralon:")).toList();
        assertTrue(lines.get(0).startsWith("/dev/pts/"), "the command must keep the terminal: " + out);
        String[] ids = lines.get(1).split("\\s+");
        assertEquals(ids[0], ids[1], "the command's process group must be the terminal's foreground group: " + out);
    }

    @Test
    void sigtermToRalonsPidReachesTheCommand() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(ralon.toString(), "run", "--backend", "noop", "--", "sleep", "60")
                .directory(project.toFile()).redirectErrorStream(true);
        Process p = pb.start();
        Path cmdline = Path.of("/proc/" + p.pid() + "/cmdline");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            String c = Files.exists(cmdline) ? Files.readString(cmdline).replace('\0', ' ').trim() : "";
            if (c.equals("sleep 60")) {
                break;
            }
            if (System.nanoTime() > deadline || !p.isAlive()) {
                fail("the ralon process never became `sleep 60` (last cmdline: " + c + ")");
            }
            Thread.sleep(20);
        }
        p.destroy(); // SIGTERM to the pid we started: it is the command now
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), "sleep did not die of SIGTERM");
        assertEquals(128 + 15, p.exitValue(), "killed by SIGTERM");
    }

    @Test
    void statusInsideRunReportsTheBoundary() throws Exception {
        // under noop the boundary is open: status must say so (WRITABLE), not pretend
        ProcessResult r = run("run", "--backend", "noop", "--", ralon.toString(), "status");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("this process runs under ralon (backend noop)"), r.out());
        assertTrue(r.out().contains("WRITABLE  secret.txt"), r.out());
        assertFalse(r.out().contains("refused  secret.txt"), r.out());
        assertEquals("s3cret\n", Files.readString(project.resolve("secret.txt")), "the probe must not change the file");
    }

    @Test
    void dryRunPrintsThePlanAndStartsNothing() throws Exception {
        Path marker = project.resolve("started");
        ProcessResult r = run("run", "--backend", "noop", "--dry-run", "--", "touch", marker.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("backend: noop"), r.out());
        assertTrue(r.out().contains("secret.txt"), r.out());
        assertTrue(r.out().contains("verdict: enforceable"), r.out());
        assertFalse(Files.exists(marker), "dry-run must not start the command");
        ProcessResult j = run("run", "--backend", "noop", "--dry-run", "--json", "--", "true");
        assertEquals(0, j.code(), j.err());
        assertTrue(j.out().startsWith("{") && j.out().contains("\"enforceable\": true"), j.out());
    }
}
