package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.Requirements;
import dev.ralon.testsupport.TestProcess;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.ralon.cli.WritesOutsideE2ETest.attempt;
import static dev.ralon.cli.WritesOutsideE2ETest.rc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Landlock without over-blocking (docs/backend-landlock.md, "The broker"): in a fresh git project whose root holds
 * agent.lock, .env and pom.xml (protected) and nothing made beforehand, under {@code --backend landlock}, as root and
 * as uid 65534, everyday work at the root succeeds through the broker ({@code mkdir target}, a new file, {@code sed
 * -i}, {@code git commit}) and every write to the protected files is refused; a project under /tmp leaves
 * {@code mktemp} working there. Every file is read from outside after the run.
 */
class LandlockBrokerE2ETest {
    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    /** A fresh git project beneath {@code u}'s base: agent.lock protecting .env and pom.xml, one commit. */
    static Path project(AsUser u) throws Exception {
        Path p = Files.createDirectory(u.base.resolve("project"));
        Files.writeString(p.resolve("agent.lock"), "version: 1\nprotect:\n  - .env\n  - pom.xml\n");
        Files.writeString(p.resolve(".env"), "SECRET=1\n");
        Files.writeString(p.resolve("pom.xml"), "<project/>\n");
        Files.writeString(p.resolve("notes.txt"), "a\n");
        Map<String, String> env = Map.of("HOME", u.home.toString(), "GIT_CONFIG_NOSYSTEM", "1");
        for (List<String> git : List.of(List.of("git", "init", "-q"), List.of("git", "add", "-A"),
                List.of("git", "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "start"))) {
            ProcessResult r = CliE2ETest.exec(p, null, env, git.toArray(String[]::new));
            assertEquals(0, r.code(), r.toString());
        }
        return p;
    }

    private static void requireBroker(AsUser u, Path project) throws Exception {
        u.assumeBackend(project, "landlock");
        ProcessResult dry = u.ralon(project, "run", "--backend", "landlock", "--dry-run", "--", "true");
        Requirements.require(dry.out().contains("landlock-broker"), "the landlock broker (seccomp user notification,"
                + " Linux 5.9): " + dry.out());
    }

    @ParameterizedTest(name = "as uid {0}")
    @ValueSource(ints = {0, TestProcess.NOBODY})
    void everydayWorkAtTheRootSucceedsAndTheProtectedFilesDoNot(int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid, Path.of("/var/lib"))) {
            Path project = project(u);
            u.handOver();
            requireBroker(u, project);
            String git = "git -c user.email=t@example.com -c user.name=t -c safe.directory=* ";
            StringBuilder s = new StringBuilder();
            s.append(attempt("mkdir-target", "mkdir target && echo built > target/app.jar"));
            s.append(attempt("scratch", "echo x > scratch.txt"));
            s.append(attempt("sed", "sed -i s/a/b/ notes.txt"));
            s.append(attempt("swap", "echo swap > .notes.txt.swp && rm .notes.txt.swp"));
            s.append(attempt("commit", git + "add scratch.txt && " + git + "commit -qam work"));
            s.append(attempt("env", "echo PWNED > .env"));
            s.append(attempt("pom", "echo PWNED >> pom.xml"));
            s.append(attempt("env-rm", "rm .env"));
            s.append(attempt("pom-over", "echo PWNED > new.xml && mv -f new.xml pom.xml"));
            s.append(attempt("env-away", "mv .env stolen"));
            s.append(attempt("lock", "echo PWNED > agent.lock"));
            s.append(attempt("lock-sed", "sed -i s/env/x/ agent.lock"));
            ProcessResult r = u.ralon(project, "run", "--backend", "landlock", "--", "sh", "-c", s.toString());
            assertEquals(0, r.code(), r.toString());
            for (String ok : List.of("mkdir-target", "scratch", "sed", "swap", "commit")) {
                assertEquals(0, rc(r, ok), ok + " must succeed: " + r);
            }
            for (String refused : List.of("env", "pom", "env-rm", "pom-over", "env-away", "lock", "lock-sed")) {
                assertTrue(rc(r, refused) != 0, refused + " must fail: " + r);
            }
            assertEquals("built\n", Files.readString(project.resolve("target/app.jar")));
            assertEquals("x\n", Files.readString(project.resolve("scratch.txt")));
            assertEquals("b\n", Files.readString(project.resolve("notes.txt")));
            assertFalse(Files.exists(project.resolve(".notes.txt.swp")));
            assertEquals("SECRET=1\n", Files.readString(project.resolve(".env")));
            assertEquals("<project/>\n", Files.readString(project.resolve("pom.xml")));
            assertEquals("version: 1\nprotect:\n  - .env\n  - pom.xml\n", Files.readString(project.resolve("agent.lock")));
            assertFalse(Files.exists(project.resolve("stolen")));
            ProcessResult log = CliE2ETest.exec(project, null, Map.of("GIT_CONFIG_NOSYSTEM", "1"), "git", "-c",
                    "safe.directory=*", "log", "--format=%s");
            assertEquals("work\nstart\n", log.out(), log.toString());
            if (uid != 0) { // what the broker made belongs to the user, as if the command had made it
                assertEquals(String.valueOf(uid), Files.getAttribute(project.resolve("scratch.txt"), "unix:uid")
                        .toString());
            }
        }
    }

