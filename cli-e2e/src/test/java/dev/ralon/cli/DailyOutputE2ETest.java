package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a user reads by default, measured on the two projects a new user tries (examples/demo, and a fresh project of a
 * few files given `ralon init`), under both backends, as root and as uid 65534 with a home of its own: {@code status}
 * fits 25 lines, {@code run} says at most two lines on stderr, {@code run -q} nothing, {@code run --dry-run} at most
 * 30 lines; {@code --verbose} still says everything.
 */
class DailyOutputE2ETest {
    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        List<Integer> uids = TestProcess.currentUid() == 0 ? List.of(0, 65534) : List.of(TestProcess.currentUid());
        for (int uid : uids) {
            for (String project : List.of("demo", "fresh")) {
                out.add(Arguments.of(uid, project));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "uid {0}, {1}")
    @MethodSource("cases")
    void theDefaultOutputFitsAScreen(int uid, String project) throws Exception {
        try (AsUser u = new AsUser(uid)) {
            Path dir = u.base.resolve(project);
            if (project.equals("demo")) {
                ReadmeOutputE2ETest.copyDemo(dir);
            } else {
                Files.createDirectories(dir.resolve("src"));
                Files.writeString(dir.resolve("README.md"), "hello\n");
                Files.writeString(dir.resolve("src/a.txt"), "x\n");
                Files.writeString(dir.resolve(".env"), "SECRET=1\n");
            }
            u.handOver();
            if (project.equals("fresh")) {
                ProcessResult init = u.ralon(dir, "init");
                assertEquals(0, init.code(), init.toString());
            }
            ProcessResult status = u.ralon(dir, "status");
            assertEquals(0, status.code(), status.toString());
            assertTrue(status.out().lines().count() <= 25, "status: " + status.out().lines().count() + " lines\n" + status);
            assertTrue(status.err().isEmpty(), status.toString());
            ProcessResult verbose = u.ralon(dir, "status", "--verbose");
            assertTrue(verbose.out().contains("baseline: protected by `ralon run` besides the policy"), verbose.toString());
            for (String backend : List.of("mount", "landlock")) {
                u.assumeBackend(dir, backend);
                ProcessResult run = u.ralon(dir, "run", "--backend", backend, "--", "true");
                assertEquals(0, run.code(), run.toString());
                assertTrue(run.err().lines().count() <= 2, backend + ": run said more than two lines:\n" + run.err());
                assertTrue(run.err().startsWith("ralon: "), run.toString());
                ProcessResult quiet = u.ralon(dir, "run", "-q", "--backend", backend, "--", "true");
                assertEquals(0, quiet.code(), quiet.toString());
                assertEquals("", quiet.err(), backend + ": --quiet said something");
                ProcessResult dry = u.ralon(dir, "run", "--dry-run", "--backend", backend, "--", "true");
                assertEquals(0, dry.code(), dry.toString());
                assertTrue(dry.out().lines().count() <= 30, backend + ": --dry-run said " + dry.out().lines().count()
                        + " lines:\n" + dry.out());
                ProcessResult all = u.ralon(dir, "run", "--verbose", "--backend", backend, "--", "true");
                assertEquals(0, all.code(), all.toString());
                assertTrue(all.err().lines().count() >= run.err().lines().count(), all.toString());
            }
            // an opt-in that weakens the run is reported, --quiet included: one line
            ProcessResult optIn = u.ralon(dir, "run", "-q", "--write-anywhere", "--allow-unix-sockets", "--backend",
                    "mount", "--", "true");
            assertEquals(0, optIn.code(), optIn.toString());
            assertEquals(1, optIn.err().lines().count(), optIn.toString());
            assertTrue(optIn.err().contains("unix-sockets (--allow-unix-sockets)")
                    && optIn.err().contains("NOT confined (--write-anywhere)"), optIn.toString());
        }
    }
}
