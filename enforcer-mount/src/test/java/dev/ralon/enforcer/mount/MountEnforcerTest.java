package dev.ralon.enforcer.mount;

import dev.ralon.linux.LinuxAbi;
import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.host.discovery.Enforcers;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MountEnforcerTest {
    @TempDir
    Path tmp;

    private static ProtectedPath pp(Path p, ProtectedPath.Kind k) {
        return ProtectedPath.of(p, k, List.of("test"));
    }

    @Test
    void isDiscoveredAsTheRankedMountBackend() {
        Enforcers found = Enforcers.discover(getClass().getClassLoader());
        Enforcer e = found.byName("mount").orElseThrow(() -> new AssertionError("not discovered: " + found.problems()));
        assertEquals(300, e.rank());
        assertEquals(EnumSet.of(Guarantee.MODIFY_CONTENT, Guarantee.DELETE, Guarantee.RENAME_AWAY,
                Guarantee.RENAME_OVER, Guarantee.CREATE_INSIDE, Guarantee.ANCESTOR_RENAME, Guarantee.METADATA,
                Guarantee.LEFTOVERS, Guarantee.WRITES_OUTSIDE), e.guarantees());
        assertFalse(e.guarantees().contains(Guarantee.CREATE_MISSING), "creation of missing paths is not enforced");
    }

    @Test
    void probeIsAvailableHereAndQuick() {
        SandboxKit.requireAvailable();
        long t0 = System.nanoTime();
        Probe p = new MountEnforcer().probe();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(p.available(), p.detail());
        assertTrue(ms < 2000, "probe took " + ms + " ms");
        System.out.println("mount probe: " + ms + " ms (" + p.detail() + ")");
    }

    @Test
    void diagnosesOldUnshare() {
        Probe p = MountProbe.diagnose("unshare: unrecognized option '--map-user=0'\nTry 'unshare --help'",
                Path.of("/usr/bin/unshare"));
        assertFalse(p.available());
        assertTrue(p.detail().contains("--map-user"), p.detail());
        assertTrue(p.fix().contains("util-linux 2.36"), p.fix());
    }

    /** Ubuntu 23.10+: the route is Ralon's AppArmor profile (the sysctl read as that machine has it). */
    @Test
    void diagnosesUbuntusRestrictionAndNamesTheProfile() {
        Probe p = MountProbe.diagnose("unshare: cannot change root filesystem propagation: Permission denied",
                Path.of("/usr/bin/unshare"),
                f -> f.endsWith("/apparmor_restrict_unprivileged_userns") ? "1" : null);
        assertFalse(p.available());
        assertTrue(p.detail().contains("kernel.apparmor_restrict_unprivileged_userns=1"), p.detail());
        assertTrue(p.fix().contains("ralon apparmor-profile > /etc/apparmor.d/ralon"), p.fix());
        assertTrue(p.fix().contains("apparmor_parser -r /etc/apparmor.d/ralon"), p.fix());
    }

    @Test
    void kernelVersionParsing() {
        assertTrue(MountProbe.kernelAtLeast("6.18.0-1-amd64", 5, 12));
        assertTrue(MountProbe.kernelAtLeast("5.12.0", 5, 12));
        assertFalse(MountProbe.kernelAtLeast("5.11.22", 5, 12));
        assertFalse(MountProbe.kernelAtLeast("garbage", 5, 12));
    }

    @Test
    void planBindsAncestorsTopDownThenEachProtectedPathOnce() throws Exception {
        Path root = tmp.toRealPath();
        Files.createDirectories(root.resolve("a/b"));
        Files.createDirectories(root.resolve("secrets/deep"));
        for (int i = 0; i < 50; i++) {
            Files.writeString(root.resolve("secrets/deep/f" + i), "x");
        }
        Files.writeString(root.resolve("a/b/pom.xml"), "x");
        Files.writeString(root.resolve("agent.lock"), "version: 1\n");
        List<ProtectedPath> paths = List.of(pp(root.resolve("a/b/pom.xml"), ProtectedPath.Kind.FILE),
                pp(root.resolve("agent.lock"), ProtectedPath.Kind.FILE),
                pp(root.resolve("secrets"), ProtectedPath.Kind.DIRECTORY));
        Plan plan = new MountEnforcer().plan(ProtectedSet.of(root, root.resolve("agent.lock"), paths, List.of()));
        assertTrue(plan.enforceable(), plan.refusals().toString());
        assertTrue(plan.createRestricted().isEmpty());
        List<Path> way = new ArrayList<>();
        List<Path> ro = new ArrayList<>();
        for (Plan.Step s : plan.steps()) {
            if (s.action().equals("bind-on-the-way")) {
                assertTrue(ro.isEmpty(), "every directory on the way is bound before any read-only bind");
                way.add(s.path());
            } else if (s.action().equals("bind-readonly")) {
                ro.add(s.path());
            }
        }
        int bound = way.size() + ro.size(); // every bind the payload carries, the root invoker's included
        // a root invoker's plan also binds the kernel's control files (KernelInterfaces), with /proc on the way
        ro.removeAll(dev.ralon.enforcer.spi.KernelInterfaces.PATHS);
        way.remove(Path.of("/proc"));
        assertEquals(List.of(root.resolve("agent.lock"), root.resolve("secrets"), root.resolve("a/b/pom.xml")), ro,
                "one bind per protected path (a directory is one bind), shallow first");
        List<Path> expectedWay = new ArrayList<>();
        for (Path a = root; a.getParent() != null; a = a.getParent()) {
            expectedWay.add(0, a);
        }
        expectedWay.add(root.resolve("a"));
        expectedWay.add(root.resolve("a/b"));
        assertEquals(expectedWay, way, "every directory from / (exclusive) down, parents first");
        assertEquals("unshare", plan.steps().get(0).action());
        assertEquals("unshare", plan.steps().get(plan.steps().size() - 1).action());
        var entries = plan.payload(MountEnforcer.Payload.class).entries();
        assertEquals(bound, entries.size());
    }

    @Test
    void missingPathIsLeftToTheHostNotFaked() throws Exception {
        // The mount backend does not declare create-missing: what that means for a missing literal path is decided
        // and said by the host (host-side admission), for every backend alike. The plan neither refuses it nor fakes
        // a bind for it; its dry-run step says it is not prevented.
        Path root = tmp.toRealPath();
        Files.writeString(root.resolve("agent.lock"), "version: 1\n");
        Plan plan = new MountEnforcer().plan(ProtectedSet.of(root, root.resolve("agent.lock"),
                List.of(pp(root.resolve(".env"), ProtectedPath.Kind.MISSING),
                        pp(root.resolve("agent.lock"), ProtectedPath.Kind.FILE)), List.of()));
        assertTrue(plan.enforceable(), plan.refusals().toString());
        assertTrue(plan.steps().stream().anyMatch(s -> s.action().equals("not-protected")
                && s.path().equals(root.resolve(".env"))), "the dry-run steps say creation is not prevented");
        assertFalse(plan.payload(MountEnforcer.Payload.class).entries().stream()
                .anyMatch(e -> e.path().equals(root.resolve(".env").toString())), "no bind for a missing path");
        assertFalse(Files.exists(root.resolve(".env")), "planning created nothing");
    }

    @Test
    void warnsAboutHardLinks() throws Exception {
        Path root = tmp.toRealPath();
        Files.writeString(root.resolve("f"), "x");
        Files.createLink(root.resolve("g"), root.resolve("f"));
        Plan plan = new MountEnforcer().plan(ProtectedSet.of(root, root.resolve("agent.lock"),
                List.of(pp(root.resolve("f"), ProtectedPath.Kind.FILE)), List.of()));
        assertTrue(plan.warnings().stream().anyMatch(w -> w.contains("2 hard links")), plan.warnings().toString());
    }

    @Test
    void planFileRoundTripsAndCarriesNoNul() {
        var plan = new PlanFile.StagePlan(1000, 1000, "/home/u/p q\nr", "/usr/bin/unshare", "/usr/bin/timeout",
                true, List.of(new PlanFile.Entry(PlanFile.Op.WAY, "/home", LinuxAbi.S_IFDIR, 2049, 2),
                        new PlanFile.Entry(PlanFile.Op.READONLY, "/home/u/p q\nr/ä.txt", LinuxAbi.S_IFREG, 2049,
                                1234567890123L),
                        new PlanFile.Entry(PlanFile.Op.AREA, "/tmp", LinuxAbi.S_IFDIR, 2049, 3)));
        assertEquals(plan, PlanFile.decode(PlanFile.encode(plan)));
        assertNotEquals(PlanFile.sha256(new byte[] {1}), PlanFile.sha256(new byte[] {2}));
    }

    @Test
    void jvmOptionVariablesSkipTheStageButReachTheCommand() {
        Map<String, String> user = Map.of("JAVA_TOOL_OPTIONS", "-Dx=1", "PATH", "/bin", "_JAVA_OPTIONS", "-Dy");
        Map<String, String> stage = StageEnvironment.forStage(user, "1024");
        assertFalse(stage.containsKey("JAVA_TOOL_OPTIONS"));
        assertFalse(stage.containsKey("_JAVA_OPTIONS"));
        assertEquals("1024", stage.get("RALON_ORIG_NOFILE"));
        Map<String, String> back = StageEnvironment.forCommand(stage);
        back.remove("RALON_ORIG_NOFILE");
        assertEquals(user, back);
    }

    /** The stage JVM reads names and arguments as UTF-8; the command gets the user's LC_ALL back, set or unset. */
    @Test
    void theStageRunsUnderCUtf8AndTheCommandGetsTheUsersLocaleBack() {
        for (Map<String, String> user : List.of(Map.of("PATH", "/bin"), Map.of("PATH", "/bin", "LC_ALL", "C"),
                Map.of("LC_ALL", "POSIX", "LANG", "C"))) {
            Map<String, String> stage = StageEnvironment.forStage(user, null);
            assertEquals("C.UTF-8", stage.get("LC_ALL"), stage.toString());
            assertEquals(user, StageEnvironment.forCommand(stage));
        }
    }

    /** The plan file: the exact bytes, private to the user, a new name each time, written through its creator. */
    @Test
    void planFileIsPrivateAndNew() throws Exception {
        String saved = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", tmp.toString());
        try {
            byte[] bytes = PlanFile.encode(new PlanFile.StagePlan(0, 0, "/", "/usr/bin/unshare", "", false, List.of()));
            Path a = PlanFile.write(bytes);
            Path b = PlanFile.write(bytes);
            assertNotEquals(a, b);
            assertEquals(tmp, a.getParent());
            assertEquals(List.of(bytes.length, bytes.length), List.of(Files.readAllBytes(a).length,
                    Files.readAllBytes(b).length));
            assertEquals(PlanFile.sha256(bytes), PlanFile.sha256(Files.readAllBytes(a)));
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(a, java.nio.file.LinkOption.NOFOLLOW_LINKS)));
            assertTrue(Files.isRegularFile(a, java.nio.file.LinkOption.NOFOLLOW_LINKS));
        } finally {
            System.setProperty("java.io.tmpdir", saved);
        }
    }

    /** A plan file changed between the host and the stage is detected: nothing runs. */
    @Test
    void tamperedPlanFileIsRefused() throws Exception {
        Path plan = tmp.resolve("p.plan");
        byte[] bytes = PlanFile.encode(new PlanFile.StagePlan(0, 0, "/", "/usr/bin/unshare", "", false, List.of()));
        Files.write(plan, bytes);
        String hash = PlanFile.sha256(bytes);
        Files.writeString(plan, "evil", java.nio.file.StandardOpenOption.APPEND);
        Path marker = tmp.resolve("ran");
        var r = SandboxKit.run(List.of(SandboxKit.java(), "-cp", System.getProperty("java.class.path"),
                MountStage.class.getName(), plan.toString(), hash, "--", "/usr/bin/touch", marker.toString()),
                tmp, Map.of(), 60);
        assertEquals(MountStage.EXIT_SETUP_FAILED, r.code(), r.out());
        assertTrue(r.out().contains("was changed after ralon wrote it"), r.out());
        assertFalse(Files.exists(marker), "the command must not have run");
        assertFalse(Files.exists(plan), "the plan file is deleted once read");
    }

    /**
     * Plans {@code protectedFile} alone and prepares {@code touch marker} under it: the launch, not yet run (the
     * tests below change the file system between the two, then run it).
     */
    private static Launch preparedTouch(Path root, Path protectedFile, Path marker) throws Exception {
        MountEnforcer enforcer = new MountEnforcer();
        Plan plan = enforcer.plan(ProtectedSet.of(root, root.resolve("agent.lock"),
                List.of(pp(protectedFile, ProtectedPath.Kind.FILE)), List.of()));
        assertTrue(plan.enforceable(), plan.refusals().toString());
        return enforcer.prepare(plan, Command.of(Path.of("/usr/bin/touch"), List.of("touch", marker.toString()),
                System.getenv(), root));
    }

    /** A directory on the way replaced by a symlink between plan and mount: the stage refuses, nothing runs. */
    @Test
    void symlinkSwappedInAfterPlanningIsRefused() throws Exception {
        SandboxKit.requireAvailable();
        Path root = tmp.toRealPath();
        Files.createDirectories(root.resolve("dir"));
        Files.writeString(root.resolve("dir/secret"), "x");
        Files.createDirectories(root.resolve("elsewhere"));
        Files.writeString(root.resolve("elsewhere/secret"), "decoy");
        Path marker = root.resolve("ran");
        Launch launch = preparedTouch(root, root.resolve("dir/secret"), marker);
        Files.move(root.resolve("dir"), root.resolve("dir.orig"));
        Files.createSymbolicLink(root.resolve("dir"), root.resolve("elsewhere"));
        List<String> cmd = new ArrayList<>(launch.argv());
        var r = SandboxKit.run(cmd, root, launch.env(), 60);
        assertEquals(MountStage.EXIT_SETUP_FAILED, r.code(), r.out());
        // Either the link itself is opened (O_PATH|O_NOFOLLOW) and its type differs from the plan's, or a later
        // lookup through it is refused by RESOLVE_NO_SYMLINKS: both stop before any mount is made on it.
        assertTrue(r.out().contains(root.resolve("dir").toString()) && r.out().contains("refusing")
                || r.out().contains("symbolic link"), r.out());
        assertFalse(Files.exists(marker), "the command must not have run");
    }

    /** The same file swapped for another between plan and mount (different inode): refused. */
    @Test
    void fileReplacedAfterPlanningIsRefused() throws Exception {
        SandboxKit.requireAvailable();
        Path root = tmp.toRealPath();
        Files.writeString(root.resolve("secret"), "x");
        Path marker = root.resolve("ran");
        Launch launch = preparedTouch(root, root.resolve("secret"), marker);
        Files.writeString(root.resolve("other"), "y"); // created while the original exists: another inode
        Files.move(root.resolve("other"), root.resolve("secret"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        var r = SandboxKit.run(new ArrayList<>(launch.argv()), root, launch.env(), 60);
        assertEquals(MountStage.EXIT_SETUP_FAILED, r.code(), r.out());
        assertTrue(r.out().contains("changed between the plan and the mount"), r.out());
        assertFalse(Files.exists(marker), "the command must not have run");
    }

    /**
     * The project's file system mounted a second time elsewhere (a bind mount, as container volumes do): the file is
     * protected at the second path too. Needs root to make the alias (in a private mount namespace of its own).
     */
    @Test
    void aliasThroughAnotherMountIsProtectedToo() throws Exception {
        SandboxKit.requireAvailable();
        dev.ralon.testsupport.Requirements.requireRoot("making the bind mount that aliases the project");
        Path root = tmp.toRealPath();
        Path project = root.resolve("project");
        Path alias = root.resolve("alias");
        Files.createDirectories(project);
        Files.createDirectories(alias);
        Files.writeString(project.resolve("f"), "original\n");
        Files.writeString(project.resolve("g"), "control\n");
        String kit = SandboxKit.copyKit(root.resolve("kit"));
        String inner = String.join(" ", SandboxKit.java(), "-XX:-MaxFDLimit", "-cp", kit, TestHost.class.getName(),
                project.toString(), project.resolve("f").toString(), "--", "/bin/sh", "-c",
                "'echo pwned >> " + alias + "/f; echo written >> " + alias + "/g'");
        var r = SandboxKit.run(List.of("unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                "mount --bind " + project + " " + alias + " && exec " + inner), root, Map.of(), 60);
        assertEquals("control\nwritten\n", Files.readString(project.resolve("g")),
                "the unprotected file is writable through the alias (the alias is real): " + r.out());
        assertEquals("original\n", Files.readString(project.resolve("f")),
                "write through the alias mount got through: " + r.out());
    }

    /** A protected file deleted between plan and mount: the failing call is named with its errno text. */
    @Test
    void fileDeletedAfterPlanningIsRefusedNamingTheCall() throws Exception {
        SandboxKit.requireAvailable();
        Path root = tmp.toRealPath();
        Files.writeString(root.resolve("secret"), "x");
        Path marker = root.resolve("ran");
        Launch launch = preparedTouch(root, root.resolve("secret"), marker);
        Files.delete(root.resolve("secret"));
        var r = SandboxKit.run(new ArrayList<>(launch.argv()), root, launch.env(), 60);
        assertEquals(MountStage.EXIT_SETUP_FAILED, r.code(), r.out());
        assertTrue(r.out().contains("cannot open " + root.resolve("secret") + ": no such file or directory (errno 2)"
                + " (openat2)"), r.out());
        assertFalse(Files.exists(marker), "the command must not have run");
    }

    /** A fifo (Kind.OTHER) is bound like a file: it cannot be removed or replaced. */
    @Test
    void fifoIsProtected() throws Exception {
        SandboxKit.requireAvailable();
        Path root = tmp.toRealPath();
        var mk = SandboxKit.run(List.of("mkfifo", root.resolve("fifo").toString()), root, Map.of(), 30);
        assertEquals(0, mk.code(), mk.out());
        Object ino = Files.getAttribute(root.resolve("fifo"), "unix:ino", java.nio.file.LinkOption.NOFOLLOW_LINKS);
        MountEnforcer enforcer = new MountEnforcer();
        Plan plan = enforcer.plan(ProtectedSet.of(root, root.resolve("agent.lock"),
                List.of(pp(root.resolve("fifo"), ProtectedPath.Kind.OTHER)), List.of()));
        Launch launch = enforcer.prepare(plan, Command.of(Path.of("/bin/sh"),
                List.of("sh", "-c", "rm -f fifo; echo x > other && mv -f other fifo; exit 0"), System.getenv(), root));
        var r = SandboxKit.run(new ArrayList<>(launch.argv()), root, launch.env(), 60);
        assertEquals(0, r.code(), r.out());
        assertEquals(ino, Files.getAttribute(root.resolve("fifo"), "unix:ino", java.nio.file.LinkOption.NOFOLLOW_LINKS),
                "the fifo was removed or replaced: " + r.out());
    }
}
