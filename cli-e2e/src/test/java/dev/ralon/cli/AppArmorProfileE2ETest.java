package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ralon apparmor-profile}: the profile attaches to the launcher's real path, exactly (AppArmor's globbing
 * characters escaped), grants {@code userns} in unconfined mode, and is refused without a launcher or for a launcher
 * others than root could replace. Whether
 * AppArmor 4's own parser accepts it is checked by {@code checks/apparmor-parse.sh} (no AppArmor parser of that version
 * on the build machines; docs/backend-mount.md records the run).
 */
class AppArmorProfileE2ETest {
    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    @Test
    void theAttachmentIsTheExactPathWithGlobbingCharactersEscaped() {
        assertEquals("\"/usr/lib/ralon/bin/ralon\"", AppArmorProfile.quoted("/usr/lib/ralon/bin/ralon"));
        assertEquals("\"/opt/my tools/ralon\\*\\?\\[1\\]\\{a,b\\}\\^\\\"\\\\\\@x\"",
                AppArmorProfile.quoted("/opt/my tools/ralon*?[1]{a,b}^\"\\@x"));
        assertThrows(IllegalArgumentException.class, () -> AppArmorProfile.quoted("/opt/a\nb"));
        assertThrows(IllegalArgumentException.class, () -> AppArmorProfile.text(Path.of("relative/ralon")));
        String p = AppArmorProfile.text(Path.of("/usr/lib/ralon/bin/ralon"));
        assertTrue(p.contains("\nabi <abi/4.0>,\n"), p);
        assertTrue(p.contains("\nprofile ralon \"/usr/lib/ralon/bin/ralon\" flags=(unconfined) {\n  userns,\n"), p);
        assertTrue(p.endsWith("  include if exists <local/ralon>\n}\n"), p);
    }

    /**
     * The environment of these starts: RALON_CDS=0, no archive builder. A fresh copy's first start would leave one
     * running in the background, in a temporary directory JUnit removes when the test returns (the builder recreates
     * nothing there since CdsE2ETest.aBuilderWhoseDirectoryWasRemovedRecreatesNothing, but files it makes during the
     * removal could still fail it); what is tested here does not depend on the archive.
     */
    private static final Map<String, String> NO_BUILDER = Map.of("RALON_CDS", "0");

    /** A copy of the real launcher at {@code dir/ralon}, mode 0755. */
    private static Path launcherIn(Path dir) throws Exception {
        Path exe = Files.copy(CliE2ETest.exe, Files.createDirectories(dir).resolve("ralon"));
        Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwxr-xr-x"));
        return exe;
    }

    /** Exit 2, one line on stderr starting "ralon: " and holding each of {@code parts}, nothing on stdout. */
    private static void refused(ProcessResult r, String... parts) {
        assertEquals(2, r.code(), r.toString());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().startsWith("ralon: "), r.err());
        for (String part : parts) {
            assertTrue(r.err().contains(part), "'" + part + "' missing from: " + r.err());
        }
        assertEquals("", r.out());
    }

    private static boolean root(Path p) throws Exception {
        return (Integer) Files.getAttribute(p, "unix:uid") == 0;
    }

    @Test
    void theRealLauncherPrintsItsOwnRealPathEvenThroughALink(@TempDir Path dir) throws Exception {
        Path exe = launcherIn(dir.resolve("bin"));
        Path link = Files.createSymbolicLink(dir.resolve("ralon-link"), exe);
        ProcessResult r = CliE2ETest.exec(dir, null, NO_BUILDER, link.toString(), "apparmor-profile");
        if (!root(exe)) { // not run as root: the launcher belongs to this user, who could replace it
            refused(r, "apparmor-profile: the launcher " + exe.toRealPath(), "belongs to uid");
            return;
        }
        assertEquals(0, r.code(), r.toString());
        assertEquals("", r.err());
        assertEquals(AppArmorProfile.text(exe.toRealPath()), r.out());
    }

    /**
     * A profile attaches by path: for a launcher others than root could replace (a directory writable by everyone
     * without the sticky bit, a file of another user), it would grant user namespaces to whatever is put there.
     */
    @Test
    void aLauncherOthersCouldReplaceIsRefused(@TempDir Path dir) throws Exception {
        Path open = dir.resolve("open");
        Path exe = launcherIn(open);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        ProcessResult r = CliE2ETest.exec(dir, null, NO_BUILDER, exe.toString(), "apparmor-profile");
        refused(r, "apparmor-profile: the launcher " + exe.toRealPath(), "can be replaced");
        assertEquals("", r.out());
        if (root(exe)) {
            assertTrue(r.err().contains(open.toRealPath() + " is writable by its group or by everyone (mode 777)"),
                    r.err());
            Path theirs = launcherIn(dir.resolve("theirs"));
            Files.setAttribute(theirs, "unix:uid", TestProcess.NOBODY);
            ProcessResult t = CliE2ETest.exec(dir, null, NO_BUILDER, theirs.toString(), "apparmor-profile");
            refused(t, theirs.toRealPath() + " belongs to uid " + TestProcess.NOBODY);
        }
    }

    @Test
    void withoutTheLauncherItIsRefusedInOneLine() {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        String before = System.clearProperty("ralon.launcher");
        try {
            int code = Ralon.execute(new String[] {"apparmor-profile"}, new java.io.PrintWriter(out),
                    new java.io.PrintWriter(err));
            assertEquals(2, code, err.toString());
            assertEquals("", out.toString());
            assertEquals(1, err.toString().lines().count(), err.toString());
            assertTrue(err.toString().startsWith("ralon: apparmor-profile: not started by the ralon launcher"),
                    err.toString());
        } finally {
            if (before != null) {
                System.setProperty("ralon.launcher", before);
            }
        }
    }
}
