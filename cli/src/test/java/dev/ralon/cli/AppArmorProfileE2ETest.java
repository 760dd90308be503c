package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ralon apparmor-profile}: the profile attaches to the launcher's real path, exactly (AppArmor's globbing
 * characters escaped), grants {@code userns} in unconfined mode, and is refused without a launcher. Whether
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

    @Test
    void theRealLauncherPrintsItsOwnRealPathEvenThroughALink(@TempDir Path dir) throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("ralon-link"), CliE2ETest.exe.toAbsolutePath());
        ProcessResult r = CliE2ETest.exec(dir, null, Map.of(), link.toString(), "apparmor-profile");
        assertEquals(0, r.code(), r.toString());
        assertEquals("", r.err());
        assertEquals(AppArmorProfile.text(CliE2ETest.exe.toRealPath()), r.out());
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
