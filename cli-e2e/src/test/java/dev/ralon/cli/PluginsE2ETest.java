package dev.ralon.cli;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.RequiresRoot;

import org.example.plugins.PluginEnforcers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The plugin directory of the single executable ({@code ralon-plugins/} beside it), fault isolation of plugins with
 * real broken jars, and host-side admission of a plugin's plans: everything through a copy of the real executable,
 * started as a user starts it (the launcher, its exec hygiene, its start-up archive).
 */
class PluginsE2ETest {
    @TempDir
    Path dir;

    Path exe;
    Path plugins;
    Path project;

    @BeforeEach
    void setUp() throws IOException {
        String built = System.getProperty("ralon.executable");
        if (built == null) {
            fail("system property ralon.executable is not set: run through Maven (mvn verify)");
        }
        Path bin = Files.createDirectories(dir.resolve("bin"));
        exe = bin.resolve("ralon");
        Files.copy(Path.of(built), exe);
        plugins = Files.createDirectory(bin.resolve("ralon-plugins"));
        Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwxr-xr-x"));
        project = Files.createDirectory(dir.resolve("p"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
        Files.writeString(project.resolve("secret.txt"), "s\n");
    }

    ProcessResult ralon(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(exe.toString()));
        cmd.addAll(List.of(args));
        return run(cmd, env);
    }

    ProcessResult ralon(String... args) throws Exception {
        return ralon(Map.of("RALON_CDS", "0"), args);
    }

    ProcessResult run(List<String> cmd, Map<String, String> env) throws Exception {
        return TestProcess.of(cmd).in(project).env(env).stdin("").run();
    }

    // ------------------------------------------------------------------------------------------------ jars

    static byte[] classBytes(String binaryName) throws IOException {
        return Files.readAllBytes(Path.of("target/test-classes", binaryName.replace('.', '/') + ".class"));
    }

    /** A jar listing {@code provider} in its service file and holding {@code classes} (binary names). */
    Path jar(String file, String provider, Map<String, byte[]> classes) throws IOException {
        Path jar = plugins.resolve(file);
        try (OutputStream os = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(os)) {
            j.putNextEntry(new JarEntry("META-INF/services/dev.ralon.enforcer.spi.Enforcer"));
            j.write(("# test plugin\n" + provider + "\n").getBytes(StandardCharsets.UTF_8));
            for (Map.Entry<String, byte[]> c : classes.entrySet()) {
                j.putNextEntry(new JarEntry(c.getKey().replace('.', '/') + ".class"));
                j.write(c.getValue());
            }
        }
        Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("rw-r--r--"));
        return jar;
    }

    Path plugin(String file, Class<?> provider) throws IOException {
        return jar(file, provider.getName(), Map.of(PluginEnforcers.Base.class.getName(),
                classBytes(PluginEnforcers.Base.class.getName()), provider.getName(), classBytes(provider.getName())));
    }

    static String lastLine(String s) {
        return s.strip().lines().reduce((a, b) -> b).orElse("");
    }

    static void assertNoStackTrace(ProcessResult r) {
        assertFalse(r.err().contains("\tat ") || r.out().contains("\tat ") || r.err().contains("Exception in thread"),
                "a stack trace was printed:\n" + r.out() + r.err());
    }

    // ------------------------------------------------------------------------------------------------ tests

    @Test
    void aJarInTheDirectoryIsListedAndUsedWithTheLaunchersExecHygiene() throws Exception {
        Path good = plugin("good.jar", PluginEnforcers.Good.class);
        ProcessResult status = ralon("status");
        assertEquals(0, status.code(), status.err());
        assertTrue(status.out().contains("plugins (" + plugins + "): test-plugin from " + good), status.out());
        assertTrue(status.out().lines().anyMatch(l -> l.startsWith("  test-plugin") && l.contains("yes")), status.out());

        // The soft RLIMIT_NOFILE the user had, the same pid, the backend's name: as with the built-in backends.
        ProcessResult r = run(List.of("/bin/sh", "-c", "ulimit -Sn 512; echo $$; exec \"$0\" run --backend test-plugin -- "
                + "sh -c 'ulimit -Sn; echo $$; echo $RALON_BACKEND'", exe.toString()), Map.of("RALON_CDS", "0"));
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(4, lines.size(), r.out());
        assertEquals("512", lines.get(1), "the command has the user's RLIMIT_NOFILE, not the JVM's");
        assertEquals(lines.get(0), lines.get(2), "ralon became the command (same pid, no supervisor)");
        assertEquals("test-plugin", lines.get(3));
    }

