package dev.ralon.cli;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;

import dev.ralon.host.AgentsUnderLandlock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * An agent started under the Landlock backend with the project inside {@code $HOME}: the start note says what breaks
 * for agents, and {@code --create-agent-state} makes the state directories beforehand so the agent can write there.
 * The "agent" is a script named {@code claude}; the directories are checked from outside.
 */
class AgentsUnderLandlockE2ETest {
    @TempDir
    Path tmp;

    Path ralon;
    Path home;
    Path project;
    Path agent;

    @BeforeEach
    void setUp() throws Exception {
        ralon = Path.of(System.getProperty("ralon.executable", "missing"));
        tmp = tmp.toRealPath();
        home = Files.createDirectories(tmp.resolve("home"));
        project = Files.createDirectories(home.resolve("project"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - secret/\n");
        Files.createDirectories(project.resolve("secret"));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        agent = bin.resolve("claude");
        // what an agent does on its first run: make its state directory and save a file in it
        Files.writeString(agent, "#!/bin/sh\nmkdir -p \"$HOME/.claude\" && echo state > \"$HOME/.claude/settings.json\"\n");
        Files.setPosixFilePermissions(agent, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessResult dry = TestProcess.of(ralon.toString(), "run", "--dry-run", "--backend", "landlock", "--", "true")
                .in(project).mergeStderr().run();
        dev.ralon.testsupport.Requirements.require(dry.code() == 0, "the landlock backend: " + dry.out());
    }

    /** Whether a run here has the landlock broker (its plan has the step), so that the project root is not restricted. */
    boolean brokered() throws Exception {
        ProcessResult dry = TestProcess.of(ralon.toString(), "run", "--dry-run", "--backend", "landlock", "--", "true")
                .in(project).env("HOME", home.toString()).mergeStderr().run();
        return dry.out().contains("landlock-broker");
    }

    ProcessResult run(List<String> args) throws Exception {
        return TestProcess.of(args).in(project).env("HOME", home.toString()).stdin("").run();
    }

    @Test
    void theStartNoteSaysWhatBreaksForAgentsAndTheStateCannotBeCreated() throws Exception {
        ProcessResult r = run(List.of(ralon.toString(), "run", "--verbose", "--backend", "landlock", "--", agent.toString()));
        assertTrue(r.err().contains("ralon: note: agents under landlock: nothing can be created in " + home), r.err());
        assertTrue(r.err().contains("(~/.claude, ~/.codex, ~/.gemini)"), r.err());
        assertTrue(r.err().contains("--create-agent-state"), r.err());
        // the project root: create-restricted without the broker, its unprotected entries made through it with
        String rootNote = "ralon: note: agents under landlock: no new file can appear in the project root " + project;
        assertEquals(!brokered(), r.err().contains(rootNote), r.err());
        assertTrue(r.err().contains("bubblewrap needs mount"), r.err());
        assertFalse(r.code() == 0, "the agent's mkdir should have failed: " + r.err());
        assertFalse(Files.exists(home.resolve(".claude")));
    }

    @Test
    void createAgentStateMakesTheDirectoriesBeforeTheSandboxAndTheAgentCanWriteThere() throws Exception {
        ProcessResult r = run(List.of(ralon.toString(), "run", "--backend", "landlock", "--create-agent-state", "--", agent.toString()));
        assertEquals(0, r.code(), r.err());
        assertEquals("state\n", Files.readString(home.resolve(".claude/settings.json")));
        for (String d : AgentsUnderLandlock.STATE_DIRECTORIES) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve(d))));
        }
        assertTrue(r.err().contains("ralon: created " + home.resolve(".codex")), r.err());
    }

    @Test
    void otherCommandsGetNoAgentNote() throws Exception {
        ProcessResult r = run(List.of(ralon.toString(), "run", "--backend", "landlock", "--", "true"));
        assertEquals(0, r.code(), r.err());
        assertFalse(r.err().contains("agents under landlock"), r.err());
    }

    @Test
    void aLinkWhereAStateDirectoryGoesIsLeftAlone() throws Exception {
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(home.resolve(".codex"), elsewhere.resolve("target"));
        run(List.of(ralon.toString(), "run", "--backend", "landlock", "--create-agent-state", "--", "true"));
        assertTrue(Files.isSymbolicLink(home.resolve(".codex")));
        assertFalse(Files.exists(elsewhere.resolve("target")), "the link was followed");
    }
}
