package dev.ralon.cli;

import dev.ralon.testsupport.Leftovers;
import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Terminal injection (TIOCSTI, TIOCLINUX) on a real pseudo-terminal driving a real interactive bash, the user's shell:
 * {@code script(1)} gives bash a pty, this test types into it, and the command {@code ralon run} starts pushes
 * {@code echo PWNED >> secret.txt} into that terminal's input queue. Without the terminal guard, bash reads and runs
 * that line once {@code ralon run} returns, outside any sandbox; the verdict is the protected file, read from
 * outside after bash had the chance to run it.
 *
 * <p>The control (the same injector started by the same shell without {@code ralon run}) must get through, or the
 * machine cannot show the attack ({@code dev.tty.legacy_tiocsti=0} without CAP_SYS_ADMIN): then the tests are
 * skipped with the reason, and fail under {@code CI=true}.
 */
class TerminalInjectionE2ETest {
    static final int NOBODY = 65534;
    static final String SECRET = "s3cret\n";
    static final Pattern IOCTL = Pattern.compile("IOCTL (\\w+) errno=(\\d+)");

    static Path base;
    static Path exe;
    static Path home;
    static String injectorClasspath;
    static boolean root;

    @BeforeAll
    static void setUp() throws Exception {
        String ralon = System.getProperty("ralon.executable");
        if (ralon == null) {
            fail("system property ralon.executable is not set: run through Maven (mvn verify)");
        }
        root = "0".equals(run("id", "-u").trim());
        // Everything uid 65534 runs must be readable by it (CI may clone into a home directory that user cannot read).
        base = Leftovers.createTempDirectory(Path.of("/tmp"), "ralon-tty-");
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        exe = SharedExecutable.exe(); // this JVM's readable copy, its archive built (a copy of its own had none)
        home = Files.createDirectories(base.resolve("home/tmp")).getParent();
        Path cp = Files.createDirectories(base.resolve("cp/dev/ralon/cli"));
        Path classes = Path.of(TiocstiInjector.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        for (String c : List.of("TiocstiInjector.class", "TiocstiInjector$LibC.class")) {
            Files.copy(classes.resolve("dev/ralon/cli").resolve(c), cp.resolve(c));
        }
        Path jna = Path.of(com.sun.jna.Native.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Files.copy(jna, base.resolve("cp/jna.jar"), StandardCopyOption.REPLACE_EXISTING);
        injectorClasspath = base.resolve("cp") + ":" + base.resolve("cp/jna.jar");
        run("chmod", "-R", "a+rX", base.toString());
        run("chmod", "-R", "a+rwx", home.toString());
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (base != null) {
            run("rm", "-rf", "--one-file-system", base.toString());
        }
    }

    static String run(String... cmd) throws IOException, InterruptedException {
        ProcessResult r = TestProcess.of(cmd).mergeStderr().stdin("").run();
        assertEquals(0, r.code(), String.join(" ", cmd) + ": " + r.out());
        return r.out();
    }

    /** A project with secret.txt protected, owned by the user the shell runs as. */
    static Path project(String name, boolean nobody) throws Exception {
        Path p = Files.createDirectories(base.resolve(name));
        Files.writeString(p.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
        Files.writeString(p.resolve("secret.txt"), SECRET);
        if (nobody) {
            run("chown", "-R", NOBODY + ":" + NOBODY, p.toString());
        }
        return p;
    }

    /** An interactive bash on a fresh pseudo-terminal (script(1)), as root or uid 65534, typed into by the test. */
    static final class Shell implements AutoCloseable {
        final Process process;
        final StringBuffer transcript = new StringBuffer();
        final OutputStream keys;

        Shell(Path cwd, boolean nobody) throws IOException, InterruptedException {
            String bash = "bash --norc --noprofile -i";
            String inner = nobody ? "setpriv --reuid=" + NOBODY + " --regid=" + NOBODY + " --clear-groups " + bash : bash;
            // env --default-signal: a JVM started in the background (mvn ... &) has SIGINT ignored, and an ignored
            // signal stays ignored across exec (signal(7)) and cannot be trapped by a non-interactive sh: ^C would
            // then prove nothing. The user's terminal session has it at its default.
            ProcessBuilder pb = new ProcessBuilder("env", "--default-signal=INT,QUIT", "script", "-qfec", inner,
                    "/dev/null").directory(cwd.toFile())
                    .redirectErrorStream(true);
            Map<String, String> env = pb.environment();
            env.put("HOME", home.toString());
                        env.put("TERM", "dumb");
            env.put("RALON_JAVA_OPTS", "-Djava.io.tmpdir=" + home.resolve("tmp"));
            env.remove("JAVA_TOOL_OPTIONS");
            env.remove("_JAVA_OPTIONS");
            env.remove("RALON_ORIG_NOFILE");
            process = pb.start();
            keys = process.getOutputStream();
            Thread reader = new Thread(() -> {
                byte[] buf = new byte[4096];
                try (InputStream in = process.getInputStream()) {
                    int n;
                    while ((n = in.read(buf)) > 0) {
                        transcript.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                    }
                } catch (IOException e) {
                    transcript.append("\n(reading the terminal failed: ").append(e).append(")\n");
                }
            }, "pty-reader");
            reader.setDaemon(true);
            reader.start();
            type("echo SHELL\"\"-UP\n"); // bash may ignore PS1 from the environment (it does as root)
            await("SHELL-UP");
        }

        void type(String s) throws IOException {
            keys.write(s.getBytes(StandardCharsets.UTF_8));
            keys.flush();
        }

        /** Waits until the terminal shows {@code marker} (typed lines show it split by "" so they never match). */
        void await(String marker) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!transcript.toString().contains(marker)) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    fail("the terminal never showed " + marker + "; transcript:\n" + transcript);
                }
                Thread.sleep(20);
            }
        }