    /**
     * run probes the built-in backends early, on a thread of its own while the policy loads (BackendSurvey.forRun), but a
     * plugin's probe runs once, when chosen by rank or pinned, on the thread of its bounded call (Isolated).
     */
    @Test
    void aPluginsProbeRunsOnceAndOnTheMainThread() throws Exception {
        plugin("counted.jar", PluginEnforcers.CountsProbes.class);
        Path log = dir.resolve("probes.log");
        Map<String, String> env = Map.of("RALON_CDS", "0", "RALON_TEST_PROBE_LOG", log.toString());
        for (List<String> args : List.of(List.of("run", "--write-anywhere", "--", "true"),
                List.of("run", "--write-anywhere", "--backend", "test-counted", "--", "true"))) {
            ProcessResult r = ralon(env, args.toArray(String[]::new));
            assertEquals(0, r.code(), r.err());
            assertTrue(r.err().contains("via the test-counted backend"), r.err());
            assertEquals(List.of("ralon-plugin-test-counted"), Files.readAllLines(log),
                    "the plugin's probe calls for " + args + " (one, on the bounded call's thread)");
            Files.delete(log);
        }
    }

    @Test
    void brokenJarsAreReportedInOneLineEachAndEveryOtherBackendKeepsWorking() throws Exception {
        String good = PluginEnforcers.Good.class.getName();
        byte[] newer = classBytes(good);
        newer[6] = 0;
        newer[7] = 99; // class file major version 99: "compiled by a more recent version of the Java Runtime"
        Path newerJava = jar("newer-java.jar", good, Map.of(PluginEnforcers.Base.class.getName(),
                classBytes(PluginEnforcers.Base.class.getName()), good, newer));
        Path noBase = jar("missing-dependency.jar", good, Map.of(good, classBytes(good)));
        Path noClass = jar("no-such-class.jar", "org.example.plugins.Nope", Map.of());
        Path notEnforcer = jar("not-an-enforcer.jar", PluginEnforcers.NotAnEnforcer.class.getName(),
                Map.of(PluginEnforcers.NotAnEnforcer.class.getName(),
                        classBytes(PluginEnforcers.NotAnEnforcer.class.getName())));
        Path throwsName = plugin("throws-name.jar", PluginEnforcers.ThrowsFromName.class);
        plugin("throws-plan.jar", PluginEnforcers.ThrowsFromPlan.class);
        plugin("throws-prepare.jar", PluginEnforcers.ThrowsFromPrepare.class);
        Path corrupt = plugins.resolve("corrupt.jar");
        Files.writeString(corrupt, "this is not a zip file\n");
        Files.setPosixFilePermissions(corrupt, PosixFilePermissions.fromString("rw-r--r--"));

        ProcessResult status = ralon("status");
        assertEquals(0, status.code(), status.err());
        assertNoStackTrace(status);
        String out = status.out();
        assertTrue(out.contains("warning: plugin " + newerJava + ": " + good
                + " could not be loaded: UnsupportedClassVersionError: "), out);
        assertTrue(out.contains("warning: plugin " + noBase + ": " + good
                + " could not be loaded: NoClassDefFoundError: org/example/plugins/PluginEnforcers$Base; excluded"), out);
        assertTrue(out.contains("warning: plugin " + noClass + ": org.example.plugins.Nope could not be loaded: "
                + "ClassNotFoundException: org.example.plugins.Nope; excluded"), out);
        assertTrue(out.contains("warning: plugin " + notEnforcer + ": " + PluginEnforcers.NotAnEnforcer.class.getName()
                + " does not implement dev.ralon.enforcer.spi.Enforcer; excluded"), out);
        assertTrue(out.contains("warning: plugin " + PluginEnforcers.ThrowsFromName.class.getName() + " (" + throwsName
                + "): name() failed: IllegalStateException: no name today; excluded"), out);
        assertTrue(out.contains("warning: plugin " + corrupt + ": "), out);
        for (String builtIn : List.of("  mount ", "  landlock ", "  noop ")) {
            assertTrue(out.contains(builtIn), builtIn + " is still listed:\n" + out);
        }

        ProcessResult check = ralon("check", "secret.txt");
        assertEquals(1, check.code(), check.err());
        ProcessResult noop = ralon("run", "--backend", "noop", "--", "sh", "-c", "echo ran");
        assertEquals(0, noop.code(), noop.err());
        assertEquals("ran\n", noop.out());

        ProcessResult plan = ralon("run", "--write-anywhere", "--backend", "test-bad-plan", "--", "touch", "started");
        assertEquals(2, plan.code(), plan.err());
        assertNoStackTrace(plan);
        assertTrue(lastLine(plan.err()).matches("ralon: backend test-bad-plan \\(.*throws-plan\\.jar\\): plan\\(\\) failed:"
                + " NullPointerException: plan of a broken plugin \\(nothing was started\\)"), plan.err());
        ProcessResult prepare = ralon("run", "--write-anywhere", "--backend", "test-bad-prepare", "--", "touch", "started");
        assertEquals(2, prepare.code(), prepare.err());
        assertNoStackTrace(prepare);
        assertTrue(lastLine(prepare.err()).matches("ralon: backend test-bad-prepare \\(.*throws-prepare\\.jar\\): "
                + "prepare\\(\\) failed: NoSuchMethodError: org.example.Gone.method\\(\\) \\(nothing was started\\)"),
                prepare.err());
        assertFalse(Files.exists(project.resolve("started")), "nothing may start");
    }

