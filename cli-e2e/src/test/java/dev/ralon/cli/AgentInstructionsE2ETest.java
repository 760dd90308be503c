package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Telling the agent before it tries, through the real executable: {@code ralon init --agents} writes the agent.lock
 * section into AGENTS.md, CLAUDE.md and GEMINI.md (created, or spliced into an existing file whose other bytes stay as
 * they were, or refreshed in place), refuses a link out of the project, a policy that does not parse and broken
 * markers with nothing written; {@code ralon check} reports a section that no longer says what agent.lock says (one
 * line, exit 1); and {@code ralon run} names the session's notes in {@code RALON_NOTES}, which the session can read
 * and, under both backends, as root and as uid 65534, cannot change.
 */
class AgentInstructionsE2ETest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    ProcessResult ralon(Path cwd, String... args) throws Exception {
        return CliE2ETest.exec(cwd, null, Map.of(), java.util.stream.Stream.concat(Stream.of(CliE2ETest.exe.toString()),
                Stream.of(args)).toArray(String[]::new));
    }

    Path project() throws Exception {
        Path p = Files.createDirectories(tmp.toRealPath().resolve("p"));
        Files.writeString(p.resolve("agent.lock"), "version: 1\nprotect:\n  - secret/\n  - .github/workflows/\n");
        Files.createDirectories(p.resolve("secret"));
        return p;
    }

    @Test
    void initAgentsWritesTheSectionAndKeepsTheRestOfAnExistingFileByteForByte() throws Exception {
        Path p = project();
        // not valid UTF-8, CRLF, no final line break: every byte of it must survive
        byte[] mine = "# Rules\r\n\r\nBe kind. caf\u00e9 \u00ff".getBytes(StandardCharsets.ISO_8859_1);
        Files.write(p.resolve("AGENTS.md"), mine);
        String lockBefore = Files.readString(p.resolve("agent.lock"));
        ProcessResult r = ralon(p, "init", "--agents");
        assertEquals(0, r.code(), r.toString());
        assertEquals(lockBefore, Files.readString(p.resolve("agent.lock")), "an existing agent.lock is kept");
        byte[] agents = Files.readAllBytes(p.resolve("AGENTS.md"));
        byte[] head = java.util.Arrays.copyOf(agents, mine.length);
        assertArrayEquals(mine, head, "the file's own bytes changed");
        String added = new String(agents, mine.length, agents.length - mine.length, StandardCharsets.UTF_8);
        assertTrue(added.startsWith("\n\n" + AgentInstructions.BEGIN + "\n"), added);
        assertTrue(added.endsWith(AgentInstructions.END + "\n"), added);
        for (String pattern : List.of("- `agent.lock`", "- `secret/`", "- `.github/workflows/`")) {
            assertTrue(added.contains(pattern + "\n"), pattern + " missing: " + added);
        }
        assertTrue(added.contains("EROFS") && added.contains("EACCES") && added.contains("EBUSY"), added);
        assertTrue(added.contains("do not retry another way"), added);
        String section = added.substring(2);
        assertEquals(section, Files.readString(p.resolve("CLAUDE.md")), "created with the section alone");
        assertEquals(section, Files.readString(p.resolve("GEMINI.md")));
        ProcessResult check = ralon(p, "check");
        assertEquals(0, check.code(), check.toString());

        // agent.lock changes: check says so, one line per file, exit 1; init --agents refreshes in place
        Files.writeString(p.resolve("agent.lock"), "  - docs/\n", java.nio.file.StandardOpenOption.APPEND);
        ProcessResult stale = ralon(p, "check");
        assertEquals(1, stale.code(), stale.toString());
        List<String> lines = stale.err().lines().filter(l -> l.contains("agent.lock section")).toList();
        assertEquals(List.of(
                "ralon: AGENTS.md: its agent.lock section is out of date with agent.lock (refresh it: ralon init --agents .)",
                "ralon: CLAUDE.md: its agent.lock section is out of date with agent.lock (refresh it: ralon init --agents .)",
                "ralon: GEMINI.md: its agent.lock section is out of date with agent.lock (refresh it: ralon init --agents .)"),
                lines, stale.toString());
        Files.write(p.resolve("AGENTS.md"), concat(Files.readAllBytes(p.resolve("AGENTS.md")),
                "\nmore of mine\n".getBytes(StandardCharsets.UTF_8)));
        ProcessResult again = ralon(p, "init", "--agents");
        assertEquals(0, again.code(), again.toString());
        String refreshed = new String(Files.readAllBytes(p.resolve("AGENTS.md")), StandardCharsets.ISO_8859_1);
        assertTrue(refreshed.startsWith(new String(mine, StandardCharsets.ISO_8859_1) + "\n\n"), refreshed);
        assertTrue(refreshed.endsWith(AgentInstructions.END + "\n\nmore of mine\n"), refreshed);
        assertTrue(refreshed.contains("- `docs/`\n"), refreshed);
        assertEquals(1, refreshed.split(java.util.regex.Pattern.quote(AgentInstructions.END), -1).length - 1);
        assertEquals(0, ralon(p, "check").code());
        ProcessResult third = ralon(p, "init", "--agents");
        assertTrue(third.out().contains("AGENTS.md: the agent.lock section is up to date"), third.toString());
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void initAgentsWithoutAgentLockWritesBoth() throws Exception {
        Path p = Files.createDirectories(tmp.resolve("fresh"));
        Files.writeString(p.resolve(".env"), "K=1\n");
        ProcessResult r = ralon(p, "init", "--agents");
        assertEquals(0, r.code(), r.toString());
        assertTrue(Files.readString(p.resolve("agent.lock")).contains("\n  - .env*\n"));
        assertTrue(Files.readString(p.resolve("AGENTS.md")).contains("- `.env*`\n"));
    }

    @Test
    void nestedPoliciesAreListedEachWithItsFile() throws Exception {
        Path p = project();
        Files.createDirectories(p.resolve("sub"));
        Files.writeString(p.resolve("sub/agent.lock"), "version: 1\nprotect:\n  - gen/**\n");
        assertEquals(0, ralon(p, "init", "--agents").code());
        String s = Files.readString(p.resolve("AGENTS.md"));
        assertTrue(s.contains("From `agent.lock`:\n\n- `agent.lock`\n- `secret/`\n"), s);
        assertTrue(s.contains("From `sub/agent.lock` (relative to `sub/`):\n\n- `agent.lock`\n- `gen/**`\n"), s);
        // a change in the nested file makes the section stale too
        Files.writeString(p.resolve("sub/agent.lock"), "version: 1\nprotect:\n  - gen/**\n  - out/\n");
        ProcessResult stale = ralon(p, "check");
        assertEquals(1, stale.code(), stale.toString());
    }

    @Test
    void aLinkOutOfTheProjectIsRefusedAndNothingIsWritten() throws Exception {
        Path p = project();
        Path outside = Files.writeString(tmp.resolve("elsewhere.md"), "mine\n");
        Files.createSymbolicLink(p.resolve("CLAUDE.md"), outside);
        ProcessResult r = ralon(p, "init", "--agents");
        assertEquals(2, r.code(), r.toString());
        assertEquals(1, r.err().lines().count(), r.toString());
        assertTrue(r.err().contains("CLAUDE.md is a symbolic link out of the project"), r.toString());
        assertEquals("mine\n", Files.readString(outside));
        assertFalse(Files.exists(p.resolve("AGENTS.md")), "nothing is written when one file is refused");
        assertFalse(Files.exists(p.resolve("GEMINI.md")));
        // a link inside the project (CLAUDE.md -> AGENTS.md, a common setup) is the same file, written once
        Files.delete(p.resolve("CLAUDE.md"));
        Files.createSymbolicLink(p.resolve("CLAUDE.md"), Path.of("AGENTS.md"));
        ProcessResult ok = ralon(p, "init", "--agents");
        assertEquals(0, ok.code(), ok.toString());
        assertTrue(Files.isSymbolicLink(p.resolve("CLAUDE.md")));
        String s = Files.readString(p.resolve("AGENTS.md"));
        assertEquals(1, s.split(java.util.regex.Pattern.quote(AgentInstructions.BEGIN), -1).length - 1, s);
    }

    @Test
    void aLinkAnAgentPlantedInsideTheProjectIsNotWrittenThrough() throws Exception {
        Path p = project();
        // what a session can do: a script the policy protects, git's configuration, both inside the project
        Files.writeString(p.resolve("deploy.sh"), "#!/bin/sh\necho deploy\n");
        Files.createDirectories(p.resolve(".git"));
        Files.writeString(p.resolve(".git/config"), "[core]\n");
        for (String[] link : new String[][] {{"AGENTS.md", "deploy.sh"}, {"CLAUDE.md", ".git/config"}}) {
            Files.deleteIfExists(p.resolve("AGENTS.md"));
            Files.deleteIfExists(p.resolve("CLAUDE.md"));
            Files.createSymbolicLink(p.resolve(link[0]), Path.of(link[1]));
            ProcessResult r = ralon(p, "init", "--agents");
            assertEquals(2, r.code(), r.toString());
            assertEquals(1, r.err().lines().count(), r.toString());
            assertTrue(r.err().contains(link[0] + " is a symbolic link to ") && r.err().contains("writes through a link"
                    + " only to AGENTS.md, CLAUDE.md, GEMINI.md beside it"), r.toString());
            assertEquals("#!/bin/sh\necho deploy\n", Files.readString(p.resolve("deploy.sh")));
            assertEquals("[core]\n", Files.readString(p.resolve(".git/config")));
            assertFalse(Files.exists(p.resolve("GEMINI.md")), "nothing is written when one file is refused");
        }
    }

    @Test
    void aPolicyThatDoesNotParseIsOneLineExit2AndNothingWritten() throws Exception {
        Path p = project();
        Files.writeString(p.resolve("agent.lock"), "version: 1\nprotect:\n  - [x\n");
        ProcessResult r = ralon(p, "init", "--agents");
        assertEquals(2, r.code(), r.toString());
        assertEquals(1, r.err().lines().count(), r.toString());
        assertTrue(r.err().startsWith("ralon: agent.lock:"), r.toString());
        for (String f : AgentInstructions.FILES) {
            assertFalse(Files.exists(p.resolve(f)), f + " was written");
        }
    }

    @Test
    void brokenMarkersAreRefusedByInitAndReportedByCheck() throws Exception {
        Path p = project();
        Files.writeString(p.resolve("GEMINI.md"), "mine\n" + AgentInstructions.BEGIN + "\nhalf\n");
        ProcessResult r = ralon(p, "init", "--agents");
        assertEquals(2, r.code(), r.toString());
        assertTrue(r.err().contains("GEMINI.md: its agent.lock begin marker has no end marker after it"), r.toString());
        assertFalse(Files.exists(p.resolve("AGENTS.md")));
        ProcessResult check = ralon(p, "check");
        assertEquals(1, check.code(), check.toString());
        assertTrue(check.err().contains("ralon: GEMINI.md: its agent.lock begin marker has no end marker"), check.toString());
    }

    @Test
    void aFileAgentLockProtectsIsWrittenAsTheUsersActAndThatIsSaid() throws Exception {
        Path p = project();
        Files.writeString(p.resolve("agent.lock"), "version: 1\nprotect:\n  - AGENTS.md\n");
        ProcessResult r = ralon(p, "init", "--agents");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().contains("wrote AGENTS.md (protected by agent.lock: writing it outside a session is your"
                + " act; a session cannot)"), r.toString());
        assertTrue(Files.readString(p.resolve("AGENTS.md")).contains("- `AGENTS.md`\n"));
    }

    // ---- RALON_NOTES: readable inside the session, and never changed by it ----

    static Stream<org.junit.jupiter.params.provider.Arguments> matrix() {
        return SessionHelpersE2ETest.matrix();
    }

    @ParameterizedTest(name = "{0} as uid {1}")
    @MethodSource("matrix")
    void theSessionReadsItsNotesAndCannotChangeThem(String backend, int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid, Path.of("/var/lib"))) {
            Path project = WritesOutsideE2ETest.project(u);
            u.handOver();
            u.assumeBackend(project, backend);
            String script = "test -n \"$RALON_NOTES\" || { echo NO-NOTES; exit 1; }\n"
                    + "echo \"NOTES $RALON_NOTES\"; cat \"$RALON_NOTES\"\n"
                    + WritesOutsideE2ETest.attempt("append", "echo PWNED >> \"$RALON_NOTES\"")
                    + WritesOutsideE2ETest.attempt("chmod", "chmod u+w \"$RALON_NOTES\"")
                    + WritesOutsideE2ETest.attempt("rm", "rm -f \"$RALON_NOTES\"")
                    + WritesOutsideE2ETest.attempt("replace", "echo PWNED > \"$RALON_NOTES.new\" && mv -f"
                    + " \"$RALON_NOTES.new\" \"$RALON_NOTES\"");
            ProcessResult r = u.ralon(project, "run", "--backend", backend, "--", "sh", "-c", script);
            assertEquals(0, r.code(), r.toString());
            String notesLine = r.out().lines().filter(l -> l.startsWith("NOTES ")).findFirst().orElseThrow();
            Path notes = Path.of(notesLine.substring("NOTES ".length()));
            assertTrue(notes.startsWith(u.home.resolve(".cache/ralon/sessions")), notesLine);
            assertTrue(r.out().contains("Backend: " + backend + "\n"), r.out());
            assertTrue(r.out().contains("    secret.txt\n"), r.out());
            assertTrue(r.out().contains("  " + project.resolve("secret.txt") + "\n"), r.out());
            assertTrue(r.out().contains("\"Read-only file system\" (EROFS)"), r.out());
            assertTrue(r.out().contains("Do not retry another way"), r.out());
            // under mount ~ is a copy: the session changes at most its copy of the notes (rm and replace succeed
            // there; append only as root, the file being 0444) and never the file itself, read from outside below;
            // under landlock each attempt is refused
            boolean copy = backend.equals("mount");
            for (String attempt : List.of("append", "rm", "replace")) {
                assertTrue(copy || WritesOutsideE2ETest.rc(r, attempt) != 0, attempt + " must fail: " + r);
            }
            if (copy) {
                assertEquals(0, WritesOutsideE2ETest.rc(r, "rm"), "rm lands in the copy: " + r);
            }
            String outside = Files.readString(notes);
            assertFalse(outside.contains("PWNED"), outside);
            assertTrue(r.out().contains(outside), "the file read from outside is what the session read: " + r);
            // the mode, read from outside: unchanged (mount: the chmod was the copy's; landlock does not stop metadata
            // changes outside the writable areas, docs/backend-landlock.md, and the write itself is refused above)
            if (copy) {
                assertEquals("r--r--r--", java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(notes)));
            }
        }
    }
}