        @Override
        public void close() throws Exception {
            if (process.isAlive()) {
                type("exit\n");
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        }
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The injector's command line: TIOCSTI, TIOCSTI with high bits set, TIOCLINUX. */
    static String injector() {
        return java() + " -Djna.tmpdir=" + home.resolve("tmp") + " -Djava.io.tmpdir=" + home.resolve("tmp")
                + " -cp " + injectorClasspath + " dev.ralon.cli.TiocstiInjector"
                + " 5412 'echo PWNED1 >> secret.txt\\n' 100005412 'echo PWNED2 >> secret.txt\\n' 541c x";
    }

    /** What one session showed: the injector's errno per request, and secret.txt read from outside afterwards. */
    record Attempt(Map<String, Integer> errnos, String secret, String transcript) {
    }

    /** Types {@code prefix + injector} into a fresh interactive bash, then one more line, then reads the file. */
    static Attempt attempt(String name, boolean nobody, String prefix) throws Exception {
        Path p = project(name, nobody);
        String transcript;
        try (Shell sh = new Shell(p, nobody)) {
            sh.type(prefix + injector() + "; echo RAN\"\"-DONE\n");
            sh.await("RAN-DONE");
            // Anything injected is now in the input queue, ahead of this line: bash runs it first.
            sh.type("echo END\"\"-MARK\n");
            sh.await("END-MARK");
            transcript = sh.transcript.toString();
        }
        Map<String, Integer> errnos = new java.util.LinkedHashMap<>();
        Matcher m = IOCTL.matcher(transcript);
        while (m.find()) {
            errnos.put(m.group(1), Integer.parseInt(m.group(2)));
        }
        return new Attempt(errnos, Files.readString(p.resolve("secret.txt")), transcript);
    }

    static boolean inCi() {
        return dev.ralon.testsupport.Requirements.inCi();
    }

    static void needRootFor(boolean nobody) {
        if (nobody && !root) {
            dev.ralon.testsupport.Requirements.requireRoot("running the shell as uid 65534 needs setpriv as root");
        }
    }

    /**
     * The control: the attack works on this machine when nothing stands in the way. Without it every verdict below
     * could pass for lack of an effect to detect.
     */
    static void controlInjects(boolean nobody) throws Exception {
        Attempt a = attempt("control-" + (nobody ? "nobody" : "self") + "-" + System.nanoTime(), nobody, "");
        if (!a.secret().contains("PWNED1") || !a.secret().contains("PWNED2")) {
            String sysctl = Files.readString(Path.of("/proc/sys/dev/tty/legacy_tiocsti")).trim();
            String why = "this machine does not let a plain process inject into its terminal (dev.tty.legacy_tiocsti="
                    + sysctl + ", uid " + (nobody ? NOBODY : "of this JVM") + "); the injector said " + a.errnos()
                    + ": the terminal-injection tests cannot show anything here";
            dev.ralon.testsupport.Requirements.unmet(why + "\n" + a.transcript());
        }
        assertEquals(Integer.valueOf(0), a.errnos().get("5412"), a.transcript());
        assertEquals(Integer.valueOf(0), a.errnos().get("100005412"), "the kernel truncates the request to 32 bits");
        assertTrue(a.errnos().containsKey("541c") && a.errnos().get("541c") != 1,
                "TIOCLINUX on a pty fails for its own reason (ENOTTY: not a console), not EPERM: " + a.errnos());
    }

    @Test
    void controlWithoutRalonTheShellRunsTheInjectedLine() throws Exception {
        controlInjects(false);
        needRootFor(true);
        controlInjects(true);
    }

    @TestFactory
    Stream<DynamicTest> injectionIsRefusedUnderEveryBackend() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String backend : List.of("noop", "landlock", "mount")) {
            for (boolean nobody : List.of(false, true)) {
                String who = nobody ? "uid 65534" : "this user (root in CI)";
                tests.add(DynamicTest.dynamicTest(backend + ", " + who, () -> {
                    needRootFor(nobody);
                    controlInjects(nobody);
                    Attempt a = attempt(backend + "-" + (nobody ? "nobody" : "self"), nobody,
                            exe + " run --backend " + backend + " -- ");
                    assertEquals(SECRET, a.secret(), "the shell ran an injected line: secret.txt changed outside the"
                            + " sandbox\n" + a.transcript());
                    assertEquals(Map.of("5412", 1, "100005412", 1, "541c", 1), a.errnos(),
                            "TIOCSTI, TIOCSTI with high bits set and TIOCLINUX must each fail with EPERM\n"
                                    + a.transcript());
                }));
            }
        }
        return tests.stream();
    }

    /**
     * Job control and signals stay: the command is the terminal's foreground process group (tpgid = pgid), and ^C
     * typed on the terminal reaches it as SIGINT; the shell gets its exit status.
     */
    @TestFactory
    Stream<DynamicTest> theCommandKeepsJobControlAndSignals() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String backend : List.of("noop", "landlock", "mount")) {
            for (boolean nobody : List.of(false, true)) {
                tests.add(DynamicTest.dynamicTest(backend + (nobody ? ", uid 65534" : ", this user"), () -> {
                    needRootFor(nobody);
                    Path p = project("jobs-" + backend + "-" + (nobody ? "nobody" : "self"), nobody);
                    try (Shell sh = new Shell(p, nobody)) {
                                    sh.type(exe + " run --backend " + backend + " -- sh -c 'trap \"echo GOT\"\"-INT; exit 3\" INT;"
                                // cut's own /proc/self/stat: field 5 is its process group (the shell's), 8 the
                                // terminal's foreground group (proc(5)); not ps -p $$, since under mount $$ is the
                                // session's PID namespace's id, which the host's /proc of a root run does not know
                                + " echo \"PG $(cut -d\" \" -f5,8 /proc/self/stat)\"; echo READY\"\"-X;"
                                + " while :; do sleep 0.2; done'; echo \"RC\"\"=$?\"\n");
                        sh.await("READY-X");
                        sh.type("\u0003");
                        sh.await("GOT-INT");
                        sh.await("RC=3");
                        String t = sh.transcript.toString();
                        Matcher m = Pattern.compile("PG\\s+(\\d+)\\s+(\\d+)").matcher(t);
                        assertTrue(m.find(), t);
                        assertEquals(m.group(1), m.group(2), "the command must be the terminal's foreground group: " + t);
                    }
                }));
            }
        }
        return tests.stream();
    }
}
