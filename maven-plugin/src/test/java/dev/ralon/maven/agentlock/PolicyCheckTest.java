package dev.ralon.maven.agentlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ralon.policy.PolicyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The check on real files; the Maven side is covered by the invoker projects in src/it. */
class PolicyCheckTest {

    @TempDir Path dir;

    private Path policy(String text) throws Exception {
        Files.writeString(dir.resolve("pom.xml"), "<project/>");
        return Files.writeString(dir.resolve("agent.lock"), text);
    }

    @Test
    void validPolicyPassesAndSummarises() throws Exception {
        Path file = policy("version: 1\nprotect:\n  - pom.xml\n");
        PolicyCheck.Result r = PolicyCheck.run(file, false, List.of("pom.xml"));
        assertEquals(List.of(), r.failures());
        assertEquals(List.of(), r.warnings());
        assertTrue(r.summary().startsWith("agent.lock OK: " + file.toAbsolutePath().normalize() + " (1 pattern, "),
                r.summary());
    }

    @Test
    void unmatchedPatternWarnsOrFailsOnceAtItsLineAndColumn() throws Exception {
        Path file = policy("version: 1\nprotect:\n  - pom.xml\n  - keys/*.pem\n");
        String expected = file.toAbsolutePath().normalize() + ":4:5: pattern \"keys/*.pem\" matches nothing";
        PolicyCheck.Result warn = PolicyCheck.run(file, false, List.of());
        assertEquals(1, warn.warnings().size(), warn.warnings().toString());
        assertTrue(warn.warnings().get(0).startsWith(expected), warn.warnings().get(0));
        assertEquals(List.of(), warn.failures());
        PolicyCheck.Result fail = PolicyCheck.run(file, true, List.of());
        assertEquals(warn.warnings(), fail.failures());
        assertEquals(List.of(), fail.warnings());
    }

    @Test
    void slashLessPatternThatWouldMatchDeeperSaysSo() throws Exception {
        Path file = policy("version: 1\nprotect:\n  - \"*.pem\"\n");
        Files.createDirectories(dir.resolve("deep"));
        Files.writeString(dir.resolve("deep/x.pem"), "k");
        PolicyCheck.Result r = PolicyCheck.run(file, false, List.of());
        assertEquals(1, r.warnings().size(), r.warnings().toString());
        String w = r.warnings().get(0);
        assertTrue(w.startsWith(file.toAbsolutePath().normalize() + ":3:5: pattern \"*.pem\" matches nothing"), w);
        assertTrue(w.contains("**/*.pem"), w);
    }

    @Test
    void theDeeperCountLeavesOutWhatGitIgnores() throws Exception {
        Path file = policy("version: 1\nprotect:\n  - \"*.pem\"\n");
        Files.writeString(dir.resolve(".gitignore"), "target/\n");
        for (String f : List.of("deep/x.pem", "target/classes/deep/x.pem", "target/y.pem")) {
            Files.createDirectories(dir.resolve(f).getParent());
            Files.writeString(dir.resolve(f), "k");
        }
        String before = PolicyCheck.run(file, false, List.of()).warnings().get(0);
        assertTrue(before.contains("would match 3 paths deeper"), before); // no work tree: nothing is ignored
        Process git = new ProcessBuilder("git", "init", "-q", dir.toString()).inheritIO().start();
        assertEquals(0, git.waitFor());
        String after = PolicyCheck.run(file, false, List.of()).warnings().get(0);
        assertTrue(after.contains("would match 1 path deeper"), after);
    }

    @Test
    void theProtectedCountLeavesOutWhatGitIgnoresUnlessAPatternNamesIt() throws Exception {
        Files.writeString(dir.resolve(".gitignore"), "target/\n");
        for (String f : List.of("src/x.pem", "target/classes/x.pem", "target/y.pem")) {
            Files.createDirectories(dir.resolve(f).getParent());
            Files.writeString(dir.resolve(f), "k");
        }
        Path file = policy("version: 1\nprotect:\n  - \"**/*.pem\"\n");
        String before = PolicyCheck.run(file, false, List.of()).summary();
        assertTrue(before.contains("(1 pattern, 4 protected paths on disk)"), before); // no work tree: all counted
        Process git = new ProcessBuilder("git", "init", "-q", dir.toString()).inheritIO().start();
        assertEquals(0, git.waitFor());
        String after = PolicyCheck.run(file, false, List.of()).summary();
        assertTrue(after.contains("(1 pattern, 2 protected paths on disk)"), after); // agent.lock and src/x.pem
        Path named = policy("version: 1\nprotect:\n  - \"**/*.pem\"\n  - \"target/**/*.pem\"\n");
        String both = PolicyCheck.run(named, false, List.of()).summary();
        assertTrue(both.contains("(2 patterns, 4 protected paths on disk)"), both);
    }

    @Test
    void requiredPathNotCoveredFails() throws Exception {
        Path file = policy("version: 1\nprotect:\n  - pom.xml\n  - .github/workflows\n");
        Files.createDirectories(dir.resolve(".github/workflows"));
        PolicyCheck.Result r = PolicyCheck.run(file, false,
                List.of("pom.xml", ".github/workflows/ci.yml", "src/main/java"));
        assertEquals(1, r.failures().size(), r.failures().toString());
        assertTrue(r.failures().get(0).contains("required path \"src/main/java\" is not protected"),
                r.failures().get(0));
    }

    @Test
    void policyErrorIsDescribedWithAbsoluteFileLineAndColumn() throws Exception {
        Path file = policy("version: 1\nprotected:\n  - pom.xml\n");
        PolicyException e = assertThrows(PolicyException.class, () -> PolicyCheck.run(file, false, List.of()));
        assertFalse(e.isIoFault());
        String d = PolicyCheck.describe(e, file);
        assertTrue(d.startsWith(file.toAbsolutePath().normalize() + ":2:1: "), d);
        assertTrue(d.contains("protected"), d);
    }

    @Test
    void directoryIsAnIoFaultWithoutLine() throws Exception {
        Path file = Files.createDirectory(dir.resolve("agent.lock"));
        PolicyException e = assertThrows(PolicyException.class, () -> PolicyCheck.run(file, false, List.of()));
        assertTrue(e.isIoFault());
        assertEquals(file.toAbsolutePath().normalize() + ": " + e.reason(), PolicyCheck.describe(e, file));
    }
}
