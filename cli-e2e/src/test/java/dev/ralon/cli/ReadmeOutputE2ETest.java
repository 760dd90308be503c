package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * README.md's "What it looks like" is today's output: the block between {@link #BEGIN} and {@link #END} is made here
 * from real runs in a copy of examples/demo, by this user, with a home of its own (its agents' state and npm's cache
 * made, as on a machine in use). {@code -Dralon.readme.write=true} writes the block into README.md instead of failing.
 */
class ReadmeOutputE2ETest {
    static final String BEGIN = "<!-- BEGIN examples/demo output: made by ReadmeOutputE2ETest -->";
    static final String END = "<!-- END examples/demo output -->";

    /** examples/demo, copied into {@code dir} (its files are read from the source tree). */
    static void copyDemo(Path dir) throws Exception {
        Path demo = Path.of(System.getProperty("ralon.readme")).getParent().resolve("examples/demo");
        try (Stream<Path> all = Files.walk(demo)) {
            for (Path p : all.toList()) {
                Path to = dir.resolve(demo.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
    }

    @Test
    void theReadmeShowsTodaysOutput() throws Exception {
        String readmeProp = System.getProperty("ralon.readme");
        assertNotNull(readmeProp, "system property ralon.readme is not set: run through Maven");
        Path readme = Path.of(readmeProp);
        // a home outside the temporary directories, as on a machine in use: root can make one in /var/lib; another
        // user has only temporary directories, where the areas' line and the baseline's counts differ: compared without
        // those two lines (said on the console; the root run of CI compares everything)
        boolean root = TestProcess.currentUid() == 0;
        try (AsUser u = root ? new AsUser(0, Path.of("/var/lib")) : new AsUser(TestProcess.currentUid())) {
            Path dir = u.base.resolve("demo");
            copyDemo(dir);
            for (String d : List.of(".claude", ".codex", ".gemini", ".npm/_cacache", ".npm/_logs")) {
                Files.createDirectories(u.home.resolve(d));
            }
            u.handOver();
            u.assumeBackend(dir, "mount");
            u.assumeBackend(dir, "landlock");
            Map<String, String> env = Map.of("TMPDIR", "/tmp", "PATH", "/usr/bin:/bin");
            StringBuilder b = new StringBuilder(BEGIN).append("\n```console\n");
            ProcessResult status = u.ralonWith(dir, env, "status");
            assertEquals(0, status.code(), status.toString());
            b.append("$ ralon status\n").append(status.out());
            String[] explain = {"check", "--explain", "secrets/api.key", "certs/server.pem", "scratch.txt", "agent.lock"};
            ProcessResult check = u.ralonWith(dir, env, explain);
            assertEquals(1, check.code(), check.toString());
            b.append("$ ralon ").append(String.join(" ", explain)).append('\n').append(check.out());
            b.append("$ echo $?\n1\n");
            ProcessResult run = u.ralonWith(dir, env, "run", "--", "sh", "-c", "echo pwned >> secrets/api.key");
            assertTrue(run.code() != 0, run.toString());
            b.append("$ ralon run -- sh -c 'echo pwned >> secrets/api.key'\n").append(run.err());
            assertEquals(Files.readString(readme.getParent().resolve("examples/demo/secrets/api.key")),
                    Files.readString(dir.resolve("secrets/api.key")), "the protected file, from outside: " + run);
            b.append("```\n").append(END);
            String expected = b.toString();
            String text = Files.readString(readme);
            int from = text.indexOf(BEGIN);
            int to = text.indexOf(END);
            assertTrue(from >= 0 && to > from, "README.md has no " + BEGIN + " ... " + END + " block; it should be:\n"
                    + expected);
            String actual = text.substring(from, to + END.length());
            // the baseline's counts depend on the machine (the JDK's layout, what is on PATH): its line is compared
            // with its numbers masked (the README keeps a real run's)
            expected = maskBaselineCounts(expected);
            actual = maskBaselineCounts(actual);
            if (!root) {
                System.err.println("ReadmeOutputE2ETest: not root, so the home lies in /tmp: README.md's block compared"
                        + " without its lines that depend on where the home is (writable areas, baseline)");
                expected = withoutHomeLines(expected);
                actual = withoutHomeLines(actual);
            }
            if (root && Boolean.getBoolean("ralon.readme.write") && !actual.equals(expected)) {
                Files.writeString(readme, text.substring(0, from) + b + text.substring(to + END.length()));
                return;
            }
            assertEquals(expected, actual, "README.md's example output is not today's; replace the block with the"
                    + " expected text (or run this test with -Dralon.readme.write=true)");
        }
    }

    /**
     * {@code block} with every number of its baseline line replaced by N, and the store of the home directory's copy
     * named by its project alone (its name starts with a hash of the project's path, which is the test's copy's).
     */
    static String maskBaselineCounts(String block) {
        StringBuilder out = new StringBuilder();
        for (String l : block.split("\n", -1)) {
            out.append((l.startsWith("baseline: ") ? l.replaceAll("[0-9]+", "N") : l)
                    .replaceAll("ralon/homes/[0-9a-f]{16}-", "ralon/homes/HASH-")).append('\n');
        }
        return out.substring(0, out.length() - 1);
    }

    /** {@code block} without the lines whose text depends on where the home lies (areas, baseline, /tmp's refusal). */
    static String withoutHomeLines(String block) {
        StringBuilder b = new StringBuilder();
        for (String l : block.split("\n", -1)) {
            if (!(l.startsWith("writable outside the project:") || l.startsWith("baseline:") || l.startsWith("  not writable:")
                    || l.startsWith("ralon: warning: /tmp is not writable") || l.contains(" paths locked via "))) {
                b.append(l).append('\n');
            }
        }
        return b.toString();
    }
}
