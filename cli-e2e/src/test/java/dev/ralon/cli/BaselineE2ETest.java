package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;

import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.ArrayList;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The baseline (docs/security.md, "Around the boundary"): code the agent plants where it runs later outside the sandbox (a git hook, git's core.fsmonitor,
 * ~/.bashrc). Each attack runs for real inside {@code ralon run}, under both backends, as root and as uid 65534, with
 * a temporary HOME holding the project (the usual layout: the project lies under HOME), after a control run that shows
 * the attack works without the sandbox; the verdict is read from outside. Under landlock the .git entries are left out
 * (they would make .git create-restricted and break every commit): the run must say so, and the test shows the attack
 * then works, so the line is true. Ordinary work (a commit, atomic saves in HOME) keeps working.
 */
class BaselineE2ETest {
    /** Each attack: title, shell, and the file that shows from outside whether it worked. */
    static final List<String[]> ATTACKS = List.of(
            new String[] {"hook", "printf '#!/bin/sh\\necho PWNED\\n' > .git/hooks/pre-commit", ".git/hooks/pre-commit"},
            new String[] {"fsmonitor", "git config core.fsmonitor 'echo PWNED >> secret.txt'", ".git/config"},
            new String[] {"bashrc", "echo 'echo PWNED >> secret.txt' >> \"$HOME/.bashrc\"", "HOME/.bashrc"},
            new String[] {"bashrc by atomic save", "cp \"$HOME/.bashrc\" \"$HOME/.b.tmp\" && echo pwn >> \"$HOME/.b.tmp\""
                    + " && mv -f \"$HOME/.b.tmp\" \"$HOME/.bashrc\"", "HOME/.bashrc"},
            new String[] {"global gitconfig", "git config --global core.pager 'echo PWNED'", "HOME/.gitconfig"});

    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    static Stream<Arguments> cases() {
        return AsUser.matrix(ATTACKS);
    }

