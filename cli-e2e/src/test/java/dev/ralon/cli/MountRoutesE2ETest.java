package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.Requirements;
import dev.ralon.testsupport.TestProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The mount backend's two routes through the real executable: the launcher starts {@code ralon run}'s JVM as root of
 * the first namespace and the binds are made in that JVM; with a plugin directory beside the executable it does not,
 * and the stage (a second JVM) makes them. On both, the attack is made for real inside and the file read from outside,
 * the command runs as the invoking user, and which route ran is read from the host JVM's class-load log (only the
 * route without a stage loads {@code Mounts} there). Also: where the launcher cannot create the namespaces, nothing is
 * refused (the JVM starts as usual and the backends decide), and a property naming the namespace is not taken on trust.
 */
class MountRoutesE2ETest {
    static final String SECRET = "s3cret\n";
    static final String ATTACK = "echo pwned > secret.txt; echo pwned >> secret.txt; rm -f secret.txt;"
            + " mv secret.txt moved.txt; id -u; grep ^NoNewPrivs: /proc/self/status";
    static ReadableExecutable fixture;
    static Path base;

    @BeforeAll
    static void setUp() throws Exception {
        fixture = ReadableExecutable.sharing("ralon-routes-");
        base = fixture.base();
    }

    @AfterAll
    static void tearDown() throws Exception {
        fixture.delete();
    }

    /** Runs {@code script} with /bin/sh in {@code dir}, as uid 65534 when {@code nobody}; stdout and stderr apart. */
    static ProcessResult sh(boolean nobody, Path dir, String script) throws IOException {
        List<String> cmd = List.of("/bin/sh", "-c", script);
        return TestProcess.of(nobody ? TestProcess.asUser(TestProcess.NOBODY, cmd) : cmd).in(dir)
                .env("HOME", fixture.home().toString()).stdin("").timeout(120).run();
    }

