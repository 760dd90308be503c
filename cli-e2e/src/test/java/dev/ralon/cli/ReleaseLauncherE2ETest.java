package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The launcher in a release's tree (dist/: bin/ralon beside lib/ralon.release and runtime/): it runs the release's
 * runtime whatever JAVA_HOME and PATH say, also when started through a link (/usr/bin/ralon, npm's bin), unless
 * RALON_JAVA names another; and it refuses, in one line with exit 2, a release whose files another user could change.
 * The tree is the real launcher with a runtime whose bin/java records its use and runs this JVM's java (the packages
 * themselves are checked by dist/src/test/install-check.sh).
 */
class ReleaseLauncherE2ETest {
    @TempDir
    Path dir;
    Path release;
    Path used;

    @BeforeEach
    void tree() throws Exception {
        String exe = System.getProperty("ralon.executable");
        if (exe == null) {
            fail("system property ralon.executable is not set: run through Maven (mvn verify)");
        }
        release = dir.resolve("ralon-1");
        used = dir.resolve("used");
        Files.createDirectories(release.resolve("bin"));
        Files.copy(Path.of(exe), release.resolve("bin/ralon"));
        Files.createDirectories(release.resolve("lib/jna"));
        Files.writeString(release.resolve("lib/ralon.release"), "ralon test\n");
        Files.writeString(release.resolve("lib/ralon.jsa"), "");
        Files.writeString(release.resolve("lib/jna/libjnidispatch.so"), "");
        Files.createDirectories(release.resolve("runtime/bin"));
        Files.createDirectories(release.resolve("runtime/lib/server"));
        Files.writeString(release.resolve("runtime/lib/modules"), "");
        Files.writeString(release.resolve("runtime/lib/server/libjvm.so"), "");
        Path java = release.resolve("runtime/bin/java");
        Files.writeString(java, "#!/bin/sh\necho release-runtime >> '" + used + "'\nexec '"
                + Path.of(System.getProperty("java.home"), "bin", "java") + "' \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(dir.resolve("p"));
    }

    ProcessResult ralon(Path exe, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(exe.toString()));
        cmd.addAll(List.of(args));
        // RALON_CDS=0: the empty lib/ralon.jsa stands for the archive's presence; the JVM is not asked to map it
        return TestProcess.of(cmd).in(dir.resolve("p")).without("RALON_JAVA").without("JAVA_HOME")
                .env(Map.of("RALON_CDS", "0")).env(env).stdin("").timeout(60).run();
    }

    boolean runtimeUsed() throws Exception {
        return Files.exists(used) && Files.readString(used).contains("release-runtime");
    }

