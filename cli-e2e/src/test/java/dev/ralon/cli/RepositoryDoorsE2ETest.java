package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;

import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The repository's doors (docs/security.md): what git's configuration points at (core.hooksPath at a husky directory,
 * an include.path target outside the repository, .git/info), the project's code-running configuration
 * (.mvn/jvm.config), a writable PATH directory and a JDK under HOME that the launcher runs, and a planted
 * .git/commondir. Each attack runs for real inside {@code ralon run} under both backends, as root and as uid 65534,
 * and its effect is read from outside. What the backend keeps is read from {@code run --dry-run --json}: under mount
 * every one of them must be kept (and the attack fails; the control with {@code --no-baseline} succeeds); under
 * landlock a kept one must hold, and a dropped one must be named on the start line (the attack then works: the line
 * is true).
 */
class RepositoryDoorsE2ETest {
    /** Each attack: title, the baseline item that protects it, the shell run inside, the file watched from outside. */
    static final List<String[]> ATTACKS = List.of(
            new String[] {"husky hook", ".husky", "echo evil >> .husky/pre-commit", ".husky/pre-commit"},
            new String[] {"include.path target", "~/gitinc/extra.config",
                    "printf '[core]\\n\\tfsmonitor = echo PWNED\\n' >> \"$HOME/gitinc/extra.config\"",
                    "HOME/gitinc/extra.config"},
            new String[] {"info/exclude", ".git/info", "echo secret.txt >> .git/info/exclude", ".git/info/exclude"},
            new String[] {"mvn jvm.config", ".mvn/jvm.config", "echo -javaagent:evil.jar >> .mvn/jvm.config",
                    ".mvn/jvm.config"},
            new String[] {"java planted on PATH", "~/.cargo/bin",
                    "printf '#!/bin/sh\\necho PLANTED\\n' > \"$HOME/.cargo/bin/java\" && chmod +x \"$HOME/.cargo/bin/java\"",
                    "HOME/.cargo/bin/java"},
            new String[] {"JAVA_HOME under HOME", "~/jdk/bin", "rm -f \"$HOME/jdk/bin/java\" && printf '#!/bin/sh\\necho"
                    + " PLANTED\\n' > \"$HOME/jdk/bin/java\" && chmod +x \"$HOME/jdk/bin/java\"", "HOME/jdk/bin/java"});

    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    static Stream<Arguments> cases() {
        return AsUser.matrix(ATTACKS);
    }

    /**
     * BaselineE2ETest's project (HOME/proj, a repository with one commit) with the doors: core.hooksPath=.husky and
     * .husky/pre-commit, an include.path to ~/gitinc/extra.config, .mvn/jvm.config, ~/.cargo/bin and a JDK ~/jdk whose
     * bin/java links to the real one.
     */
    static Path project(AsUser u) throws Exception {
        Path p = BaselineE2ETest.project(u, "proj");
        Files.createDirectories(p.resolve(".husky"));
        Files.writeString(p.resolve(".husky/pre-commit"), "#!/bin/sh\nexit 0\n");
        Files.createDirectories(u.home.resolve("gitinc"));
        Files.writeString(u.home.resolve("gitinc/extra.config"), "[alias]\n\tst = status\n");
        Files.createDirectories(p.resolve(".mvn"));
        Files.writeString(p.resolve(".mvn/jvm.config"), "-Xmx1g\n");
        Files.createDirectories(u.home.resolve(".cargo/bin"));
        Files.createDirectories(u.home.resolve("jdk/bin"));
        Files.createSymbolicLink(u.home.resolve("jdk/bin/java"),
                Path.of(System.getProperty("java.home"), "bin/java").toRealPath());
        ProcessResult g = CliE2ETest.exec(p, null, u.env(Map.of()), "sh", "-c", "git config core.hooksPath .husky"
                + " && git config include.path '~/gitinc/extra.config' && git add -A && git commit -q -m doors");
        assertEquals(0, g.code(), g.toString());
        return p;
    }

    /** The environment of every run: ~/.cargo/bin first on PATH; JAVA_HOME=~/jdk for that case, else none. */
    static Map<String, String> env(AsUser u, String title) {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", u.home.resolve(".cargo/bin") + ":" + System.getenv("PATH"));
        env.put("JAVA_HOME", title.startsWith("JAVA_HOME") ? u.home.resolve("jdk").toString() : "");
        env.put("RALON_JAVA", "");
        return env;
    }

    /** The watched file as seen from outside: its text, "link -> target" for a link, or "(absent)". */
    static String read(AsUser u, Path proj, String what) throws Exception {
        Path f = what.startsWith("HOME/") ? u.home.resolve(what.substring(5)) : proj.resolve(what);
        if (Files.isSymbolicLink(f)) {
            return "link -> " + Files.readSymbolicLink(f);
        }
        return Files.exists(f, LinkOption.NOFOLLOW_LINKS) ? Files.readString(f) : "(absent)";
    }

