package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;

import org.json.JSONObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The same answer under every locale (docs/security.md "Around the boundary"): with LANG/LC_ALL unset ({@code env -i}),
 * {@code LANG=C}, {@code LC_ALL=POSIX} and {@code LC_ALL=C.UTF-8}, {@code check}, {@code status}, the hook and
 * {@code run} (both backends, a real sandboxed child, files read from outside) protect the same paths, for non-ASCII
 * names in patterns, in directories on the way and on disk, as root and as uid 65534; the command gets the user's own
 * locale variables back exactly; a name on disk that is not valid UTF-8 makes {@code run} refuse, naming it escaped.
 * Each child starts from an empty environment (what {@code env -i} gives), plus the locale under test.
 */
class LocaleE2ETest {
    static final String CONTENT = "original\n";

    /** The locales under test: the variables each child gets besides PATH and HOME. */
    static final Map<String, Map<String, String>> LOCALES = new LinkedHashMap<>();

    static {
        LOCALES.put("env -i", Map.of());
        LOCALES.put("LANG=C", Map.of("LANG", "C"));
        LOCALES.put("LC_ALL=POSIX", Map.of("LC_ALL", "POSIX"));
        LOCALES.put("LC_ALL=C.UTF-8", Map.of("LC_ALL", "C.UTF-8"));
    }

    /** The protected files, relative to the project: a non-ASCII name, a directory on the way, a pattern literal. */
    static final List<String> PROTECTED = List.of("docs/café.clé", "données/secret.txt", "ünï/ködé.txt");

    @TempDir
    Path tmp;

    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    static Path project(Path base) throws IOException {
        Path root = Files.createDirectories(base.resolve("proj")).toRealPath();
        Files.writeString(root.resolve("agent.lock"),
                "version: 1\nprotect:\n  - \"docs/*.clé\"\n  - données/\n  - ünï/ködé.txt\n", StandardCharsets.UTF_8);
        for (String p : PROTECTED) {
            Files.createDirectories(root.resolve(p).getParent());
            Files.writeString(root.resolve(p), CONTENT);
        }
        Files.writeString(root.resolve("docs/plain.txt"), CONTENT);
        return root;
    }

    /** Runs a command with exactly {@code env} as its environment (plus PATH and HOME), as {@code env -i} would. */
    static ProcessResult run(Path cwd, Map<String, String> env, String home, byte[] stdin, List<String> cmd) throws Exception {
        return TestProcess.of(cmd).in(cwd).clearEnv().env("PATH", "/usr/local/bin:/usr/bin:/bin").env("HOME", home)
                .env(env).stdin(stdin == null ? new byte[0] : stdin).run();
    }

    /** Who runs ralon: root, or uid 65534 through setpriv with a copy of the executable it can read. */
    record User(String name, Path exe, String home, List<String> prefix, Map<String, String> extraEnv) {
        List<String> cmd(String... args) {
            List<String> c = new ArrayList<>(prefix);
            c.add(exe.toString());
            c.addAll(List.of(args));
            return c;
        }

        ProcessResult ralon(Path cwd, Map<String, String> locale, String... args) throws Exception {
            return ralonIn(cwd, locale, null, args);
        }

        ProcessResult ralonIn(Path cwd, Map<String, String> locale, byte[] stdin, String... args) throws Exception {
            Map<String, String> env = new TreeMap<>(extraEnv);
            env.putAll(locale);
            return run(cwd, env, home, stdin, cmd(args));
        }
    }

    static User root(Path home) {
        return new User("root", CliE2ETest.exe, home.toString(), List.of(), Map.of());
    }

    static User nobody(CliE2ETest.Nobody n) {
        return new User("65534", n.exe, n.home.toString(),
                List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"),
                Map.of("RALON_JAVA_OPTS", "-Djava.io.tmpdir=" + n.home));
    }