    /**
     * Plugins are not on the application class path (each jar has a class loader of its own), so the launcher's
     * start-up archive, made for that class path, still maps with plugins present; the plugin's classes come from its
     * jar. Checked through the JVM's own class-loading log, not assumed.
     */
    @Test
    void theStartUpArchiveStillMapsWithAPluginAndThePluginLoadsFromItsJar() throws Exception {
        Path good = plugin("good.jar", PluginEnforcers.Good.class);
        ProcessResult first = ralon(Map.of(), "status"); // starts the archive builder in the background
        assertEquals(0, first.code(), first.err());
        CdsE2ETest.awaitArchive(exe.resolveSibling(".ralon-cds"));
        Path log = dir.resolve("class-load.log");
        ProcessResult r = ralon(Map.of("RALON_JAVA_OPTS", "-Xlog:class+load=info:file=" + log), "status");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("test-plugin from " + good), r.out());
        List<String> loads = Files.readAllLines(log);
        assertTrue(loads.stream().anyMatch(l -> l.endsWith(" dev.ralon.cli.Main source: shared objects file")),
                "the archive was not mapped with a plugin present");
        assertTrue(loads.stream().anyMatch(l -> l.endsWith(" org.example.plugins.PluginEnforcers$Good source: "
                + good.toUri().toString().replace("file:///", "file:/"))), String.join("\n", loads.stream()
                .filter(l -> l.contains("PluginEnforcers")).toList()));
    }

    /**
     * A plugin's probe that never returns costs a few seconds and one line: status lists every other backend, a run
     * without --backend passes it over (it ranks first), a run pinned to it is refused; nothing hangs.
     */
    @Test
    void aProbeThatNeverReturnsIsGivenUpWithOneLine() throws Exception {
        plugin("hangs.jar", PluginEnforcers.HangsInProbe.class);
        long t0 = System.nanoTime();
        ProcessResult status = ralon("status");
        assertEquals(0, status.code(), status.toString());
        assertTrue(status.out().contains("probe() did not return within 3 s"), status.out());
        assertTrue(status.out().lines().anyMatch(l -> l.startsWith("  mount")), status.out());
        ProcessResult run = ralon("run", "--", "true");
        assertEquals(0, run.code(), run.toString());
        assertFalse(run.err().contains("via the test-hangs backend"), run.err());
        ProcessResult pinned = ralon("run", "--backend", "test-hangs", "--", "true");
        assertEquals(2, pinned.code(), pinned.toString());
        assertTrue(lastLine(pinned.err()).contains("probe() did not return within 3 s"), pinned.err());
        assertNoStackTrace(pinned);
        long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
        assertTrue(seconds < 60, "three commands with a stuck probe took " + seconds + " s");
    }

    @Test
    void pinningAnExcludedPluginSaysItWasExcludedAndWhy() throws Exception {
        plugin("no-description.jar", PluginEnforcers.ThrowsFromDescription.class);
        ProcessResult r = ralon("run", "--backend", "test-no-description", "--", "true");
        assertEquals(2, r.code(), r.toString());
        String last = lastLine(r.err());
        assertTrue(last.startsWith("ralon: backend 'test-no-description' was excluded: plugin "), last);
        assertTrue(last.contains("description() failed: ") && last.contains("no description today"), last);
        assertNoStackTrace(r);
    }

    @Test
    void unknownBackendNamesThePluginDirectory() throws Exception {
        ProcessResult r = ralon("run", "--backend", "nosuch", "--", "true");
        assertEquals(2, r.code());
        assertEquals("ralon: unknown backend 'nosuch'; known backends: mount, landlock, noop; a third-party backend is"
                + " added by putting its jar in " + plugins + " (docs/writing-an-enforcer.md)", lastLine(r.err()));
    }

    @Test
    void aGroupWritableDirectoryIsRefusedWithOneLine() throws Exception {
        plugin("good.jar", PluginEnforcers.Good.class);
        Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwxrwxr-x"));
        ProcessResult r = ralon("status");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("warning: plugin directory " + plugins
                + " is writable by its group (mode 775); no plugin is loaded"), r.out());
        assertFalse(r.out().contains("test-plugin"), r.out());
        ProcessResult run = ralon("run", "--write-anywhere", "--backend", "test-plugin", "--", "true");
        assertEquals(2, run.code());
        assertTrue(run.err().startsWith("ralon: warning: plugin directory " + plugins + " is writable by its group"),
                run.err());
    }

    @Test
    void aJarReachedThroughASymbolicLinkOrWritableByOthersIsRefusedWithOneLine() throws Exception {
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        Path good = plugin("good.jar", PluginEnforcers.Good.class);
        Files.move(good, elsewhere.resolve("good.jar"));
        Files.createSymbolicLink(plugins.resolve("link.jar"), elsewhere.resolve("good.jar"));
        Path writable = plugin("writable.jar", PluginEnforcers.ThrowsFromPlan.class);
        Files.setPosixFilePermissions(writable, PosixFilePermissions.fromString("rw-rw-rw-"));
        ProcessResult r = ralon("status");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("warning: plugin " + plugins.resolve("link.jar")
                + " is a symbolic link; not loaded"), r.out());
        assertTrue(r.out().contains("warning: plugin " + writable + " is writable by its group (mode 666); not loaded"),
                r.out());
        assertFalse(r.out().contains("test-plugin") || r.out().contains("test-bad-plan"), r.out());
    }

    @Test
    @RequiresRoot("giving a file to another uid")
    void aJarOfAnotherUserIsRefused() throws Exception {
        Path good = plugin("good.jar", PluginEnforcers.Good.class);
        Files.setAttribute(good, "unix:uid", 1234);
        ProcessResult r = ralon("status");
        assertTrue(r.out().contains("warning: plugin " + good + " belongs to uid 1234, neither you (uid 0) nor root;"
                + " not loaded"), r.out());
    }

    /**
     * A shared install (root's executable and plugin directory) as an unprivileged user: root's jars load, the user's
     * own jar in root's directory does not (a shared install's plugins must all be root's), and the plugin runs the
     * command for that user.
     */
    @Test
    @RequiresRoot("running as uid 65534 (setpriv)")
    void aSharedInstallAsUid65534LoadsRootsJarsOnly() throws Exception {
        Path good = plugin("good.jar", PluginEnforcers.Good.class);
        Path users = plugin("users.jar", PluginEnforcers.ThrowsFromPlan.class);
        Files.setAttribute(users, "unix:uid", 65534);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path home = Files.createDirectory(dir.resolve("home"));
        Files.setAttribute(home, "unix:uid", 65534);
        Files.setAttribute(project, "unix:uid", 65534);
        List<String> asNobody = List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "env",
                "HOME=" + home, "RALON_CDS=0", exe.toString());
        List<String> status = new ArrayList<>(asNobody);
        status.add("status");
        ProcessResult r = run(status, Map.of());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("test-plugin from " + good), r.out());
        assertTrue(r.out().contains("warning: plugin " + users + " belongs to uid 65534 in a directory of root's (a"
                + " shared install's plugins must all be root's); not loaded"), r.out());
        List<String> runIt = new ArrayList<>(asNobody);
        runIt.addAll(List.of("run", "--write-anywhere", "--backend", "test-plugin", "--", "sh", "-c", "id -u"));
        ProcessResult ran = run(runIt, Map.of());
        assertEquals(0, ran.code(), ran.err());
        assertEquals("65534\n", ran.out());
    }

    @Test
    void aMissingLiteralPathIsSaidInOneLineForEveryBackendAlike() throws Exception {
        plugin("good.jar", PluginEnforcers.Good.class); // skips missing paths and does not declare create-missing
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n  - .env.production\n");
        String line = "ralon: not protected against creation: .env.production (does not exist, and backend %s cannot"
                + " stop it being created; create it before the run, or use a backend that declares create-missing)";
        ProcessResult r = ralon("run", "--write-anywhere", "--backend", "test-plugin", "--", "sh", "-c", "echo ran");
        assertEquals(0, r.code(), r.err());
        assertEquals("ran\n", r.out());
        assertTrue(r.err().lines().anyMatch(l -> l.equals(String.format(line, "test-plugin"))), r.err());
        ProcessResult noop = ralon("run", "--backend", "noop", "--", "true");
        assertTrue(noop.err().lines().anyMatch(l -> l.equals(String.format(line, "noop"))), noop.err());
        // Ralon's own mount backend gets the same verdict and the same line (it no longer refuses the plan), and
        // ordinary work in the project root goes on.
        if (ralon("status").out().lines().anyMatch(l -> l.matches("  mount +yes .*"))) {
            ProcessResult mount = ralon("run", "--backend", "mount", "--", "sh", "-c", "mkdir target && echo ok > target/x"
                    + " && echo changed >> secret.txt");
            assertTrue(mount.err().lines().anyMatch(l -> l.equals(String.format(line, "mount"))), mount.err());
            assertTrue(Files.isRegularFile(project.resolve("target/x")), "ordinary work goes on: " + mount.err());
            assertEquals("s\n", Files.readString(project.resolve("secret.txt")), "the existing protected file held");
        }
        ProcessResult dry = ralon("run", "--write-anywhere", "--backend", "test-plugin", "--dry-run", "--json");
        assertEquals(0, dry.code(), dry.err());
        assertEquals(List.of(project.toRealPath().resolve(".env.production").toString()),
                new org.json.JSONObject(dry.out()).getJSONArray("notProtectedAgainstCreation").toList(), dry.out());
    }

    /** A backend that does not declare writes-outside is refused unless --write-anywhere: nothing degrades silently. */
    @Test
    void aBackendThatDoesNotConfineWritesIsRefusedUnlessWriteAnywhere() throws Exception {
        plugin("unconfined.jar", PluginEnforcers.DoesNotConfine.class);
        ProcessResult r = ralon("run", "--backend", "test-unconfined", "--", "touch", "started");
        assertEquals(2, r.code(), r.err());
        assertTrue(lastLine(r.err()).startsWith("ralon: backend test-unconfined cannot enforce this policy: backend"
                + " test-unconfined does not declare writes-outside: it cannot keep the session from writing outside the"
                + " project (--write-anywhere runs without that confinement)"), r.err());
        assertFalse(Files.exists(project.resolve("started")), "nothing may start when the host refuses");
        ProcessResult anywhere = ralon("run", "--write-anywhere", "--backend", "test-unconfined", "--", "sh", "-c", "echo ran");
        assertEquals(0, anywhere.code(), anywhere.err());
        assertTrue(anywhere.err().contains("writes outside the project NOT confined (--write-anywhere)"), anywhere.err());
    }

    @Test
    void aLinkTheBackendDoesNotDeclareItCoversIsRefusedByTheHost() throws Exception {
        plugin("good.jar", PluginEnforcers.Good.class); // default coveredKinds: files and directories
        Files.createSymbolicLink(project.resolve("link"), Path.of("secret.txt"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n  - link\n");
        ProcessResult r = ralon("run", "--write-anywhere", "--backend", "test-plugin", "--", "touch", "started");
        assertEquals(2, r.code(), r.err());
        assertTrue(lastLine(r.err()).startsWith("ralon: backend test-plugin cannot enforce this policy: "
                + project.toRealPath().resolve("link") + " is a symbolic link, and backend test-plugin does not declare"
                + " that it protects symbolic links"), r.err());
        assertFalse(Files.exists(project.resolve("started")), "nothing may start when the host refuses");
        ProcessResult degraded = ralon("run", "--write-anywhere", "--backend", "test-plugin", "--allow-degraded", "--", "sh", "-c", "echo ran");
        assertEquals(0, degraded.code(), degraded.err());
        assertTrue(degraded.err().contains("ralon: DEGRADED: " + project.toRealPath().resolve("link")
                + " is a symbolic link"), degraded.err());
    }
}