    /**
     * Links, FIFOs and exchanges at the root (a create-restricted directory), as npm ({@code node_modules/.bin} links),
     * {@code python3 -m venv} ({@code lib64}) and editors make them: a symbolic link, a hard link of an unprotected
     * file, a FIFO and a {@code RENAME_EXCHANGE} (python's {@code os.rename} cannot ask for one: {@code mv
     * --exchange}, coreutils 9.5, or a call through ctypes) succeed through the broker. Refused: a hard link to a
     * protected file, to a file inside a protected directory, or to a file outside the writable places (its inode
     * would become writable through the project); a symbolic link over a protected name; an exchange with a protected
     * file; and a write through a link the broker made to a protected file (the domain judges the target). Every file
     * is read from outside afterwards.
     */
    @ParameterizedTest(name = "as uid {0}")
    @ValueSource(ints = {0, TestProcess.NOBODY})
    void linksFifosAndExchangesAreMadeThroughTheBrokerAndNeverReachAProtectedFile(int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid, Path.of("/var/lib"))) {
            Path project = project(u);
            Files.createDirectories(project.resolve("keys"));
            Files.writeString(project.resolve("keys/id"), "KEY\n");
            Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - .env\n  - pom.xml\n  - keys/\n");
            Path outside = Files.writeString(u.home.resolve(".profile"), "# profile\n");
            u.handOver();
            requireBroker(u, project);
            String exchange = "python3 -c 'import ctypes,sys; l=ctypes.CDLL(None, use_errno=True);"
                    + " r=l.renameat2(-100, sys.argv[1].encode(), -100, sys.argv[2].encode(), 2);"
                    + " sys.exit(0 if r == 0 else 1)' ";
            StringBuilder s = new StringBuilder();
            s.append(attempt("symlink", "mkdir -p node_modules/.bin && ln -s ../pkg/cli.js node_modules/.bin/cli"
                    + " && ln -s notes.txt notes-link"));
            s.append(attempt("hardlink", "ln notes.txt notes-hard"));
            s.append(attempt("fifo", "mkfifo pipe && test -p pipe"));
            s.append(attempt("exchange", "echo one > a.txt && echo two > b.txt && " + exchange + "a.txt b.txt"));
            s.append(attempt("hard-env", "ln .env env-copy"));
            s.append(attempt("hard-inside", "ln keys/id id-copy"));
            s.append(attempt("hard-outside", "ln \"$HOME/.profile\" profile-copy"));
            s.append(attempt("symlink-over", "ln -sf notes.txt pom.xml"));
            s.append(attempt("exchange-env", "echo PWNED > evil && " + exchange + "evil .env"));
            s.append(attempt("through-link", "ln -s .env env-link && echo PWNED > env-link"));
            ProcessResult r = u.ralon(project, "run", "--backend", "landlock", "--", "sh", "-c", s.toString());
            assertEquals(0, r.code(), r.toString());
            for (String ok : List.of("symlink", "hardlink", "fifo", "exchange")) {
                assertEquals(0, rc(r, ok), ok + " must succeed: " + r);
            }
            for (String refused : List.of("hard-env", "hard-inside", "hard-outside", "symlink-over", "exchange-env",
                    "through-link")) {
                assertTrue(rc(r, refused) != 0, refused + " must fail: " + r);
            }
            assertEquals(Path.of("../pkg/cli.js"), Files.readSymbolicLink(project.resolve("node_modules/.bin/cli")));
            assertEquals(Files.getAttribute(project.resolve("notes.txt"), "unix:ino"),
                    Files.getAttribute(project.resolve("notes-hard"), "unix:ino"));
            assertEquals("two\n", Files.readString(project.resolve("a.txt")));
            assertEquals("one\n", Files.readString(project.resolve("b.txt")));
            assertTrue(((Integer) Files.getAttribute(project.resolve("pipe"), "unix:mode") & 0170000) == 0010000);
            for (String absent : List.of("env-copy", "id-copy", "profile-copy")) {
                assertFalse(Files.exists(project.resolve(absent), java.nio.file.LinkOption.NOFOLLOW_LINKS), absent);
            }
            assertEquals("SECRET=1\n", Files.readString(project.resolve(".env")));
            assertEquals("<project/>\n", Files.readString(project.resolve("pom.xml")));
            assertEquals("KEY\n", Files.readString(project.resolve("keys/id")));
            assertEquals("# profile\n", Files.readString(outside));
            assertEquals(1, Files.getAttribute(outside, "unix:nlink"));
        }
    }

    @ParameterizedTest(name = "as uid {0}")
    @ValueSource(ints = {0, TestProcess.NOBODY})
    void aProjectUnderTmpLeavesMktempWorkingThere(int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid)) {
            Path project = project(u);
            u.handOver();
            requireBroker(u, project);
            ProcessResult r = u.ralon(project, "run", "--backend", "landlock", "--", "sh", "-c",
                    attempt("mktemp", "t=$(mktemp /tmp/ralon-e2e-XXXXXX) && echo \"MADE $t\" && rm \"$t\"")
                    + attempt("env", "echo PWNED > .env"));
            assertEquals(0, r.code(), r.toString());
            assertEquals(0, rc(r, "mktemp"), r.toString());
            assertTrue(rc(r, "env") != 0, r.toString());
            assertEquals("SECRET=1\n", Files.readString(project.resolve(".env")));
        }
    }

    /**
     * The broker is a process outside the domain: the command cannot kill it (it is outside the session's PID
     * namespace, or beyond Landlock's signal scope, ABI 6), and if it dies anyway (killed from outside here) every call
     * it would have served fails: nothing is made, nothing protected is written, and the command still ends.
     */
    @ParameterizedTest(name = "as uid {0}")
    @ValueSource(ints = {0, TestProcess.NOBODY})
    void theCommandCannotKillTheBrokerAndWithoutItBrokeredCallsFailClosed(int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid, Path.of("/var/lib"))) {
            Path project = project(u);
            Path work = Files.createDirectory(project.resolve("work")); // not on the way: writable without the broker
            u.handOver();
            requireBroker(u, project);
            String script = attempt("kill", "n=Broker; n=${n}Process; k=0; for p in /proc/[0-9]*; do"
                    + " c=$(tr '\\0' ' ' < $p/cmdline 2>/dev/null); case \"$c\" in *\"$n\"*) kill -9 ${p#/proc/}"
                    + " 2>/dev/null && k=$((k + 1));; esac; done; echo \"KILLED $k\"")
                    + attempt("before", "echo x > before.txt")
                    + ": > work/ready\n"
                    + "i=0; while [ ! -e work/go ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done\n"
                    + attempt("after", "echo x > after.txt")
                    + attempt("env", "echo PWNED > .env");
            // The command on a thread of its own, never on the common pool: JDK 25's CompletableFuture runs async
            // tasks there (ForkJoinPool.asyncCommonPool), where this blocking wait held the worker that onExit's
            // completion needed, and the broker's end was never seen (the test timed out on JDK 25 only).
            java.util.concurrent.FutureTask<ProcessResult> run = new java.util.concurrent.FutureTask<>(
                    () -> u.ralon(project, "run", "--backend", "landlock", "--", "sh", "-c", script));
            Thread runner = new Thread(run, "ralon run (broker test)");
            runner.setDaemon(true);
            runner.start();
            List<ProcessHandle> brokers;
            try {
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (!Files.exists(work.resolve("ready")) && !run.isDone() && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                brokers = brokersIn(project);
                brokers.forEach(ProcessHandle::destroyForcibly);
                // the broker is not our child: its end is seen when its pid is gone (reaped by its parent, or by
                // PID 1, which on some hosts reaps orphans seconds late), polled without any executor
                long gone = System.nanoTime() + 30_000_000_000L;
                while (brokers.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < gone) {
                    Thread.sleep(50);
                }
                assertTrue(brokers.stream().noneMatch(ProcessHandle::isAlive), "the broker outlived SIGKILL by 30 s: "
                        + brokers);
            } finally {
                Files.writeString(work.resolve("go"), ""); // the command never waits out its 60 s
                runner.join(120_000); // and ends before its directory is removed, whatever the test found
            }
            ProcessResult r = run.get(120, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(0, r.code(), r.toString());
            assertEquals(1, brokers.size(), "one broker beside the command, found from outside: " + brokers + " " + r);
            assertTrue(r.out().contains("KILLED 0"), "the command killed the broker: " + r);
            assertEquals(0, rc(r, "before"), "made through the broker before it died: " + r);
            assertTrue(rc(r, "after") != 0, "with the broker gone a creation at the root must fail: " + r);
            assertTrue(rc(r, "env") != 0, r.toString());
            assertEquals("x\n", Files.readString(project.resolve("before.txt")));
            assertFalse(Files.exists(project.resolve("after.txt")), r.toString());
            assertEquals("SECRET=1\n", Files.readString(project.resolve(".env")));
        }
    }

    /** The live broker processes whose working directory is {@code project} (each starts where ralon runs). */
    private static List<ProcessHandle> brokersIn(Path project) {
        return ProcessHandle.allProcesses().filter(p -> {
            try {
                Path proc = Path.of("/proc", Long.toString(p.pid()));
                String cmd = Files.readString(proc.resolve("cmdline")).replace('\0', ' ');
                return cmd.contains("dev.ralon.enforcer.landlock.BrokerProcess")
                        && Files.readSymbolicLink(proc.resolve("cwd")).equals(project);
            } catch (java.io.IOException | RuntimeException e) {
                return false; // gone, or not readable
            }
        }).toList();
    }
}
