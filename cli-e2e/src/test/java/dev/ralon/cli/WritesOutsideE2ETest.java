package dev.ralon.cli;

import dev.ralon.testsupport.Leftovers;
import dev.ralon.testsupport.ProcessResult;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Outside the project the session writes only to its writable areas (docs/security.md, "Writes outside the
 * project"): the system is read-only to it, the user's home too or, under mount, a copy whose changes never reach it
 * ({@link HomeCopyE2ETest}); the temporary directories, the agents' state (under mount, their history) and the user's
 * additions are not. Under both backends, as root and as uid 65534, with {@code $HOME} outside every temporary
 * directory (/var/lib), as a real user's is; every file is read from outside after the run.
 */
class WritesOutsideE2ETest {
    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    static Stream<Arguments> matrix() {
        return SessionHelpersE2ETest.matrix();
    }

    /** {@code u}'s project: agent.lock protecting secret.txt. */
    static Path project(AsUser u) throws java.io.IOException {
        Path project = Files.createDirectory(u.base.resolve("project"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
        Files.writeString(project.resolve("secret.txt"), "s3cret\n");
        return project;
    }

    /** One attempt inside the session: its name, then the shell line; "RC name N" lands in the output. */
    static String attempt(String name, String line) {
        return "( " + line + " ) 2>/dev/null; echo \"RC " + name + " $?\"\n";
    }

    static int rc(ProcessResult r, String name) {
        for (String l : r.out().split("\n")) {
            if (l.startsWith("RC " + name + " ")) {
                return Integer.parseInt(l.substring(("RC " + name + " ").length()).trim());
            }
        }
        throw new AssertionError("no result for " + name + ": " + r);
    }

    @ParameterizedTest(name = "{0} as uid {1}")
    @MethodSource("matrix")
    void homeAndSystemAreReadOnlyAndTheAreasAreNot(String backend, int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid, Path.of("/var/lib"))) {
            Path home = u.home;
            Path project = project(u);
            Files.writeString(project.resolve("notes.txt"), "notes\n");
            Files.createDirectory(project.resolve("work")); // under landlock the project root is create-restricted
            Files.writeString(home.resolve(".bashrc"), "# rc\n");
            Files.createDirectories(home.resolve(".claude/projects"));
            Files.writeString(home.resolve(".claude/history.jsonl"), "");
            Files.writeString(home.resolve(".claude/settings.json"), "{}\n");
            Files.writeString(home.resolve(".claude.json"), "{}\n");
            Files.createDirectories(home.resolve(".config/ralon"));
            Files.writeString(home.resolve(".config/ralon/writable"), "# mine\n~/extra-file-area\n");
            Files.createDirectories(home.resolve("extra-file-area"));
            Files.createDirectories(home.resolve("extra-option"));
            u.handOver();
            u.assumeBackend(project, backend);
            String tag = "e2e-" + ProcessHandle.current().pid() + "-" + uid + "-" + backend;
            StringBuilder s = new StringBuilder();
            s.append(attempt("bashrc", "echo PWNED >> \"$HOME/.bashrc\""));
            s.append(attempt("aliases", "echo PWNED > \"$HOME/.bash_aliases\""));
            s.append(attempt("autostart", "mkdir -p \"$HOME/.config/autostart\""));
            s.append(attempt("userfile", "echo / >> \"$HOME/.config/ralon/writable\""));
            s.append(attempt("rename-home", "mv \"$HOME/.bashrc\" \"$HOME/.bashrc.old\""));
            s.append(attempt("claude-state", "echo '{}' > \"$HOME/.claude/projects/" + tag + ".jsonl\""
                    + " && echo '{}' >> \"$HOME/.claude/history.jsonl\" && echo '{}' > \"$HOME/.claude/new-" + tag
                    + ".json\""));
            // Claude Code's configuration: hooks in its settings.json, an MCP server in ~/.claude.json
            s.append(attempt("claude-settings", "echo '{\"hooks\":{}}' > \"$HOME/.claude/settings.json\""));
            s.append(attempt("claude-settings-away", "mv \"$HOME/.claude/settings.json\" \"$HOME/.claude/old.json\""));
            s.append(attempt("claude-settings-over", "echo '{\"hooks\":{}}' > \"$HOME/.claude/n.json\""
                    + " && mv -f \"$HOME/.claude/n.json\" \"$HOME/.claude/settings.json\""));
            if (!backend.equals("mount")) { // in a copy the move is the copy's: mv's fallback would remove the history
                s.append(attempt("claude-dir-away", "mv \"$HOME/.claude\" \"$HOME/.claude-old\""));
            }
            s.append(attempt("claude-json", "echo '{\"mcpServers\":{}}' > \"$HOME/.claude.json\""));
            s.append("echo \"ERRNOS $RALON_DENIED_ERRNOS\"\n");
            s.append(attempt("tmp", "echo ok > /tmp/" + tag));
            s.append(attempt("project", "echo more >> notes.txt && echo new > work/new.txt"));
            s.append(attempt("secret", "echo PWNED > secret.txt"));
            s.append(attempt("devnull", "echo x > /dev/null"));
            s.append(attempt("extra-file", "echo ok > \"$HOME/extra-file-area/f\""));
            s.append(attempt("extra-option", "echo ok > \"$HOME/extra-option/f\""));
            if (uid == 0) {
                s.append(attempt("etc", "echo PWNED > /etc/profile.d/" + tag + ".sh"));
                s.append(attempt("usr", "echo PWNED > /usr/local/bin/" + tag));
            }
            ProcessResult r = u.ralon(project, "run", "--verbose", "--backend", backend, "--allow-write", "~/extra-option", "--",
                    "sh", "-c", s.toString());
            try {
                assertEquals(0, r.code(), r.toString());
                assertEquals("# rc\n", Files.readString(home.resolve(".bashrc")), r.toString());
                assertFalse(Files.exists(home.resolve(".bash_aliases")), r.toString());
                assertFalse(Files.exists(home.resolve(".config/autostart")), r.toString());
                assertEquals("# mine\n~/extra-file-area\n", Files.readString(home.resolve(".config/ralon/writable")));
                assertFalse(Files.exists(home.resolve(".bashrc.old")), r.toString());
                assertEquals("s3cret\n", Files.readString(project.resolve("secret.txt")), r.toString());
                assertTrue(rc(r, "secret") != 0, "secret must fail: " + r);
                // mount gives the session a copy of HOME: the writes there succeed and land in the copy (the files
                // above, read from outside, are unchanged); landlock keeps HOME read-only
                boolean copy = backend.equals("mount");
                for (String inHome : List.of("bashrc", "aliases", "autostart", "userfile", "rename-home", "claude-json")) {
                    assertEquals(copy, rc(r, inHome) == 0, inHome + (copy ? " must land in the copy: " : " must fail: ") + r);
                }
                // the agent's history goes through to the real HOME under both; its other state too without a copy
                assertEquals("{}\n", Files.readString(home.resolve(".claude/projects/" + tag + ".jsonl")), r.toString());
                assertEquals("{}\n", Files.readString(home.resolve(".claude/history.jsonl")), r.toString());
                assertEquals(!copy, Files.exists(home.resolve(".claude/new-" + tag + ".json")), r.toString());
                assertEquals("{}\n", Files.readString(home.resolve(".claude.json")), r.toString());
                // a baseline path inside an area: a read-only bind under both backends (landlock's contained route
                // binds it in the session's mount namespace instead of a rule, which would make ~/.claude
                // create-restricted); nothing replaces it, moves it or its directory away
                assertEquals("{}\n", Files.readString(home.resolve(".claude/settings.json")), r.toString());
                for (String refused : List.of("claude-settings", "claude-settings-away", "claude-settings-over")) {
                    assertTrue(copy || rc(r, refused) != 0, refused + " must fail: " + r);
                }
                assertTrue(copy || rc(r, "claude-dir-away") != 0, "claude-dir-away must fail: " + r);
                assertFalse(Files.exists(home.resolve(".claude/old.json")), r.toString());
                assertFalse(Files.exists(home.resolve(".claude-old")), r.toString());
                assertFalse(r.err().contains("~/.claude/settings.json"), "no NOT protected note for it: " + r);
                // the errors a refusal gets, each backend's own word: told to the command, and EBUSY to the user
                assertTrue(r.out().contains(backend.equals("mount") ? "ERRNOS EROFS EBUSY\n"
                        : "ERRNOS EACCES EXDEV EROFS EBUSY\n"), r.out());
                assertTrue(r.err().contains("(EBUSY, on rename or delete) mean the path is protected"), r.err());
                // what does not exist can be created (a bind needs an object): said at start, by name
                if (!copy) {
                    assertTrue(r.err().contains("~/.claude/hooks"), r.toString());
                }
                assertEquals("ok\n", Files.readString(Path.of("/tmp/" + tag)), r.toString());
                assertEquals("notes\nmore\n", Files.readString(project.resolve("notes.txt")), r.toString());
                assertEquals("new\n", Files.readString(project.resolve("work/new.txt")), r.toString());
                assertEquals(0, rc(r, "devnull"), r.toString());
                assertEquals("ok\n", Files.readString(home.resolve("extra-file-area/f")), "~/.config/ralon/writable: " + r);
                assertEquals("ok\n", Files.readString(home.resolve("extra-option/f")), "--allow-write: " + r);
                if (uid == 0) {
                    assertFalse(Files.exists(Path.of("/etc/profile.d/" + tag + ".sh")), r.toString());
                    assertFalse(Files.exists(Path.of("/usr/local/bin/" + tag)), r.toString());
                }
            } finally {
                Files.deleteIfExists(Path.of("/tmp/" + tag));
                Files.deleteIfExists(Path.of("/etc/profile.d/" + tag + ".sh"));
                Files.deleteIfExists(Path.of("/usr/local/bin/" + tag));
            }

            // the dry run says what is writable, and why
            ProcessResult dry = u.ralon(project, "run", "--backend", backend, "--dry-run", "--verbose");
            assertTrue(dry.out().contains(backend.equals("mount")
                    ? "writable: ~/.claude/projects/ (Claude Code's history)"
                    : "writable: ~/.claude/ (Claude Code's state)"), dry.toString());
            assertEquals(backend.equals("mount"), dry.out().contains("  a copy: ~/ (every write there lands in ~/"
                    + HomeCopyE2ETest.STORES), dry.toString());
            assertFalse(dry.out().contains("writable: ~/.claude.json"), dry.toString());
            assertTrue(dry.out().contains("writable: ~/extra-file-area/ (your addition"), dry.toString());
            assertTrue(dry.out().contains("writable: /tmp/ (temporary files)"), dry.toString());

            // an --allow-write or --temp that is not there is refused in one line, nothing started
            ProcessResult missing = u.ralon(project, "run", "--backend", backend, "--allow-write", "~/no-such-dir", "--",
                    "touch", "started");
            assertEquals(2, missing.code(), missing.toString());
            assertEquals("ralon: --allow-write ~/no-such-dir: " + home.resolve("no-such-dir") + " does not exist (create"
                    + " it first, or leave the option out; nothing was started)\n", missing.err(), missing.toString());
            assertFalse(Files.exists(project.resolve("started")), missing.toString());
            ProcessResult noTemp = u.ralon(project, "run", "--backend", backend, "--temp", "no-such-dir", "--", "true");
            assertEquals(2, noTemp.code(), noTemp.toString());
            assertEquals("ralon: --temp no-such-dir: not a directory (it must exist; nothing was started)\n",
                    noTemp.err(), noTemp.toString());

            // --write-anywhere: the same write gets through, and the start line says so
            ProcessResult anywhere = u.ralon(project, "run", "--backend", backend, "--write-anywhere", "--", "sh", "-c",
                    "echo alias > \"$HOME/.bash_aliases\"");
            assertEquals(0, anywhere.code(), anywhere.toString());
            assertEquals("alias\n", Files.readString(home.resolve(".bash_aliases")), anywhere.toString());
            assertTrue(anywhere.err().contains("writes outside the project NOT confined (--write-anywhere)"),
                    anywhere.toString());
        }
    }

    /**
     * What a session (or another user) can leave in a writable place does not redirect the next session's areas: a
     * {@code .git} link or {@code gitdir:} file in the project, a {@code $TMPDIR} or a per-user line reached through a
     * link in /tmp. Each is set up from outside, as an earlier session would have left it.
     */
    @ParameterizedTest(name = "{0} as uid {1}")
    @MethodSource("matrix")
    void linksAndGitFilesInWritablePlacesDoNotRedirectAnArea(String backend, int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid, Path.of("/var/lib"))) {
            Path home = u.home;
            Path project = project(u);
            Path sub = Files.createDirectory(project.resolve("sub")); // a second project: .git as a gitdir: file
            Files.writeString(sub.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
            Files.writeString(sub.resolve("secret.txt"), "s3cret\n");
            Files.createSymbolicLink(project.resolve(".git"), home);
            Files.writeString(sub.resolve(".git"), "gitdir: " + home + "\n");
            Path shared = Leftovers.createTempDirectory(Path.of("/tmp"), "ralon-e2e-swap-");
            Files.createSymbolicLink(shared.resolve("tmp"), home); // TMPDIR, swapped for a link to $HOME
            Files.createSymbolicLink(shared.resolve("cache"), home); // a per-user line, likewise
            Files.createDirectories(home.resolve(".config/ralon"));
            Files.writeString(home.resolve(".config/ralon/writable"), shared.resolve("cache") + "\n");
            try {
                u.handOver();
                CliE2ETest.exec(Path.of("/"), null, Map.of(), "chown", "-h", "-R", uid + ":" + uid, shared.toString());
                u.assumeBackend(project, backend);
                for (Path dir : List.of(project, sub)) {
                    ProcessResult r = u.ralonWith(dir, Map.of("TMPDIR", shared.resolve("tmp").toString()), "run",
                            "--backend", backend, "--", "sh", "-c", attempt("aliases", "echo PWNED > \"$HOME/.bash_aliases\""));
                    // under mount the write lands in the copy of $HOME (never in $HOME); under landlock it fails
                    assertEquals(backend.equals("mount"), rc(r, "aliases") == 0, r.toString());
                    assertFalse(Files.exists(home.resolve(".bash_aliases")), "$HOME was made writable: " + r);
                    assertTrue(r.err().contains(shared.resolve("tmp") + " is not writable in this session (reached through"
                            + " the symbolic link"), r.toString());
                    assertTrue(r.err().contains(shared.resolve("cache") + " is not writable in this session (reached"
                            + " through the symbolic link"), r.toString());
                    ProcessResult dry = u.ralonWith(dir, Map.of("TMPDIR", shared.resolve("tmp").toString()), "run",
                            "--backend", backend, "--dry-run");
                    assertFalse(dry.out().contains("writable: " + home + "/"), dry.toString());
                    assertFalse(dry.out().contains("writable: ~/ "), dry.toString());
                }
            } finally {
                CliE2ETest.exec(Path.of("/"), null, Map.of(), "rm", "-rf", shared.toString());
            }
        }
    }

    /** Ordinary work goes on inside: a commit in the project, a push to a bare repository in /tmp. */
    @ParameterizedTest(name = "{0} as uid {1}")
    @MethodSource("matrix")
    void gitCommitAndPushToALocalBareRepositoryWork(String backend, int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid, Path.of("/var/lib"))) {
            Path project = project(u);
            Files.createDirectory(project.resolve("src"));
            Path bare = Leftovers.createTempDirectory(Path.of("/tmp"), "ralon-e2e-bare-");
            try {
                repositoryWithBareRemote(u, project, bare, bare.toString());
                u.assumeBackend(project, backend);
                ProcessResult r = u.ralon(project, "run", "--backend", backend, "--", "sh", "-c",
                        "echo work > src/a.txt && git add src/a.txt && git -c user.name=t -c user.email=t@t commit -qm"
                                + " two && git push -q origin main && echo PUSHED");
                assertEquals(0, r.code(), r.toString());
                assertTrue(r.out().contains("PUSHED"), r.toString());
                ProcessResult log = u.sh(project, "git --git-dir='" + bare + "' log --format=%s main");
                assertEquals("two\none\n", log.out(), log.toString());
            } finally {
                CliE2ETest.exec(Path.of("/"), null, Map.of(), "rm", "-rf", bare.toString());
            }
        }
    }

    /**
     * Hands the base over to {@code u}, makes {@code bare} (a new directory) a bare repository of theirs, and the
     * project a repository with one commit ("one") whose remote {@code origin} is {@code remote}.
     */
    static void repositoryWithBareRemote(AsUser u, Path project, Path bare, String remote) throws Exception {
        u.handOver();
        CliE2ETest.exec(Path.of("/"), null, Map.of(), "chown", "-R", u.uid + ":" + u.uid, bare.toString());
        ProcessResult setUp = u.sh(project, "git init -q -b main . && git init -q --bare '" + bare + "' &&"
                + " git -c user.name=t -c user.email=t@t add -A && git -c user.name=t -c user.email=t@t"
                + " commit -qm one && git remote add origin '" + remote + "'");
        assertEquals(0, setUp.code(), setUp.toString());
    }

    /**
     * {@code git push} over the ssh transport with the user's ssh-agent: refused by default (the agent's socket is a
     * helper outside), working with {@code --allow-unix-sockets}, the opt-in the start line reports. The remote side is
     * a stand-in for ssh (no sshd here): a script that git runs as its ssh command, which asks the agent for its keys
     * ({@code ssh-add -l}, a real connection to {@code $SSH_AUTH_SOCK}) and then runs the remote command itself
     * ({@code git-receive-pack} on a bare repository in /tmp). The bare repository is read from outside.
     */
    @ParameterizedTest(name = "{0} as uid {1}")
    @MethodSource("matrix")
    void gitPushOverSshUsesTheUsersAgentOnlyWhenSocketsAreAllowed(String backend, int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid, Path.of("/var/lib"))) {
            Path project = project(u);
            Path bare = Leftovers.createTempDirectory(Path.of("/tmp"), "ralon-e2e-ssh-");
            Path agentDir = Files.createDirectory(u.base.resolve("agent"));
            Path sock = agentDir.resolve("agent.sock");
            Path fakeSsh = u.base.resolve("fake-ssh");
            // git runs: fake-ssh HOST "git-receive-pack '/path'" (GIT_SSH_VARIANT=simple: no other option)
            Files.writeString(fakeSsh, "#!/bin/sh\nssh-add -l >/dev/null 2>&1 || { echo 'fake-ssh: no agent' >&2;"
                    + " exit 255; }\nfor a; do last=$a; done\nexec sh -c \"$last\"\n");
            Files.setPosixFilePermissions(fakeSsh, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            try {
                repositoryWithBareRemote(u, project, bare, "ssh://fakehost" + bare);
                ProcessResult agent = u.sh(project, "ssh-keygen -q -t ed25519 -N '' -f '" + agentDir + "/key' &&"
                        + " ssh-agent -a '" + sock + "' -s > '" + agentDir + "/env' && SSH_AUTH_SOCK='" + sock + "'"
                        + " ssh-add -q '" + agentDir + "/key'");
                assertEquals(0, agent.code(), agent.toString());
                u.assumeBackend(project, backend);
                Map<String, String> env = Map.of("SSH_AUTH_SOCK", sock.toString(), "GIT_SSH_COMMAND", fakeSsh.toString(),
                        "GIT_SSH_VARIANT", "simple");
                String push = "git push -q origin main && echo PUSHED";
                ProcessResult refused = u.ralonWith(project, env, "run", "--backend", backend, "--", "sh", "-c", push);
                assertFalse(refused.out().contains("PUSHED"), refused.toString());
                assertTrue(refused.err().contains("fake-ssh: no agent"), refused.toString());
                assertFalse(u.sh(project, "git --git-dir='" + bare + "' rev-parse -q --verify main").code() == 0,
                        "nothing reached the remote");
                ProcessResult allowed = u.ralonWith(project, env, "run", "--backend", backend, "--allow-unix-sockets",
                        "--", "sh", "-c", push);
                assertTrue(allowed.out().contains("PUSHED"), allowed.toString());
                assertTrue(allowed.err().contains("unix-sockets (--allow-unix-sockets)"), allowed.toString());
                ProcessResult log = u.sh(project, "git --git-dir='" + bare + "' log --format=%s main");
                assertEquals("one\n", log.out(), log.toString());
            } finally {
                u.sh(project, "SSH_AGENT_PID=$(sed -n 's/^SSH_AGENT_PID=\\([0-9]*\\);.*/\\1/p' '" + agentDir
                        + "/env') ssh-agent -k >/dev/null 2>&1");
                CliE2ETest.exec(Path.of("/"), null, Map.of(), "rm", "-rf", bare.toString());
            }
        }
    }

    @ParameterizedTest(name = "{0} as uid {1}")
    @MethodSource("matrix")
    void withTempOnlyThatDirectoryIsWritableForTemporaryFiles(String backend, int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid, Path.of("/var/lib"))) {
            Path project = project(u);
            Path temp = Files.createDirectory(u.base.resolve("session-tmp"));
            u.handOver();
            u.assumeBackend(project, backend);
            String tag = "e2e-temp-" + ProcessHandle.current().pid() + "-" + uid + "-" + backend;
            ProcessResult r = u.ralonWith(project, Map.of(), "run", "--backend", backend, "--temp", temp.toString(),
                    "--", "sh", "-c", attempt("tmp", "echo x > /tmp/" + tag)
                            + attempt("temp", "echo ok > \"$TMPDIR/f\" && [ \"$TMPDIR\" = '" + temp + "' ]"));
            try {
                assertTrue(rc(r, "tmp") != 0, r.toString());
                assertFalse(Files.exists(Path.of("/tmp/" + tag)), r.toString());
                assertEquals(0, rc(r, "temp"), r.toString());
                assertEquals("ok\n", Files.readString(temp.resolve("f")), r.toString());
            } finally {
                Files.deleteIfExists(Path.of("/tmp/" + tag));
            }
        }
    }
}
