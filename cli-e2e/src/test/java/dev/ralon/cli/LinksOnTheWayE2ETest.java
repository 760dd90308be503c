package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Links on the way (docs/security.md), "a symbolic link on the way is not protected": with {@code lib/door/*.key}
 * protected and {@code lib/door -> ../real}, the agent retargeted {@code lib/door} during the run, and the next run protected
 * {@code decoy/*.key} instead. Each attack runs for real inside {@code ralon run} under both backends, as root and as
 * uid 65534, in a project of its own, after a control run without the sandbox that shows the attack retargets the
 * link; the verdict is read from outside: the link still points where it did, its directory is still there, the
 * protected file is unchanged.
 */
class LinksOnTheWayE2ETest {
    static final String POLICY = "version: 1\nprotect:\n  - lib/door/*.key\n  - etc/conf/app.key\n";

    /** The attacks on the links; each leaves {@code lib/door -> ../decoy} (or etc/conf retargeted) when it works. */
    static final List<String[]> ATTACKS = List.of(
            new String[] {"ln -sfn", "ln -sfn ../decoy lib/door"},
            new String[] {"rm + ln", "rm lib/door && ln -s ../decoy lib/door"},
            new String[] {"mv over", "ln -s ../decoy lib/door.new && mv -fT lib/door.new lib/door"},
            new String[] {"rename the link's parent", "mv lib lib.moved && mkdir lib && ln -s ../decoy lib/door"},
            new String[] {"rm -rf the link's parent", "rm -rf lib && mkdir lib && ln -s ../decoy lib/door"},
            new String[] {"second link of a chain", "ln -sfn ../decoy common/current"});

    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    static Stream<Arguments> cases() {
        return AsUser.matrix(ATTACKS);
    }

    /**
     * The project: {@code lib/door -> ../real} (the protected keys are reached through it) and
     * {@code etc/conf -> ../common/current}, {@code common/current -> ../real2}: a chain of two links on the way to a
     * literal path.
     */
    static Path project(AsUser u, String name) throws Exception {
        Path p = Files.createDirectories(u.base.resolve(name));
        Files.createDirectories(p.resolve("lib"));
        Files.createDirectories(p.resolve("real"));
        Files.createDirectories(p.resolve("decoy"));
        Files.createDirectories(p.resolve("real2"));
        Files.createDirectories(p.resolve("etc"));
        Files.createDirectories(p.resolve("common"));
        Files.writeString(p.resolve("real/x.key"), "original\n");
        Files.writeString(p.resolve("real2/app.key"), "original2\n");
        Files.writeString(p.resolve("decoy/x.key"), "decoy\n");
        Files.writeString(p.resolve("decoy/app.key"), "decoy\n");
        Files.createSymbolicLink(p.resolve("lib/door"), Path.of("../real"));
        Files.createSymbolicLink(p.resolve("common/current"), Path.of("../real2"));
        Files.createSymbolicLink(p.resolve("etc/conf"), Path.of("../common/current"));
        Files.writeString(p.resolve("agent.lock"), POLICY);
        return p;
    }

    static String state(Path p) throws Exception {
        StringBuilder s = new StringBuilder();
        for (String link : List.of("lib/door", "common/current", "etc/conf")) {
            Path l = p.resolve(link);
            s.append(link).append(Files.isSymbolicLink(l) ? " -> " + Files.readSymbolicLink(l) : " (no link)").append('\n');
        }
        s.append("lib is a directory: ").append(Files.isDirectory(p.resolve("lib"), LinkOption.NOFOLLOW_LINKS))
                .append('\n');
        s.append("real/x.key: ").append(Files.readString(p.resolve("real/x.key")));
        s.append("real2/app.key: ").append(Files.readString(p.resolve("real2/app.key")));
        return s.toString();
    }

    @ParameterizedTest(name = "{0}, uid {1}: {2}")
    @MethodSource("cases")
    void theLinkOnTheWayCannotBeRetargeted(String backend, int uid, String title, String attack) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid)) {
            Path control = project(u, "control");
            Path p = project(u, "proj");
            u.handOver();
            u.assumeBackend(p, backend);
            String before = state(control);
            ProcessResult c = u.sh(control, attack);
            assertEquals(0, c.code(), "control: without the sandbox the attack works: " + c);
            assertNotEquals(before, state(control), "control: without the sandbox the attack retargets a link");

            String expected = state(p);
            ProcessResult r = u.ralon(p, "run", "--backend", backend, "--", "sh", "-c",
                    attack + "; echo \"attack exit $?\"");
            assertTrue(r.out().contains("attack exit "), "the command ran: " + r);
            assertNotEquals("attack exit 0", r.out().trim(), "the attack must fail inside the sandbox: " + r);
            assertEquals(expected, state(p), "seen from outside after `" + attack + "` under " + backend + ": " + r);

            // and so the next run still protects what the policy named through the links
            ProcessResult next = u.ralon(p, "run", "--backend", backend, "--", "sh", "-c",
                    "echo pwned > real/x.key; echo pwned > real2/app.key; true");
            assertEquals(0, next.code(), next.toString());
            assertEquals(expected, state(p), "the next run protects the same files: " + next);
        }
    }

    /** What it costs: under mount nothing (the link's directory stays writable); landlock says which directories. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void whatItCostsOrdinaryWork(String backend) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(0)) {
            Path p = project(u, "proj");
            u.assumeBackend(p, backend);
            ProcessResult plan = u.ralon(p, "run", "--backend", backend, "--dry-run", "--verbose");
            assertEquals(0, plan.code(), plan.toString());
            assertTrue(plan.out().contains(p.resolve("lib/door") + "  [symlink]  symbolic link on the way to lib/door/x.key"),
                    plan.out());
            assertTrue(plan.out().contains(p.resolve("common/current") + "  [symlink]  symbolic link on the way to"),
                    plan.out());
            ProcessResult r = u.ralon(p, "run", "--backend", backend, "--", "sh", "-c",
                    "echo ok > lib/new.txt; echo \"create $?\"; echo ok > real/new.txt; echo \"create2 $?\"");
            if (backend.equals("mount") || plan.out().contains("landlock-broker")) {
                // landlock with its broker: the directories on the way inside the project are not create-restricted
                assertTrue(r.out().contains("create 0") && r.out().contains("create2 0"), r.toString());
                assertTrue(!plan.out().contains("  " + p.resolve("lib") + "\n"), plan.out());
            } else {
                assertTrue(plan.out().contains("directories where nothing can be created") && plan.out().contains(
                        "  " + p.resolve("lib") + "\n"), "landlock lists the link's directory as create-restricted: "
                        + plan.out());
                assertTrue(r.out().contains("create ") && !r.out().contains("create 0"), r.toString());
            }
        }
    }

    /**
     * A later session: the agent of one run plants links that lead to one directory by 2^21 paths (in each of 22 directories
     * two links to the next); the next run's walk is bounded, so it refuses in one line within seconds,
     * exit 2, nothing started, instead of walking for ever. Read from outside: the marker the refused command would
     * write is absent, the protected file unchanged.
     */
    @ParameterizedTest(name = "{0}, uid {1}")
    @MethodSource("backendsAndUsers")
    void linksPlantedByOneSessionMakeTheNextRefuseNotHang(String backend, int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid)) {
            Path p = project(u, "proj");
            u.handOver();
            u.assumeBackend(p, backend);
            String plant = "i=1; while [ $i -le 22 ]; do mkdir -p decoy/lattice/d$i; i=$((i + 1)); done; i=1;"
                    + " while [ $i -lt 22 ]; do ln -s ../d$((i + 1)) decoy/lattice/d$i/x;"
                    + " ln -s ../d$((i + 1)) decoy/lattice/d$i/y;"
                    + " i=$((i + 1)); done; echo planted";
            ProcessResult first = u.ralon(p, "run", "--backend", backend, "--", "sh", "-c", plant);
            assertEquals(0, first.code(), first.toString());
            assertTrue(first.out().contains("planted") && Files.isSymbolicLink(p.resolve("decoy/lattice/d21/y")),
                    "planted (decoy/ is writable under both backends): " + first);
            Files.writeString(p.resolve("agent.lock"), POLICY + "  - \"**/*.pem\"\n"); // reaches through every link
            String expected = state(p);
            long start = System.nanoTime();
            ProcessResult next = u.ralon(p, "run", "--backend", backend, "--", "sh", "-c",
                    "echo started > started.txt; echo pwned > real/x.key");
            long seconds = (System.nanoTime() - start) / 1_000_000_000L;
            assertEquals(2, next.code(), next.toString());
            assertTrue(next.err().contains("backend " + backend + " cannot enforce this policy: symbolic links inside the"
                    + " project lead to the same directories by too many paths"), next.toString());
            assertTrue(seconds < 60, "refused after " + seconds + " s");
            assertTrue(!Files.exists(p.resolve("started.txt")), "nothing was started: " + next);
            assertEquals(expected, state(p), next.toString());
        }
    }

    static Stream<Arguments> backendsAndUsers() {
        return Stream.of(Arguments.of("mount", 0), Arguments.of("landlock", 0), Arguments.of("mount", 65534),
                Arguments.of("landlock", 65534));
    }

    static Stream<String> backends() {
        return Stream.of("mount", "landlock");
    }
}
