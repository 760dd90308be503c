package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;

import dev.ralon.testsupport.Requirements;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The default experience of {@code ralon run} through the real executable, as the invoking user and as uid 65534,
 * checked from outside: {@code X/**} protects X as a whole (new entries included) under both backends; the backend
 * is chosen by the machine, not by the policy (a missing literal path keeps mount, with one line saying so, and
 * ordinary work still succeeds); the start line, {@code --quiet} and the {@code RALON_*} variables.
 */
class DefaultRunE2ETest {
    static final String POLICY = "version: 1\nprotect:\n  - .github/workflows/**\n  - .env\n  - .env.production\n";

    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    /** Who runs ralon: this JVM's user, or uid 65534 (needs root to switch). */
    enum Who { INVOKER, NOBODY }

    record Setup(CliE2ETest.Nobody nobody, Path project) {
        ProcessResult ralon(Who who, String... args) throws Exception {
            if (who == Who.NOBODY) {
                return nobody.run(project, args);
            }
            List<String> c = new ArrayList<>(List.of(CliE2ETest.exe.toString()));
            c.addAll(List.of(args));
            return CliE2ETest.exec(project, null, Map.of(), c.toArray(String[]::new));
        }
    }

    /** A project in a directory uid 65534 can use: .github/workflows/ci.yml, .env, no .env.production. */
    static Setup project(Who who) throws Exception {
        CliE2ETest.Nobody nobody = new CliE2ETest.Nobody();
        Path p = nobody.dir("project");
        Files.createDirectories(p.resolve(".github/workflows"));
        Files.writeString(p.resolve(".github/workflows/ci.yml"), "on: push\n");
        Files.writeString(p.resolve(".env"), "A=1\n");
        Files.writeString(p.resolve("package.json"), "{\"name\": \"x\", \"version\": \"1.0.0\"}\n");
        Files.writeString(p.resolve("agent.lock"), POLICY);
        if (who == Who.NOBODY) {
            CliE2ETest.exec(Path.of("/"), null, Map.of(), "chown", "-R", "65534:65534", p.toString());
        }
        return new Setup(nobody, p);
    }

    static String backendOnThisMachine() throws Exception {
        Setup s = project(Who.INVOKER);
        try {
            ProcessResult r = s.ralon(Who.INVOKER, "status", "--json");
            assertEquals(0, r.code(), r.err());
            return r.out().contains("\"runWouldUse\": \"mount\"") ? "mount" : "other";
        } finally {
            s.nobody().delete();
        }
    }

    private static void heldDirectoryRefusesNewEntries(Who who, String backend) throws Exception {
        if (who == Who.NOBODY) {
            Requirements.requireRoot("the run is started as uid 65534 with setpriv");
        }
        Setup s = project(who);
        try {
            List<String> args = new ArrayList<>(List.of("run"));
            if (backend != null) {
                args.addAll(List.of("--backend", backend));
            }
            args.addAll(List.of("--", "sh", "-c", "echo 'on: push' > .github/workflows/evil.yml;"
                    + " mkdir .github/workflows/sub; mv .github/workflows/ci.yml .github/workflows/moved.yml;"
                    + " rm -f .github/workflows/ci.yml; mv .github/workflows .github/w2; echo done"));
            ProcessResult r = s.ralon(who, args.toArray(String[]::new));
            String label = who + " " + (backend == null ? "default backend" : backend) + ": " + r.err();
            assertEquals(0, r.code(), label);
            assertEquals("done\n", r.out(), label);
            Path wf = s.project().resolve(".github/workflows");
            assertFalse(Files.exists(wf.resolve("evil.yml")), "created in a held directory: " + label);
            assertFalse(Files.exists(wf.resolve("sub")), label);
            assertFalse(Files.exists(wf.resolve("moved.yml")), label);
            assertEquals("on: push\n", Files.readString(wf.resolve("ci.yml")), label);
            assertFalse(Files.exists(s.project().resolve(".github/w2")), label);
        } finally {
            s.nobody().delete();
        }
    }

    @Test
    void heldDirectoryRefusesNewEntriesUnderTheDefaultBackend() throws Exception {
        heldDirectoryRefusesNewEntries(Who.INVOKER, null);
        heldDirectoryRefusesNewEntries(Who.NOBODY, null);
    }

    @Test
    void heldDirectoryRefusesNewEntriesUnderEachBackend() throws Exception {
        for (String backend : List.of("mount", "landlock")) {
            heldDirectoryRefusesNewEntries(Who.INVOKER, backend);
            heldDirectoryRefusesNewEntries(Who.NOBODY, backend);
        }
    }

    /**
     * The issue's "done means": with a missing literal in the policy the default run stays on mount, says so in one
     * line, and ordinary work (mkdir, npm init, sed -i of an unprotected file, mktemp, a git commit) succeeds.
     */
    @Test
    void aMissingLiteralKeepsTheMachinesBackendAndOrdinaryWorkSucceeds() throws Exception {
        Requirements.require("mount".equals(backendOnThisMachine()),
                "the mount backend on this machine (unprivileged user namespaces)");
        for (Who who : Who.values()) {
            if (who == Who.NOBODY && !Requirements.isRoot()) {
                continue; // the invoking user is already unprivileged
            }
            Setup s = project(who);
            try {
                String npm = Files.isExecutable(Path.of("/usr/bin/npm")) ? " && HOME=$PWD/h npm init -y >/dev/null" : "";
                ProcessResult r = s.ralon(who, "run", "--", "sh", "-c", "mkdir target" + npm
                        + " && sed -i s/x/y/ package.json && mktemp -p . >/dev/null && git init -q"
                        + " && git add -A && git -c user.email=a@b -c user.name=a commit -qm x && echo ok;"
                        + " echo 'on: push' > .github/workflows/evil.yml; env | grep ^RALON_ | sort");
                String label = who + ": " + r.err();
                assertEquals(0, r.code(), label);
                assertTrue(r.out().startsWith("ok\n"), r.out() + label);
                assertTrue(Files.isDirectory(s.project().resolve("target")), label);
                assertTrue(Files.readString(s.project().resolve("package.json")).contains("\"y\""), label);
                assertFalse(Files.exists(s.project().resolve(".github/workflows/evil.yml")), label);
                List<String> lines = r.err().lines().toList();
                assertEquals(1, lines.stream().filter(l -> l.contains(".env.production")
                        && !l.contains(" locked via ")).count(), "one line about the missing path: " + label);
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("ralon: not protected against creation:"
                        + " .env.production (does not exist, and backend mount cannot stop it being created")), label);
                // the policy's 3 paths and the baseline's existing ones (git's and the home directory's)
                String start = lines.stream().filter(l -> l.contains(" paths locked via the mount backend; not covered:"
                        + " creating .env.production (missing at start)")).findFirst().orElse(null);
                assertTrue(start != null && start.matches("ralon: \\d+ paths locked via .*"), label);
                String locked = start.substring("ralon: ".length(), start.indexOf(' ', "ralon: ".length()));
                assertTrue(Integer.parseInt(locked) >= 3, label);
                assertTrue(lines.stream().anyMatch(l -> l.contains("(EBUSY, on rename or delete) mean the path is"
                        + " protected")), label);
                assertTrue(r.out().contains("RALON_BACKEND=mount\n"), r.out());
                assertTrue(r.out().contains("RALON_LOCKED=" + locked + "\n"), r.out());
                assertTrue(r.out().contains("RALON_DENIED_ERRNOS=EROFS EBUSY\n"), r.out());
                assertTrue(r.out().contains("RALON_ROOT=" + s.project().toRealPath() + "\n"), r.out());
                assertTrue(r.out().contains("RALON_POLICY=" + s.project().toRealPath().resolve("agent.lock") + "\n"),
                        r.out());
            } finally {
                s.nobody().delete();
            }
        }
    }

    /** init creates the file as the user's umask says (0644 under 022: another account can read it), not 0600. */
    @Test
    void initWritesWithTheUsersUmask() throws Exception {
        Setup s = project(Who.INVOKER);
        try {
            for (String[] umaskMode : new String[][] {{"022", "rw-r--r--"}, {"077", "rw-------"}, {"002", "rw-rw-r--"}}) {
                Files.deleteIfExists(s.project().resolve("agent.lock"));
                ProcessResult r = CliE2ETest.exec(s.project(), null, Map.of(), "sh", "-c",
                        "umask " + umaskMode[0] + " && exec \"$0\" init", CliE2ETest.exe.toString());
                assertEquals(0, r.code(), r.err());
                assertEquals(umaskMode[1], java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(s.project().resolve("agent.lock"))), "umask " + umaskMode[0]);
            }
        } finally {
            s.nobody().delete();
        }
    }

    @Test
    void quietSilencesTheStartLinesButNotWarnings() throws Exception {
        Setup s = project(Who.INVOKER);
        try {
            ProcessResult loud = s.ralon(Who.INVOKER, "run", "--backend", "noop", "--", "true");
            assertTrue(loud.err().contains("ralon: nothing is locked: the noop backend enforces nothing"), loud.err());
            ProcessResult quiet = s.ralon(Who.INVOKER, "run", "--quiet", "--backend", "noop", "--", "true");
            assertEquals(0, quiet.code(), quiet.err());
            assertFalse(quiet.err().contains("nothing is locked"), quiet.err());
            assertTrue(quiet.err().contains("WARNING: backend noop enforces nothing"), quiet.err());
        } finally {
            s.nobody().delete();
        }
    }
}