    /** HOME with .bashrc and .gitconfig; the project HOME/proj, a git repository with one commit. */
    static Path project(AsUser u, String name) throws Exception {
        Files.writeString(u.home.resolve(".bashrc"), "# bashrc\n");
        Files.writeString(u.home.resolve(".gitconfig"), "[user]\n\tname = t\n\temail = t@example.invalid\n");
        Path p = Files.createDirectories(u.home.resolve(name));
        Files.writeString(p.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
        Files.writeString(p.resolve("secret.txt"), "secret\n");
        Files.writeString(p.resolve("app.txt"), "app\n");
        ProcessResult g = CliE2ETest.exec(p, null, u.env(java.util.Map.of()), "sh", "-c",
                "git init -q && git add -A && git commit -q -m init");
        assertEquals(0, g.code(), g.toString());
        return p;
    }

    static String read(AsUser u, Path proj, String what) throws Exception {
        Path f = what.startsWith("HOME/") ? u.home.resolve(what.substring(5)) : proj.resolve(what);
        return Files.exists(f, LinkOption.NOFOLLOW_LINKS) ? Files.readString(f) : "(absent)";
    }

    @ParameterizedTest(name = "{0}, uid {1}: {2}")
    @MethodSource("cases")
    void codeForLaterIsNotPlanted(String backend, int uid, String title, String attack, String watched) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid)) {
            Path p = project(u, "proj");
            u.handOver();
            u.assumeBackend(p, backend);
            String before = read(u, p, watched);
            ProcessResult r = u.ralon(p, "run", "--verbose", "--backend", backend, "--", "sh", "-c",
                    attack + "; echo \"attack exit $?\"");
            assertTrue(r.out().contains("attack exit"), r.toString());
            boolean gitEntry = watched.startsWith(".git/");
            boolean brokered = backend.equals("landlock") && u.ralon(p, "run", "--backend", backend, "--dry-run")
                    .out().contains("landlock-broker");
            if (backend.equals("landlock") && gitEntry && !brokered) {
                // left out under landlock, and said so in one line: the attack works, which shows the line is true
                assertTrue(r.err().lines().anyMatch(l -> l.startsWith("ralon: baseline: ") && l.contains(
                        "NOT protected by landlock: .git/config, .git/hooks, .git/info (it would make " + p.resolve(".git")
                                + " create-restricted)")), r.toString());
                assertNotEquals(before, read(u, p, watched), "landlock drops .git: " + r);
                return;
            }
            assertEquals(before, read(u, p, watched), "seen from outside after `" + attack + "` under " + backend
                    + ": " + r);
            assertTrue(r.err().lines().anyMatch(l -> l.startsWith("ralon: baseline: ")), r.toString());

            if (backend.equals("landlock") && !title.equals("bashrc")) {
                return; // under landlock the policy itself makes HOME create-restricted: no control by atomic save
            }
            // control: the same attack with the explicit opt-outs goes through. Under mount a file in ~ needs both:
            // with --no-baseline alone the write lands in the session's copy of ~ (HomeCopy), the real file unchanged
            List<String> optOut = new ArrayList<>(List.of("run", "--backend", backend, "--no-baseline"));
            if (watched.startsWith("HOME/") && backend.equals("mount")) {
                ProcessResult copied = u.ralon(p, "run", "--backend", backend, "--no-baseline", "--", "sh", "-c", attack);
                assertEquals(0, copied.code(), "--no-baseline: " + copied);
                assertEquals(before, read(u, p, watched), "with --no-baseline the copy of ~ takes the write: " + copied);
                optOut.add("--write-anywhere");
            }
            optOut.addAll(List.of("--", "sh", "-c", attack));
            ProcessResult off = u.ralon(p, optOut.toArray(new String[0]));
            assertEquals(0, off.code(), optOut + ": " + off);
            assertNotEquals(before, read(u, p, watched), "with " + optOut + " the attack works: " + off);
        }
    }

    /** What must keep working: a commit, a branch, atomic saves and new directories in HOME (mount). */
    @ParameterizedTest(name = "{0}, uid {1}")
    @MethodSource("users")
    void ordinaryWorkKeepsWorking(String backend, int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid)) {
            Path p = project(u, "proj");
            u.handOver();
            u.assumeBackend(p, backend);
            String script = "echo more >> app.txt && git add app.txt && git commit -q -m more && git checkout -q -b"
                    + " feature && git status --porcelain && echo COMMIT-OK";
            if (backend.equals("mount")) {
                script += "; printf '{}' > \"$HOME/.claude.json.tmp\" && mv \"$HOME/.claude.json.tmp\""
                        + " \"$HOME/.claude.json\" && mkdir -p \"$HOME/.npm/_cacache\" && echo x > \"$HOME/.npm/_cacache/e\""
                        + " && echo HOME-OK";
            }
            ProcessResult r = u.ralon(p, "run", "--verbose", "--backend", backend, "--", "sh", "-c", script);
            assertEquals(0, r.code(), r.toString());
            assertTrue(r.out().contains("COMMIT-OK"), r.toString());
            ProcessResult log = CliE2ETest.exec(p, null, u.env(java.util.Map.of()), "git",
                    "-c", "safe.directory=*", "log", "--oneline", "feature");
            assertTrue(log.out().contains("more"), "the commit is there, seen from outside: " + log);
            if (backend.equals("mount")) { // into the copy of ~, not the real one
                assertTrue(r.out().contains("HOME-OK"), r.toString());
                assertFalse(Files.exists(u.home.resolve(".claude.json")), r.toString());
                try (Stream<Path> stores = Files.list(u.home.resolve(HomeCopyE2ETest.STORES))) {
                    Path store = stores.findFirst().orElseThrow();
                    assertEquals("{}", Files.readString(store.resolve("upper/.claude.json")));
                }
            }
        }
    }

    static Stream<Arguments> users() {
        return Stream.of(Arguments.of("mount", 0), Arguments.of("mount", 65534), Arguments.of("landlock", 0),
                Arguments.of("landlock", 65534));
    }

    /** status and run --dry-run (text and JSON) list the baseline and what the backend keeps of it. */
    @Test
    void statusAndDryRunListTheBaseline() throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(0)) {
            Path p = project(u, "proj");
            ProcessResult status = u.ralon(p, "status", "--verbose");
            assertTrue(status.out().contains("baseline: protected by `ralon run`"), status.toString());
            assertTrue(status.out().contains("exists  .git/config"), status.out());
            assertTrue(status.out().contains("exists  ~/.bashrc"), status.out());
            assertTrue(status.out().contains("absent  ~/.zshrc"), status.out());
            JSONObject sj = new JSONObject(u.ralon(p, "status", "--json").out());
            assertTrue(sj.getJSONObject("baseline").getJSONArray("paths").length() > 10, sj.toString());

            ProcessResult dry = u.ralon(p, "run", "--backend", "mount", "--dry-run", "--verbose");
            assertTrue(dry.out().contains("  protected      .git/config"), dry.out());
            assertTrue(dry.out().contains("  NOT protected  ~/.zshrc  (absent: this backend cannot stop its creation)"),
                    dry.out());
            assertTrue(dry.out().contains(p.resolve(".git/hooks") + "  [directory]  baseline: "), dry.out());
            JSONObject dj = new JSONObject(u.ralon(p, "run", "--backend", "mount", "--dry-run", "--json").out());
            JSONArray kept = dj.getJSONObject("baseline").getJSONArray("protected");
            assertTrue(kept.toString().contains("\".git/hooks\""), kept.toString());
            ProcessResult off = u.ralon(p, "run", "--backend", "mount", "--dry-run", "--verbose", "--no-baseline");
            assertTrue(off.out().contains("baseline: off (--no-baseline)"), off.out());
            assertFalse(off.out().contains(".git/hooks"), off.out());
        }
    }
}
