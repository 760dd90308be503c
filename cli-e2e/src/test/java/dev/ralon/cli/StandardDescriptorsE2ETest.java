package dev.ralon.cli;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Mount backend: a standard descriptor (0-2) that the user's shell opened on a protected file or directory, or on a
 * directory above one, must not lead the command to a writable path. Each attack runs for real through
 * {@code ralon run --backend mount}, as this user (root in CI) and as uid 65534, and the files are read from outside;
 * the same attack under {@code --backend noop} must get through (the control: the attack is real).
 */
class StandardDescriptorsE2ETest {
    static final String SECRET = "s3cret\nline2\n";
    static ReadableExecutable fixture;
    static Path base;
    static Path exe;
    static Path home;

    @BeforeAll
    static void setUp() throws Exception {
        fixture = ReadableExecutable.sharing("ralon-fd-");
        base = fixture.base();
        exe = fixture.exe();
        home = fixture.home();
    }

    @AfterAll
    static void tearDown() throws Exception {
        fixture.delete();
    }

    static boolean root() throws Exception {
        return sh(false, base, "id -u").out().trim().equals("0");
    }

    /** Runs {@code script} with /bin/sh in {@code dir}, as uid 65534 when {@code nobody}. */
    static ProcessResult sh(boolean nobody, Path dir, String script) throws IOException {
        List<String> cmd = List.of("/bin/sh", "-c", script);
        return TestProcess.of(nobody ? TestProcess.asUser(TestProcess.NOBODY, cmd) : cmd).in(dir)
                .env("HOME", home.toString()).env("RALON_JAVA_OPTS", "-Djava.io.tmpdir=" + home)
                .mergeStderr().stdin("").timeout(120).run();
    }

    /** A fresh project: secret.txt and pdir/ protected, owned by the user who attacks it. */
    static Path project(String name, boolean nobody) throws Exception {
        Path p = Files.createDirectories(base.resolve(name));
        Files.writeString(p.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n  - pdir/\n");
        Files.writeString(p.resolve("secret.txt"), SECRET);
        Files.createDirectories(p.resolve("pdir"));
        Files.writeString(p.resolve("pdir/inner.txt"), "inner\n");
        if (nobody) {
            sh(false, base, "chown -R 65534:65534 '" + p + "'");
        }
        return p;
    }

    /** One attack: a shell redirection made by the user's shell, then the command inside. */
    record Case(String name, String redirect, String inside, boolean refused) {
    }

    static final List<Case> CASES = List.of(
            new Case("stdin is the protected file; reopen /proc/self/fd/0 for writing", "< secret.txt",
                    "echo pwned >> /proc/self/fd/0", false),
            new Case("stderr is the protected file, read-only; reopen /proc/self/fd/2 for writing", "2< secret.txt",
                    "echo pwned >> /proc/self/fd/2", false),
            new Case("stdin is a file inside the protected directory; reopen it for writing", "< pdir/inner.txt",
                    "echo pwned >> /proc/self/fd/0", false),
            new Case("stdin is the protected directory; create in it through /proc/self/fd/0", "< pdir",
                    "echo pwned > /proc/self/fd/0/new.txt", true),
            new Case("stdin is the project directory (above the protected paths); write through it", "< .",
                    "echo pwned >> /proc/self/fd/0/secret.txt", true),
            new Case("stdout is open for writing on the protected file", ">> secret.txt", "echo pwned", true));

    static String state(Path p) throws IOException {
        StringBuilder s = new StringBuilder(Files.readString(p.resolve("secret.txt")));
        s.append(Files.readString(p.resolve("pdir/inner.txt")));
        try (Stream<Path> l = Files.list(p.resolve("pdir"))) {
            l.map(x -> x.getFileName().toString()).sorted().forEach(n -> s.append(n).append(' '));
        }
        return s.toString();
    }

    @TestFactory
    Stream<DynamicTest> aStandardDescriptorOnAProtectedPathLeadsNowhereWritable() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        boolean root = root();
        for (boolean nobody : List.of(false, true)) {
            for (Case c : CASES) {
                String who = nobody ? " [uid 65534]" : " [this user]";
                tests.add(DynamicTest.dynamicTest(c.name() + who, () -> {
                    if (nobody && !root) {
                        dev.ralon.testsupport.Requirements.requireRoot("uid 65534 needs setpriv as root");
                    }
                    String tag = (nobody ? "n-" : "s-") + CASES.indexOf(c);
                    Path control = project("control-" + tag, nobody);
                    String before = state(control);
                    ProcessResult cr = sh(nobody, control, "exec " + exe + " run --backend noop -- sh -c '" + c.inside() + "' "
                            + c.redirect());
                    assertNotEquals(before, state(control), "control: under noop the attack must change something,"
                            + " or it proves nothing: " + cr.out());
                    Path p = project("mount-" + tag, nobody);
                    ProcessResult r = sh(nobody, p, "exec " + exe + " run --backend mount -- sh -c '" + c.inside() + "' "
                            + c.redirect());
                    assertEquals(before, state(p), "the attack got through the mount backend: " + r.out());
                    if (c.refused()) {
                        assertEquals(2, r.code(), r.out());
                        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("ralon: backend mount: ")
                                && l.contains("refusing")), r.out());
                    }
                }));
            }
        }
        tests.add(DynamicTest.dynamicTest("the command still reads a protected file given as stdin, from the shell's"
                + " offset", () -> {
            Path p = project("read", false);
            ProcessResult r = sh(false, p, "{ read first; exec " + exe + " run --quiet --no-baseline --backend mount -- cat; } < secret.txt");
            assertEquals(0, r.code(), r.out());
            // (the opt-in is reported even under --quiet: the one other line)
            assertEquals(List.of("line2"), r.out().lines().filter(l -> !l.startsWith("ralon: note: baseline off"))
                    .toList(), "the rest of the file after the line the shell read: " + r.out());
        }));
        return tests.stream();
    }
}
