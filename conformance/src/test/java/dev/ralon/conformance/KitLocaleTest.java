package dev.ralon.conformance;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kit starts ralon under the launcher's locale rule, so that a third party need not set LC_ALL. */
class KitLocaleTest {
    private static Map<String, String> env(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void aUtf8LocaleIsLeftAlone() {
        for (Map<String, String> e : List.of(env("LANG", "C.UTF-8"), env("LC_ALL", "en_US.utf8"),
                env("LANG", "C", "LC_CTYPE", "de_DE.UTF-8@euro"), env("LC_ALL", "", "LANG", "fr_FR.Utf-8"))) {
            Map<String, String> before = new HashMap<>(e);
            KitLocale.apply(e);
            assertEquals(before, e);
        }
    }

    @Test
    void anyOtherLocaleStartsRalonUnderCUtf8AndRecordsTheUsersLcAll() {
        Map<String, String> none = env();
        KitLocale.apply(none);
        assertEquals(env("LC_ALL", "C.UTF-8", "RALON_LOCALE_FORCED", "1"), none);

        Map<String, String> posix = env("LC_ALL", "POSIX", "LANG", "en_US.UTF-8");
        KitLocale.apply(posix); // LC_ALL wins over LANG, as in the launcher's ${LC_ALL:-${LC_CTYPE:-$LANG}}
        assertEquals(env("LC_ALL", "C.UTF-8", "RALON_LOCALE_FORCED", "1", "RALON_USER_LC_ALL", "POSIX",
                "LANG", "en_US.UTF-8"), posix);

        Map<String, String> stale = env("LANG", "C", "RALON_USER_LC_ALL", "x", "RALON_LOCALE_FORCED", "1");
        KitLocale.apply(stale); // what a caller left is not taken for the user's
        assertEquals(env("LANG", "C", "LC_ALL", "C.UTF-8", "RALON_LOCALE_FORCED", "1"), stale);
    }

    @Test
    void theShellPrefixMakesTheSameChange() {
        assertEquals(List.of(), KitLocale.envPrefix(env("LANG", "C.UTF-8")));
        assertEquals(List.of("env", "RALON_USER_LC_ALL=C", "RALON_LOCALE_FORCED=1", "LC_ALL=C.UTF-8"),
                KitLocale.envPrefix(env("LC_ALL", "C")));
        assertEquals(List.of("env", "-u", "RALON_USER_LC_ALL", "RALON_LOCALE_FORCED=1", "LC_ALL=C.UTF-8"),
                KitLocale.envPrefix(env("LANG", "C", "RALON_USER_LC_ALL", "x")));
    }

    /**
     * For real: ralon started as the kit starts it, from an environment without a locale (as {@code env -i} leaves
     * it), refuses without the rule (so this test can fail) and runs with it.
     */
    @Test
    void ralonStartedByTheKitFromAnEnvironmentWithoutALocaleRuns() throws Exception {
        Path dir = Files.createTempDirectory("ralon-kit-locale-");
        try {
            Files.writeString(dir.resolve("agent.lock"), "version: 1\nprotect:\n  - secrets/\n");
            List<String> cmd = List.of(TestProcess.java(), "-cp", System.getProperty("java.class.path"),
                    KitRun.MAIN, "check", "secrets/k");
            Map<String, String> bare = new HashMap<>(System.getenv());
            for (String k : List.of("LC_ALL", "LC_CTYPE", "LANG", "LANGUAGE")) {
                bare.remove(k);
            }
            ProcessResult refused = start(cmd, dir, bare);
            assertEquals(2, refused.code(), refused.all());
            assertTrue(refused.err().startsWith("ralon: "), refused.all());

            Map<String, String> kit = new HashMap<>(bare);
            KitLocale.apply(kit);
            ProcessResult ran = start(cmd, dir, kit);
            assertFalse(ran.err().contains("UTF-8"), ran.all());
            assertTrue(ran.out().contains("secrets/k"), ran.all());
        } finally {
            TestProcess.of("rm", "-rf", dir.toString()).run();
        }
    }

    private static ProcessResult start(List<String> cmd, Path dir, Map<String, String> env) throws Exception {
        TestProcess p = TestProcess.of(cmd).in(dir).env(env).timeout(120);
        for (String k : System.getenv().keySet()) {
            if (!env.containsKey(k)) {
                p.without(k);
            }
        }
        return p.run();
    }
}