    @ParameterizedTest(name = "{0}, uid {1}: {2}")
    @MethodSource("cases")
    void theDoorsAreShut(String backend, int uid, String title, String item, String attack, String watched)
            throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid)) {
            Path p = project(u);
            u.handOver();
            u.assumeBackend(p, backend);
            Map<String, String> env = env(u, title);
            ProcessResult dry = u.ralonWith(p, env, "run", "--backend", backend, "--dry-run", "--json");
            JSONObject baseline = new JSONObject(dry.out()).getJSONObject("baseline");
            Set<String> kept = displays(baseline.getJSONArray("protected"));
            Set<String> dropped = displays(baseline.getJSONArray("notProtected"));
            assertTrue(kept.contains(item) || dropped.contains(item), item + " is a baseline item: " + dry);
            if (backend.equals("mount")) {
                assertTrue(kept.contains(item), "mount keeps " + item + ": " + dry);
            }

            String before = read(u, p, watched);
            ProcessResult r = u.ralonWith(p, env, "run", "--backend", backend, "--", "sh", "-c",
                    attack + "; echo \"attack exit $?\"");
            assertTrue(r.out().contains("attack exit"), r.toString());
            if (!kept.contains(item)) {
                // dropped by landlock, and said on the start line: the attack works, which shows the line is true
                assertTrue(r.err().lines().anyMatch(l -> l.startsWith("ralon: baseline: ")
                        && l.contains("NOT protected by " + backend + ": ") && l.contains(item)), r.toString());
                assertNotEquals(before, read(u, p, watched), backend + " drops " + item + ": " + r);
                return;
            }
            assertEquals(before, read(u, p, watched), "seen from outside after `" + attack + "` under " + backend
                    + ": " + r);
            assertFalse(r.out().contains("attack exit 0"), r.toString());
            if (!backend.equals("mount")) {
                return;
            }
            // control: the same attack with the explicit opt-outs goes through. A file in ~ needs both: with
            // --no-baseline alone the write lands in the session's copy of ~ (HomeCopy), and the real file is as it was
            if (watched.startsWith("HOME/")) {
                ProcessResult copied = u.ralonWith(p, env, "run", "--backend", backend, "--no-baseline", "--", "sh",
                        "-c", attack);
                assertEquals(0, copied.code(), "--no-baseline: " + copied);
                assertEquals(before, read(u, p, watched), "with --no-baseline the copy of ~ takes the write: " + copied);
            }
            List<String> optOut = new ArrayList<>(List.of("run", "--backend", backend, "--no-baseline"));
            if (watched.startsWith("HOME/")) {
                optOut.add("--write-anywhere");
            }
            optOut.addAll(List.of("--", "sh", "-c", attack));
            ProcessResult off = u.ralonWith(p, env, optOut.toArray(new String[0]));
            assertEquals(0, off.code(), optOut + ": " + off);
            assertNotEquals(before, read(u, p, watched), "with " + optOut + " the attack works: " + off);
            if (title.startsWith("java") || title.startsWith("JAVA_HOME")) {
                // and the next ralon runs the planted java, before anything is enforced
                ProcessResult next = u.ralonWith(p, env, "--version");
                assertTrue(next.out().contains("PLANTED"), "the next ralon ran the planted java: " + next);
            }
        }
    }

    static Set<String> displays(JSONArray items) {
        Set<String> s = new HashSet<>();
        for (int i = 0; i < items.length(); i++) {
            s.add(items.getJSONObject(i).getString("path"));
        }
        return s;
    }

    static Stream<Arguments> users() {
        return Stream.of(Arguments.of(0), Arguments.of(65534));
    }

    /**
     * A .git/commondir planted from outside (as a previous session under landlock, or any process, could): run (under
     * each backend), status and check --staged refuse in one line with exit 2 and start nothing; a plain git status,
     * the control, runs the redirected configuration's core.fsmonitor (what is left: docs/security.md).
     */
    @ParameterizedTest(name = "uid {0}")
    @MethodSource("users")
    void aPlantedCommondirIsRefused(int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid)) {
            Path p = BaselineE2ETest.project(u, "proj");
            Path evil = u.home.resolve("evil");
            ProcessResult plant = CliE2ETest.exec(p, null, u.env(Map.of()), "sh", "-c", "cp -r .git \"$0\" && printf"
                    + " '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = \"touch $HOME/PWNED\"\\n' > \"$0/config\""
                    + " && echo \"$0\" > .git/commondir", evil.toString());
            assertEquals(0, plant.code(), plant.toString());
            u.handOver();
            String line = "ralon: " + p.resolve(".git/commondir") + " redirects git's configuration and hooks to " + evil
                    + "; git never writes it in a main repository: remove it";
            for (String backend : List.of("mount", "landlock")) {
                ProcessResult r = u.ralon(p, "run", "--backend", backend, "--", "touch", "started");
                assertEquals(2, r.code(), r.toString());
                assertEquals(line + " (nothing was started)\n", r.err(), r.toString());
                assertFalse(Files.exists(p.resolve("started")), "nothing was started");
            }
            for (String[] args : new String[][] {{"status"}, {"check", "--staged"}, {"check", "--changed"}}) {
                ProcessResult r = u.ralon(p, args);
                assertEquals(2, r.code(), r.toString());
                assertEquals(line + "\n", r.err(), r.toString());
            }
            assertFalse(Files.exists(u.home.resolve("PWNED")));
            // the control: a plain git outside runs it (what is left); removing the file ends it
            u.sh(p, "git status --short >/dev/null 2>&1");
            assertTrue(Files.exists(u.home.resolve("PWNED")), "git status ran the redirected core.fsmonitor");
            Files.delete(p.resolve(".git/commondir"));
            ProcessResult ok = u.ralon(p, "status");
            assertEquals(0, ok.code(), ok.toString());
        }
    }
}