    @Test
    void theReleasesRuntimeIsUsedWhateverJavaHomeSays() throws Exception {
        ProcessResult r = ralon(release.resolve("bin/ralon"), Map.of("JAVA_HOME", "/nonexistent"), "--version");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("ralon "), r.out());
        assertTrue(runtimeUsed(), "the release's runtime ran");
    }

    @Test
    void aDamagedRuntimeIsSaidWithTheReleasesRemedyNotJavaHome() throws Exception {
        Files.delete(release.resolve("runtime/bin/java"));
        ProcessResult r = ralon(release.resolve("bin/ralon"), Map.of("JAVA_HOME", "/nonexistent"), "check", "x");
        assertEquals(2, r.code(), r.toString());
        assertEquals("ralon: cannot run Java: the release's runtime: " + release.resolve("runtime/bin/java")
                + " does not exist; reinstall Ralon (this release's runtime is damaged; JAVA_HOME is not used by a"
                + " release), or set RALON_JAVA to the bin/java of a JDK 17 or later\n", r.err());
        ProcessResult hook = ralon(release.resolve("bin/ralon"), Map.of(), "hook", "claude-code");
        assertEquals(2, hook.code(), hook.toString());
        assertEquals("", hook.out(), "nothing but the agent's JSON on stdout");
        assertTrue(hook.err().contains("refusing the tool call to stay safe (reinstall Ralon"), hook.toString());
    }

    @Test
    void throughALinkAsThePackagesInstallIt() throws Exception {
        Path link = Files.createDirectories(dir.resolve("usr-bin")).resolve("ralon");
        Files.createSymbolicLink(link, release.resolve("bin/ralon"));
        ProcessResult r = ralon(link, Map.of(), "--version");
        assertEquals(0, r.code(), r.err());
        assertTrue(runtimeUsed(), "the release's runtime ran, found through the link");
    }

    @Test
    void ralonJavaStillChoosesAnotherJava() throws Exception {
        ProcessResult r = ralon(release.resolve("bin/ralon"),
                Map.of("RALON_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString()), "--version");
        assertEquals(0, r.code(), r.err());
        assertFalse(runtimeUsed(), "RALON_JAVA's java ran, not the release's");
    }

    @Test
    void aFileOthersCanWriteOrALinkIsRefusedInOneLine() throws Exception {
        Path lib = release.resolve("lib");
        Path jsa = lib.resolve("ralon.jsa");
        Path elsewhere = dir.resolve("elsewhere.jsa");
        List<Runnable> spoil = List.of(
                () -> chmod(lib, "rwxr-xrwx"),
                () -> chmod(release.resolve("runtime/bin/java"), "rwxr-xrwx"),
                () -> {
                    try {
                        Files.move(jsa, elsewhere);
                        Files.createSymbolicLink(jsa, elsewhere);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
        for (Runnable s : spoil) {
            deleteTree();
            tree();
            s.run();
            ProcessResult r = ralon(release.resolve("bin/ralon"), Map.of(), "check", "x");
            assertEquals(2, r.code(), r.err());
            assertEquals("", r.out());
            assertTrue(r.err().matches("ralon: cannot run Java: the release at \\S+ has a file that is missing, a link,"
                    + " or writable by another user than its owner or root \\(reinstall it\\).*\n"), r.err());
            assertFalse(runtimeUsed(), "nothing ran");
        }
    }

    /** A release under a path the trust check cannot list exactly (a space, a glob character) starts nothing. */
    @Test
    void aReleaseUnderASpecialPathIsRefusedInOneLine() throws Exception {
        for (String name : new String[] {"ralon 1", "ralon*1"}) {
            Path moved = dir.resolve(name);
            Files.move(release, moved);
            try {
                ProcessResult r = ralon(moved.resolve("bin/ralon"), Map.of(), "check", "x");
                assertEquals(2, r.code(), r.err());
                assertEquals("", r.out());
                assertTrue(r.err().startsWith("ralon: cannot run Java: the release at " + moved + " is installed under"
                        + " a path with a space or a special character (move it)"), r.err());
                assertEquals(1, r.err().lines().count(), r.err());
                assertFalse(runtimeUsed(), "nothing ran");
            } finally {
                Files.move(moved, release);
            }
        }
    }

    @Test
    void aGroupOtherThanTheOwnersOwnIsRefused() throws Exception {
        dev.ralon.testsupport.Requirements.requireRoot("chgrp to another group needs root");
        chmod(dir, "rwxr-xr-x"); // for uid 65534 below
        Path lib = release.resolve("lib");
        chmod(lib, "rwxrwxr-x");
        // root's own group: group 0 may have members, so it is refused too (only a non-root user's private group passes)
        ProcessResult r = ralon(release.resolve("bin/ralon"), Map.of(), "--version");
        assertEquals(2, r.code(), r.err());
        // a user's tree unpacked with umask 002: uid = gid = 65534, group-writable: accepted
        TestProcess.of(List.of("chown", "-R", "65534:65534", release.toString())).stdin("").timeout(30).run();
        TestProcess.of(List.of("chmod", "-R", "g+w", release.toString())).stdin("").timeout(30).run();
        assertEquals(65534, (Integer) Files.getAttribute(lib, "unix:gid"));
        ProcessResult mine = TestProcess.of(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                        "env", "RALON_CDS=0", release.resolve("bin/ralon").toString(), "--version"))
                .in(dir.resolve("p")).without("RALON_JAVA").without("JAVA_HOME").stdin("").timeout(60).run();
        assertEquals(0, mine.code(), mine.err());
        // and once the group is another's, refused
        TestProcess.of(List.of("chgrp", "0", lib.toString())).stdin("").timeout(30).run();
        ProcessResult other = TestProcess.of(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                        "env", "RALON_CDS=0", release.resolve("bin/ralon").toString(), "--version"))
                .in(dir.resolve("p")).without("RALON_JAVA").without("JAVA_HOME").stdin("").timeout(60).run();
        assertEquals(2, other.code(), other.err());
    }

    /**
     * What the release's launcher loads before anything is enforced (the archive, JNA's library) and what a later shell
     * sources (the completion) cannot be changed from inside a session the release started: ralon's baseline protects
     * the release's lib/ and share/ (docs/security.md, "A release's files"). Each write runs for real and is checked from
     * outside, under both backends; with --no-baseline, the explicit opt-out, the same writes go through (control).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mount", "landlock"})
    void aSessionCannotChangeTheReleaseThatStartedIt(String backend) throws Exception {
        Path completion = Files.createDirectories(release.resolve("share/bash-completion/completions")).resolve("ralon");
        Files.writeString(completion, "complete -F _ralon ralon\n");
        Files.writeString(dir.resolve("p/agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
        // run loads JNA: the real library, from JNA's jar as the release build unpacks it
        byte[] jna;
        try (var in = ReleaseLauncherE2ETest.class.getClassLoader().getResourceAsStream(
                "com/sun/jna/" + com.sun.jna.Platform.RESOURCE_PREFIX + "/libjnidispatch.so")) {
            assertTrue(in != null, "JNA's library in its jar");
            jna = in.readAllBytes();
        }
        Files.write(release.resolve("lib/jna/libjnidispatch.so"), jna);
        Path[] watched = {release.resolve("lib/ralon.jsa"), release.resolve("lib/jna/libjnidispatch.so"), completion,
            release.resolve("lib/planted.so")};
        String attack = "for f in";
        for (Path w : watched) {
            attack += " '" + w + "'";
        }
        attack += "; do echo PWNED > \"$f\" 2>/dev/null && echo \"wrote $f\"; done; echo done";
        AsUser.requireBackend(backend, ralon(release.resolve("bin/ralon"), Map.of(), "run", "--backend", backend,
                "--dry-run"));
        ProcessResult r = ralon(release.resolve("bin/ralon"), Map.of(), "run", "--verbose", "--backend", backend, "--",
                "sh", "-c", attack);
        assertTrue(r.out().contains("done"), r.toString());
        assertFalse(r.out().contains("wrote"), r.toString());
        assertEquals("", Files.readString(watched[0]), "the archive, from outside: " + r);
        assertTrue(java.util.Arrays.equals(jna, Files.readAllBytes(watched[1])), "JNA's library, from outside: " + r);
        assertEquals("complete -F _ralon ralon\n", Files.readString(completion), "the completion: " + r);
        assertFalse(Files.exists(watched[3]), "nothing planted in lib/: " + r);
        assertTrue(r.err().lines().anyMatch(l -> l.startsWith("ralon: baseline: ")), r.toString());

        ProcessResult off = ralon(release.resolve("bin/ralon"), Map.of(), "run", "--backend", backend, "--no-baseline",
                "--", "sh", "-c", attack);
        assertTrue(off.out().contains("wrote " + watched[0]), "control, --no-baseline: " + off);
        assertEquals("PWNED\n", Files.readString(watched[0]));
    }

    private static void chmod(Path p, String mode) {
        try {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void deleteTree() throws Exception {
        if (!Files.exists(release)) {
            return;
        }
        try (var s = Files.walk(release)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        Files.deleteIfExists(used);
        Files.deleteIfExists(dir.resolve("elsewhere.jsa"));
    }
}
