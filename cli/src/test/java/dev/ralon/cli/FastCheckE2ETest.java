package dev.ralon.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code ralon check PATH...} skips picocli (FastCheck). Differential, through the real executable: every case gives
 * the same exit code, stdout and stderr as {@code ralon check -- PATH...}, which picocli parses; and the fast form
 * really loads no picocli class.
 */
class FastCheckE2ETest {
    @TempDir
    Path dir;

    record Result(int exit, String out, String err) {
    }

    Result ralon(Path cwd, Map<String, String> env, List<String> args) throws Exception {
        String exe = System.getProperty("ralon.executable");
        if (exe == null) {
            fail("system property ralon.executable is not set: run through Maven (mvn verify)");
        }
        List<String> cmd = new ArrayList<>(List.of(exe));
        cmd.addAll(args);
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("did not finish: " + args);
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    void same(Path cwd, String... paths) throws Exception {
        List<String> fast = new ArrayList<>(List.of("check"));
        fast.addAll(List.of(paths));
        List<String> slow = new ArrayList<>(List.of("check", "--"));
        slow.addAll(List.of(paths));
        Result f = ralon(cwd, Map.of(), fast);
        Result s = ralon(cwd, Map.of(), slow);
        assertEquals(s, f, "fast and picocli paths differ for " + List.of(paths));
    }

    @Test
    void sameAnswersAsThePicocliPath() throws Exception {
        Path project = Files.createDirectories(dir.resolve("project"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - \"**/*.json\"\n  - secrets/\n  - pom.xml\n");
        Files.createDirectories(project.resolve("src/secrets"));
        Files.createDirectories(project.resolve("secrets"));
        Files.writeString(project.resolve("pom.xml"), "x");
        Files.createSymbolicLink(project.resolve("link"), project.resolve("pom.xml"));
        Path sub = project.resolve("src");
        same(project, "pom.xml");
        same(project, "src/a.java");
        same(project, "pom.xml", "src/a.java", "a/b/c.json", "secrets/k", "src/secrets/k", "agent.lock", "link", "help");
        same(project, "../project/pom.xml", project.resolve("x.json").toString(), "/etc/passwd");
        same(project); // the listing: `check` against `check --`
        Files.writeString(project.resolve("a.json"), "{}");
        Files.createSymbolicLink(project.resolve("out.json"), Path.of("/etc/hostname"));
        same(project); // with a warning (a protected link leading outside)
        same(sub);
        same(sub, "../pom.xml", "a.json");
        Path none = Files.createDirectories(dir.resolve("no-policy-here"));
        if (!Files.exists(dir.getRoot().resolve("agent.lock")) && !Files.exists(dir.getParent().resolve("agent.lock"))) {
            Result r = ralon(none, Map.of(), List.of("check", "x"));
            assertEquals(2, r.exit(), r.err());
            same(none, "x");
        }
        Path bad = Files.createDirectories(dir.resolve("bad"));
        Files.writeString(bad.resolve("agent.lock"), "version: 2\n");
        same(bad, "x");
        same(bad);
        Files.writeString(bad.resolve("agent.lock"), "version: 1\nprotect: [\"[z-a]\"]\n");
        same(bad, "x");
        same(bad);
    }

    @Test
    void runSameAnswersAsThePicocliPath() throws Exception {
        Path project = Files.createDirectories(dir.resolve("r"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n  - missing.txt\n");
        Files.writeString(project.resolve("pom.xml"), "x");
        for (List<String> cmd : List.of(
                List.of("sh", "-c", "echo out; echo err >&2; exit 3"),
                List.of("sh", "-c", "echo changed > pom.xml"),
                List.of("no-such-command-anywhere"),
                List.of("--help"),
                List.of("-x", "@y"))) {
            for (String backend : List.of("noop", "landlock", "mount", "no-such-backend")) {
                List<String> fast = new ArrayList<>(List.of("run", "--backend", backend, "--"));
                fast.addAll(cmd);
                List<String> slow = new ArrayList<>(List.of("run", "--backend=" + backend, "--"));
                slow.addAll(cmd);
                Result f = ralon(project, Map.of(), fast);
                Files.writeString(project.resolve("pom.xml"), "x");
                Result s = ralon(project, Map.of(), slow);
                Files.writeString(project.resolve("pom.xml"), "x");
                assertEquals(s, f, "fast and picocli paths differ for " + fast);
            }
            List<String> fast = new ArrayList<>(List.of("run", "--"));
            fast.addAll(cmd);
            List<String> slow = new ArrayList<>(List.of("run", "--allow-degraded", "--"));
            slow.addAll(cmd);
            Files.delete(project.resolve("agent.lock"));
            assertEquals(ralon(project, Map.of(), slow), ralon(project, Map.of(), fast), "no policy: " + fast);
            Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n  - missing.txt\n");
        }
    }

    @Test
    void fastFormLoadsNoPicocliClassAndTheOtherFormsDo() throws Exception {
        Path project = Files.createDirectories(dir.resolve("p"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n");
        Map<String, String> env = Map.of("RALON_JAVA_OPTS", "-Xlog:class+load=info:stdout");
        Result fast = ralon(project, env, List.of("check", "pom.xml"));
        assertEquals(1, fast.exit(), fast.err());
        assertTrue(fast.out().contains("dev.ralon.cli.FastCheck"), "no class-load log: " + fast.err());
        assertFalse(fast.out().contains(" picocli."), "the fast form loaded picocli");
        Result list = ralon(project, env, List.of("check"));
        assertEquals(0, list.exit(), list.err());
        assertFalse(list.out().contains(" picocli."), "the fast listing loaded picocli");
        Result run = ralon(project, env, List.of("run", "--backend", "noop", "--", "true"));
        assertEquals(0, run.exit(), run.err());
        assertFalse(run.out().contains(" picocli."), "the fast run form loaded picocli");
        Result slow = ralon(project, env, List.of("check", "--explain", "pom.xml"));
        assertEquals(1, slow.exit(), slow.err());
        assertTrue(slow.out().contains(" picocli.CommandLine "), "an option must go through picocli");
    }
}
