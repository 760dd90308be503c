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
     * are per user namespace), the launcher's check of the chain fails: the JVM starts as usual, the mount probe says
     * why, and landlock is chosen. It cannot contain the session there (its PID namespace is made in the launcher's
     * user namespace), so the run is refused with that reason in one line, nothing started; with --allow-degraded it
     * runs under landlock, protected all the same, and says what it does not guarantee.
     */
    @Test
    void whereTheNamespacesCannotBeMadeTheRunSaysWhatItCannotContain() throws Exception {
        Requirements.require(sh(false, base, "unshare --user --map-root-user true").code() == 0,
                "unprivileged user namespaces");
        Path p = project("no-userns", false);
        String noUserns = "exec unshare --user --map-root-user sh -c 'echo 0 > /proc/sys/user/max_user_namespaces && exec "
                + fixture.exe() + " run ";
        ProcessResult r = sh(false, p, noUserns + "-- sh -c \"echo pwned > secret.txt; touch started\"'");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("backend landlock cannot enforce this policy: processes the command starts could"
                + " outlive it: user namespaces are not usable here"), r.err());
        assertFalse(Files.exists(p.resolve("started")), "nothing may start: " + r.err());
        ProcessResult d = sh(false, p, noUserns + "--allow-degraded -- sh -c \"echo pwned > secret.txt\"'");
        assertEquals(SECRET, Files.readString(p.resolve("secret.txt")), "the attack got through: " + d.err());
        assertTrue(d.err().contains("locked via the landlock backend"), d.err());
        assertTrue(d.err().contains("DEGRADED: not guaranteed in this run: leftovers"), d.err());
        assertFalse(d.err().contains("inside a user namespace for the mount backend"), d.err());
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