    static Path project(String name, boolean nobody) throws Exception {
        Path p = Files.createDirectories(base.resolve(name));
        Files.writeString(p.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
        Files.writeString(p.resolve("secret.txt"), SECRET);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxrwxrwx"));
        if (nobody) {
            sh(false, base, "chown -R 65534:65534 '" + p + "'");
        }
        return p;
    }

    static void requireMount(boolean nobody) throws Exception {
        if (nobody) {
            Requirements.requireRoot("uid 65534 needs setpriv as root");
        }
        ProcessResult chain = sh(nobody, base, "unshare --user --map-root-user --mount --propagation private --"
                + " unshare --user --mount --map-user=0 --map-group=0 -- true");
        Requirements.require(chain.code() == 0, "nested unprivileged user and mount namespaces (the mount backend): "
                + chain.err());
    }

    /** Runs the attack through {@code executable} with the host JVM's class loading logged; returns the result. */
    static ProcessResult attack(boolean nobody, Path p, Path executable, String backendOption) throws IOException {
        Path log = p.resolve("classes.log");
        return sh(nobody, p, "RALON_JAVA_OPTS='-Xlog:class+load:file=" + log + "' exec " + executable + " run "
                + backendOption + " -- sh -c '" + ATTACK + "'");
    }

    /**
     * What the attack prints last: the invoking user's uid, and no_new_privs set for every invoker but root (the
     * terminal guard sets it where the host lacks CAP_SYS_ADMIN; the route without a stage sets it for the same users).
     */
    static String expectedIdentity(boolean nobody) throws IOException {
        String uid = nobody ? "65534" : sh(false, base, "id -u").out().trim();
        return uid + "\nNoNewPrivs:\t" + (uid.equals("0") ? "0" : "1");
    }

    static boolean hostJvmMadeTheBinds(Path p) throws IOException {
        return Files.readString(p.resolve("classes.log")).contains(" dev.ralon.enforcer.mount.Mounts ");
    }

    @ParameterizedTest(name = "as uid 65534: {0}")
    @ValueSource(booleans = {false, true})
    void theLauncherStartsTheJvmInTheNamespaceAndItMakesTheBinds(boolean nobody) throws Exception {
        requireMount(nobody);
        for (String backend : List.of("--backend mount", "")) {
            Path p = project((nobody ? "n" : "s") + "-inhost" + backend.length(), nobody);
            ProcessResult r = attack(nobody, p, fixture.exe(), backend);
            assertEquals(0, r.code(), r.err());
            assertEquals(SECRET, Files.readString(p.resolve("secret.txt")), "the attack got through: " + r.err());
            assertFalse(Files.exists(p.resolve("moved.txt")), r.err());
            assertEquals(expectedIdentity(nobody), r.out().strip(), "the command must run as the invoking user");
            assertTrue(r.err().contains("locked via the mount backend"), r.err());
            assertTrue(hostJvmMadeTheBinds(p), "'" + backend + "': the binds were not made in the host JVM (the"
                    + " launcher did not start it in the namespace)");
        }
    }

    @ParameterizedTest(name = "as uid 65534: {0}")
    @ValueSource(booleans = {false, true})
    void withAPluginDirectoryBesideTheExecutableTheStageMakesTheBinds(boolean nobody) throws Exception {
        requireMount(nobody);
        Path dir = Files.createDirectories(base.resolve((nobody ? "n" : "s") + "-plugged"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path copy = Files.copy(fixture.exe(), dir.resolve("ralon"));
        Path plugins = Files.createDirectories(dir.resolve("ralon-plugins"));
        Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path p = project((nobody ? "n" : "s") + "-stage", nobody);
        ProcessResult r = attack(nobody, p, copy, "--backend mount");
        assertEquals(0, r.code(), r.err());
        assertEquals(SECRET, Files.readString(p.resolve("secret.txt")), "the attack got through: " + r.err());
        assertEquals(expectedIdentity(nobody), r.out().strip(), "the command must run as the invoking user");
        assertFalse(hostJvmMadeTheBinds(p), "with a plugin directory the launcher must leave the binds to the stage");
    }

    /**
     * Inside a user namespace whose limit of nested user namespaces is 0 (user_namespaces(7): the user.max_* sysctls
     * are per user namespace), as under Docker's default seccomp profile, the launcher's check of the chain fails, the
     * mount probe says why, and landlock is chosen, which cannot make the session's PID namespace there. A plain run
     * starts all the same, with no option: ralon stays as the command's parent and a child subreaper (Supervisor), the
     * start line says so, and when the command ends a process it left behind with {@code setsid} and a double fork
     * is ended before it can write (checked from outside after its time has passed). The command can neither kill
     * ralon's process nor any of its threads (Landlock's signal scope), the protected file is unchanged, the exit
     * status is the command's, and SIGTERM to ralon reaches the command. Where Landlock has no signal scope (ABI
     * below 6) the run is refused instead, with both reasons in one line.
     */
    @Test
    void whereTheNamespacesCannotBeMadeRalonEndsWhatTheCommandLeaves() throws Exception {
        Requirements.require(sh(false, base, "unshare --user --map-root-user true").code() == 0,
                "unprivileged user namespaces");
        Path p = project("no-userns", false);
        Files.writeString(p.resolve("attack.sh"), """
                echo pwned > secret.txt
                (setsid sh -c 'sleep 2; echo late > late.txt' &)
                kill -9 $PPID; echo "kill-parent=$?"
                for t in /proc/$PPID/task/*; do kill -9 "${t##*/}" 2>/dev/null && echo killed-a-thread; done
                exit 3
                """);
        String noUserns = "exec unshare --user --map-root-user sh -c 'echo 0 > /proc/sys/user/max_user_namespaces && exec "
                + fixture.exe() + " run ";
        ProcessResult r = sh(false, p, noUserns + "-- sh attack.sh'");
        assertEquals(SECRET, Files.readString(p.resolve("secret.txt")), "the attack got through: " + r.err());
        if (r.code() == 2) { // no signal scope: refused, nothing started
            assertTrue(r.err().contains("processes the command starts could outlive it: user namespaces are not usable"
                    + " here, and ralon cannot end them itself: this kernel's Landlock"), r.err());
            return;
        }
        assertEquals(3, r.code(), r.toString());
        assertTrue(r.err().contains("locked via the landlock backend; ralon stays beside the command and ends every"
                + " process it leaves"), r.err());
        assertTrue(r.out().contains("kill-parent=1"), r.toString());
        assertFalse(r.out().contains("killed-a-thread"), r.toString());
        Thread.sleep(3_000);
        assertFalse(Files.exists(p.resolve("late.txt")), "a process the command left outlived the session");

        Files.writeString(p.resolve("term.sh"), "trap 'echo got-term; exit 7' TERM; touch ready; sleep 30 & wait\n");
        ProcessResult t = sh(false, p, "(while [ ! -e ready ]; do sleep 0.1; done; pkill -TERM -f '^[^ ]*java.* run -q"
                + " -- sh term.sh') & " + noUserns + "-q -- sh term.sh'");
        assertEquals(7, t.code(), t.toString());
        assertTrue(t.out().contains("got-term"), t.toString());
    }

    /**
     * The variable by which the launcher names the process it started in the namespace is checked against the kernel:
     * set by hand on a JVM that is not in such a namespace (even with the right pid: exec keeps $$), it changes nothing;
     * and a -D of the old property name, or of any name, in RALON_JAVA_OPTS or _JAVA_OPTIONS does not make the JVM
     * miss the namespace it is in (the route stays the one without a stage, and the command is not uid 0).
     */
    @Test
    void theVariableNamingTheNamespaceIsNotTakenOnTrustNorOverridden() throws Exception {
        Path p = project("fake", false);
        ProcessResult r = sh(false, p, "RALON_LAUNCHER_USERNS=$$ RALON_JAVA_OPTS=-Dralon.launcher.userns=$$ exec "
                + fixture.exe() + " run --backend noop -- true");
        assertEquals(0, r.code(), r.err());
        assertFalse(r.err().contains("inside a user namespace"), r.err());

        Requirements.requireRoot("running as uid 65534 (setpriv), whose command must stay 65534");
        Path q = project("override", true);
        ProcessResult o = sh(true, q, "_JAVA_OPTIONS=-Dralon.launcher.userns=1 RALON_JAVA_OPTS=-Dralon.launcher.userns=1"
                + " exec " + fixture.exe() + " run --backend mount -- sh -c 'id -u; echo pwned > secret.txt'");
        assertEquals(SECRET, Files.readString(q.resolve("secret.txt")), o.err());
        assertEquals("65534", o.out().lines().findFirst().orElse(""), o.toString());
        assertTrue(o.err().contains("locked via the mount backend"), o.err());
    }
}