    @Test
    void asRoot() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        sameAnswerEverywhere(root(home), Files.createDirectories(tmp.resolve("w")));
    }

    @Test
    void asNobody() throws Exception {
        CliE2ETest.assumeRoot();
        CliE2ETest.Nobody n = new CliE2ETest.Nobody();
        try {
            Path base = n.dir("w");
            sameAnswerEverywhere(nobody(n), base);
        } finally {
            n.delete();
        }
    }

    private void sameAnswerEverywhere(User user, Path base) throws Exception {
        Path root = project(base);
        if (!user.name().equals("root")) {
            PoliciesOnlyAddE2ETest.chownTree(base, "65534");
        }
        String listing = null;
        String explain = null;
        for (Map.Entry<String, Map<String, String>> loc : LOCALES.entrySet()) {
            String where = user.name() + ", " + loc.getKey() + ": ";
            Map<String, String> env = loc.getValue();

            ProcessResult list = user.ralon(root, env, "check");
            assertEquals(0, list.code(), where + list);
            assertEquals(List.of("agent.lock", "docs/café.clé", "données/", "ünï/ködé.txt"), list.out().lines().toList(),
                    where + "the listing");
            if (listing == null) {
                listing = list.out();
            }
            assertEquals(listing, list.out(), where + "the same listing under every locale");

            ProcessResult check = user.ralon(root, env, "check", "--explain", "docs/café.clé", "données/secret.txt",
                    "ünï/ködé.txt", "docs/plain.txt");
            assertEquals(1, check.code(), where + check);
            if (explain == null) {
                explain = check.out();
            }
            assertEquals(explain, check.out(), where + "the same verdicts under every locale");
            assertEquals(4, check.out().lines().count(), where + check.out());
            assertTrue(check.out().contains("docs/plain.txt: not protected (no pattern of agent.lock matches it)\n"),
                    where + check.out());

            ProcessResult status = user.ralon(root, env, "status", "--json");
            assertEquals(0, status.code(), where + status);
            assertEquals(4, new JSONObject(status.out()).getInt("protectedPaths"), where + status.out());

            String hook = "{\"cwd\":\"" + root + "\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\""
                    + root.resolve("docs/café.clé") + "\",\"content\":\"x\"}}";
            ProcessResult h = user.ralonIn(root, env, hook.getBytes(StandardCharsets.UTF_8), "hook", "claude-code");
            // a PreToolUse refusal: permissionDecision "deny" on stdout, exit 0 (docs/integrations.md)
            assertEquals(0, h.code(), where + "the hook answers: " + h);
            assertTrue(h.out().contains("\"permissionDecision\": \"deny\"") && h.out().contains("café.clé"),
                    where + "the hook refuses: " + h);

            for (String backend : List.of("mount", "landlock")) {
                if (!available(user, root, env, backend)) {
                    continue;
                }
                ProcessResult r = user.ralon(root, env, "run", "--backend", backend, "--", "sh", "-c",
                        "for f in 'docs/café.clé' 'données/secret.txt' 'ünï/ködé.txt'; do echo pwned >> \"$f\"; done; "
                                + "echo changed > docs/plain.txt; env | grep -E '^(LC_|LANG|RALON_LOCALE|RALON_USER)' | sort");
                assertEquals(0, r.code(), where + backend + ": " + r);
                List<String> expected = env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).sorted().toList();
                assertEquals(expected, r.out().lines().toList(),
                        where + backend + ": the command gets the user's own locale variables, exactly");
                for (String p : PROTECTED) {
                    assertEquals(CONTENT, Files.readString(root.resolve(p)), where + backend + ": " + p + " changed");
                }
                assertEquals("changed\n", Files.readString(root.resolve("docs/plain.txt")), where + backend + ": control");
                Files.writeString(root.resolve("docs/plain.txt"), CONTENT);
            }
        }
    }

    private static boolean available(User user, Path dir, Map<String, String> env, String backend) throws Exception {
        ProcessResult s = user.ralon(dir, env, "status", "--json");
        for (Object o : new JSONObject(s.out()).getJSONArray("backends")) {
            JSONObject b = (JSONObject) o;
            if (b.getString("name").equals(backend)) {
                if (!b.getBoolean("available") && dev.ralon.testsupport.Requirements.inCi()) {
                    fail("backend " + backend + " unavailable under CI=true: " + b.optString("detail"));
                }
                return b.getBoolean("available");
            }
        }
        return false;
    }

    /** A name on disk that is not valid UTF-8, where a pattern could match: run refuses, naming it escaped. */
    @Test
    void aNameThatIsNotUtf8IsNeverSilentlyUnmatched() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path root = project(Files.createDirectories(tmp.resolve("w")));
        ProcessResult mk = run(root, Map.of(), home.toString(), null,
                List.of("sh", "-c", "printf x > \"$(printf 'docs/bad\\351.cl\\303\\251')\""));
        assertEquals(0, mk.code(), mk.toString());
        User u = root(home);
        for (Map.Entry<String, Map<String, String>> loc : LOCALES.entrySet()) {
            ProcessResult r = u.ralon(root, loc.getValue(), "run", "--backend", "noop", "--", "sh", "-c", "touch ran");
            assertEquals(2, r.code(), loc.getKey() + ": " + r);
            assertTrue(r.err().lines().anyMatch(l -> l.startsWith("ralon: ") && l.contains("docs/bad\\xE9.cl\\xC3\\xA9")),
                    loc.getKey() + ": names it escaped: " + r.err());
            assertFalse(Files.exists(root.resolve("ran")), "nothing started");
            ProcessResult list = u.ralon(root, loc.getValue(), "check");
            assertTrue(list.err().contains("docs/bad\\xE9.cl\\xC3\\xA9"), loc.getKey() + ": the listing says so: " + list);
        }
        // an argument that is not valid UTF-8 is refused, not judged as another path
        ProcessResult arg = run(root, Map.of(), home.toString(), null, List.of("sh", "-c",
                "\"$0\" check \"$(printf 'docs/bad\\351.cl\\303\\251')\"", CliE2ETest.exe.toString()));
        assertEquals(2, arg.code(), arg.toString());
        assertTrue(arg.err().startsWith("ralon: not a valid UTF-8 path"), arg.err());
    }

    /** Where C.UTF-8 is not installed the JVM falls back to ASCII: ralon refuses in one line, never runs mangled. */
    @Test
    void withoutAUtf8LocaleRalonRefuses() throws Exception {
        CliE2ETest.assumeRoot(); // a private mount namespace hides the locale data (unshare -m needs root here)
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path root = project(Files.createDirectories(tmp.resolve("w")));
        String script = "mount --make-rprivate / && mount -t tmpfs none /usr/lib/locale && exec \"$0\" check";
        ProcessResult r = run(root, Map.of(), home.toString(), null,
                List.of("unshare", "-m", "sh", "-c", script, CliE2ETest.exe.toString()));
        assertEquals(2, r.code(), r.toString());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("ralon: this JVM reads file names as ANSI_X3.4-1968, not UTF-8"), r.err());
        assertEquals("", r.out());
    }
}
