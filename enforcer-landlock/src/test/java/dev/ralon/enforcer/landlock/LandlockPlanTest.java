package dev.ralon.enforcer.landlock;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.host.discovery.Enforcers;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plan: which rules, which create-restricted directories, which warnings and refusals; checked against a real
 * directory tree (plan only opens and lists, it changes nothing, so it runs in the test JVM). prepare restricts the
 * calling thread, so it only ever runs in a child JVM here.
 */
class LandlockPlanTest {
    private Path base;

    @AfterEach
    void cleanUp() {
        Sandboxes.deleteTree(base);
    }

    @Test
    void declaresExactlyWhatItEnforcesAndIsDiscovered() {
        LandlockEnforcer e = new LandlockEnforcer();
        assertEquals("landlock", e.name());
        assertEquals(200, e.rank());
        assertEquals(EnumSet.of(Guarantee.MODIFY_CONTENT, Guarantee.DELETE, Guarantee.RENAME_AWAY,
            Guarantee.RENAME_OVER, Guarantee.CREATE_INSIDE, Guarantee.ANCESTOR_RENAME, Guarantee.CREATE_MISSING,
            Guarantee.WRITES_OUTSIDE, Guarantee.LEFTOVERS), EnumSet.copyOf(e.guarantees()));
        assertFalse(e.guarantees().contains(Guarantee.METADATA), "Landlock cannot restrict metadata");
        assertTrue(e.description().contains("chmod"), "the description must say metadata is not covered");
        Enforcers found = Enforcers.discover(LandlockPlanTest.class.getClassLoader());
        assertTrue(found.byName("landlock").isPresent(), "not registered in META-INF/services: " + found.problems());
    }

    @Test
    void probeReportsTheAbi() {
        Sandboxes.requireLandlock();
        var probe = new LandlockEnforcer().probe();
        assertTrue(probe.available());
        assertTrue(probe.detail().matches("Landlock ABI \\d+ \\(\\d+ filesystem rights handled\\)"), probe.detail());
        assertTrue(LandlockEnforcer.abi() >= 3);
    }

    @Test
    void probeSaysWhyAndWhatWouldFixIt() {
        assertTrue(LandlockEnforcer.probeFor(3).available());
        assertEquals("Landlock ABI 7 (16 filesystem rights handled)", LandlockEnforcer.probeFor(7).detail());
        var old = LandlockEnforcer.probeFor(2);
        assertFalse(old.available());
        assertTrue(old.detail().contains("truncation") && old.detail().contains("ABI 3"), old.detail());
        var disabled = LandlockEnforcer.probeFor(-95); // EOPNOTSUPP: built in, not enabled at boot
        assertFalse(disabled.available());
        assertEquals("Landlock is not enabled: add landlock to the lsm= boot parameter (landlock_create_ruleset:"
            + " Operation not supported (errno 95))", disabled.detail());
        assertTrue(disabled.fix().contains("lsm="), disabled.fix());
        var missing = LandlockEnforcer.probeFor(-38); // ENOSYS: not in this kernel
        assertTrue(missing.detail().startsWith("Landlock is not enabled: add landlock to the lsm= boot parameter"));
        assertTrue(missing.fix().contains("CONFIG_SECURITY_LANDLOCK"), missing.fix());
        var seccomp = LandlockEnforcer.probeFor(-1); // EPERM: e.g. a container's seccomp filter
        assertTrue(seccomp.detail().contains("Operation not permitted"), seccomp.detail());
        assertTrue(seccomp.fix().contains("seccomp"), seccomp.fix());
    }

    @Test
    void refusesBelowAbi3AndWithoutLandlock() throws IOException {
        base = Sandboxes.newBase("ralon-ll-plan-");
        Path proj = Files.createDirectories(base.resolve("proj"));
        Files.writeString(proj.resolve("agent.lock"), "version: 1\n");
        ProtectedSet set = set(proj, Map.of("agent.lock", ProtectedPath.Kind.FILE));
        LandlockEnforcer e = new LandlockEnforcer();

        Plan abi2 = e.plan(set, 2);
        assertFalse(abi2.enforceable());
        assertEquals(1, abi2.refusals().size());
        assertTrue(abi2.refusals().get(0).reason().contains("cannot deny truncation"), abi2.refusals().get(0).reason());
        assertEquals(Set.of(Guarantee.MODIFY_CONTENT), abi2.missing());
        assertTrue(abi2.steps().get(1).detail().startsWith("handle 14 filesystem rights (Landlock ABI 2)"),
            abi2.steps().get(1).detail());

        Plan none = e.plan(set, -95);
        assertFalse(none.enforceable());
        assertTrue(none.refusals().get(0).reason().startsWith("Landlock is not enabled"), none.refusals().get(0).reason());
        assertEquals(e.guarantees(), none.missing());
    }

    @Test
    void handlesEveryFilesystemRightOfEachAbi() {
        assertEquals(13, Long.bitCount(Access.handledFor(1)));
        assertEquals(14, Long.bitCount(Access.handledFor(2)));
        assertEquals(15, Long.bitCount(Access.handledFor(3)));
        assertEquals(15, Long.bitCount(Access.handledFor(4)));
        assertEquals(16, Long.bitCount(Access.handledFor(5)));
        assertEquals(16, Long.bitCount(Access.handledFor(7)));
        assertEquals((1L << 16) - 1, Access.handledFor(7));
        assertEquals("execute, read-file, read-dir", Access.words(Access.READ_ONLY));
        assertEquals("execute, write-file, read-file, truncate, ioctl-dev", Access.words(Access.FILE_RIGHTS));
    }

    @Test
    void structLayoutsMatchTheKernelHeaders() {
        assertEquals(12, LinuxCalls.pathBeneathAttr(Access.READ_ONLY, 3).size(), "landlock_path_beneath_attr is packed");
        assertEquals(8, LinuxCalls.rulesetAttr(1, 3).size());
        assertEquals(16, LinuxCalls.rulesetAttr(1, 5).size());
        assertEquals(24, LinuxCalls.rulesetAttr(1, 7).size());
        assertEquals(0L, LinuxCalls.rulesetAttr(1, 7).getLong(8), "handled_access_net must stay 0");
        assertEquals(0L, LinuxCalls.rulesetAttr(1, 7).getLong(16), "scoped must stay 0");
    }

    @Test
    void grantsSiblingsOnlyAndNeverAnotherNameOfAProtectedFile() throws IOException {
        Sandboxes.requireLandlock();
        base = Sandboxes.newBase("ralon-ll-plan-");
        Path proj = Files.createDirectories(base.resolve("proj"));
        Files.writeString(proj.resolve("agent.lock"), "version: 1\n");
        Files.writeString(proj.resolve("pom.xml"), "<project/>\n");
        Files.writeString(proj.resolve("README"), "readme\n");
        Files.createDirectories(proj.resolve("src/main"));
        Files.createDirectories(proj.resolve("deep/a"));
        Files.writeString(proj.resolve("deep/a/conf"), "conf\n");
        Files.writeString(proj.resolve("deep/other"), "other\n");
        Files.createSymbolicLink(proj.resolve("link"), Path.of("pom.xml"));
        Files.createLink(proj.resolve("pom-alias"), proj.resolve("pom.xml"));
        Files.createDirectories(proj.resolve("secrets"));

        ProtectedSet set = set(proj, Map.of(
            "agent.lock", ProtectedPath.Kind.FILE, "pom.xml", ProtectedPath.Kind.FILE,
            "deep/a/conf", ProtectedPath.Kind.FILE, "gone/secret", ProtectedPath.Kind.MISSING,
            "secrets", ProtectedPath.Kind.DIRECTORY));
        Plan plan = new LandlockEnforcer().plan(set);

        assertTrue(plan.enforceable(), "refusals: " + plan.refusals());
        List<Path> way = new java.util.ArrayList<>(List.of(Path.of("/"), Path.of("/tmp"), base, proj,
            proj.resolve("deep"), proj.resolve("deep/a")));
        if (dev.ralon.linux.LauncherNamespace.invokerIsRoot() && LandlockContainment.unavailableReason() != null) {
            // a root invoker's plan protects /proc/sys and the other kernel interfaces: by rules when the session
            // cannot be contained, else by binds on the session's own /proc
            way.add(1, Path.of("/proc"));
        }
        if (BrokerProcess.unavailableReason() == null) {
            // the broker makes the unprotected entries of those inside the project and the temporary directories
            // (not of the home directory): they are not create-restricted then
            String h = System.getenv("HOME");
            Path home = h == null ? null : Path.of(h);
            way.removeIf(d -> d.startsWith(proj) || (d.startsWith("/tmp") && (home == null || !d.startsWith(home))));
            assertTrue(plan.steps().stream().anyMatch(s -> s.action().equals("landlock-broker")), plan.steps()
                .toString());
        }
        assertEquals(way, plan.createRestricted(),
            "exactly the directories on the way (gone/ does not exist: its parent is on the way), less the brokered");
        List<Plan.Step> rules = plan.steps().stream().filter(s -> s.action().equals("landlock-rule")).toList();
        Set<Path> granted = rules.stream().map(Plan.Step::path).collect(Collectors.toSet());
        assertEquals(1, rules.stream().filter(s -> s.path().equals(Path.of("/"))).count());
        assertTrue(rules.get(0).detail().startsWith("read-only: execute, read-file, read-dir"), rules.get(0).detail());
        for (String sibling : List.of("README", "src", "deep/other")) {
            assertTrue(granted.contains(proj.resolve(sibling)), sibling + " must get a rule: " + granted);
        }
        for (String never : List.of("agent.lock", "pom.xml", "deep", "deep/a", "deep/a/conf", "secrets", "link",
            "pom-alias", "src/main", "gone")) {
            assertFalse(granted.contains(proj.resolve(never)), never + " must get no rule");
        }
        assertFalse(granted.contains(base) || granted.contains(Path.of("/tmp")), "directories on the way get no rule");
        String readme = detailOf(rules, proj.resolve("README"));
        assertEquals("full access: execute, write-file, read-file, truncate, ioctl-dev", readme);
        assertTrue(detailOf(rules, proj.resolve("src")).contains("make-dir"));
        assertEquals(List.of("no-new-privs", "landlock-ruleset"),
            plan.steps().subList(0, 2).stream().map(Plan.Step::action).toList());
        // contained, the nested user namespace (the last link) follows the restriction
        int last = plan.steps().size() - (LandlockContainment.unavailableReason() == null ? 2 : 1);
        assertEquals("landlock-restrict-self", plan.steps().get(last).action());

        // warnings: what the user must know at every start; notes: what explains the plan (Plan#notes)
        String warnings = String.join("\n", plan.warnings());
        String notes = String.join("\n", plan.notes());
        assertTrue(warnings.contains(proj.resolve("pom-alias") + " is another name for " + proj.resolve("pom.xml")), warnings);
        assertTrue(warnings.contains(proj.resolve("pom.xml") + " has 2 hard links"), warnings);
        assertTrue(notes.contains(proj.resolve("gone/secret") + " does not exist"), notes);
        assertTrue(notes.contains("nothing can be created, removed or renamed directly in"), notes);
        assertFalse(warnings.contains("nothing can be created"), warnings);
        if (BrokerProcess.unavailableReason() == null) {
            assertTrue(notes.contains("inside the project, the broker makes what is not protected"), notes);
            assertFalse(notes.contains(proj.resolve("target").toString()), "no first-build example: " + notes);
        } else {
            assertTrue(notes.contains(proj.resolve("target").toString()), "the first-build example: " + notes);
        }
    }

    /** Hundreds of create-restricted directories are one short line: the count, the nearest three, how many more. */
    @Test
    void theCreateRestrictedDirectoriesAreSummedUpNotListed() {
        Path root = Path.of("/home/you/p");
        List<Path> way = new ArrayList<>(List.of(Path.of("/"), Path.of("/home"), Path.of("/home/you"), root));
        for (int i = 0; i < 300; i++) {
            way.add(root.resolve("src/m" + i));
        }
        way.add(root.resolve("src"));
        String s = LandlockEnforcer.summary(way, root);
        assertEquals("305 directories (/home/you/p, /home/you/p/src, /home/you/p/src/m0 and 302 more: `ralon run"
            + " --dry-run` lists them)", s);
        assertEquals("2 directories (/home/you/p, /home/you)", LandlockEnforcer.summary(
            List.of(Path.of("/home/you"), root), root));
        assertEquals("1 directory (/home/you/p)", LandlockEnforcer.summary(List.of(root), root));
    }

    @Test
    void refusesWhenAProtectedPathCannotBeOpened() throws IOException {
        Sandboxes.requireLandlock();
        base = Sandboxes.newBase("ralon-ll-plan-");
        Path proj = Files.createDirectories(base.resolve("proj"));
        Files.writeString(proj.resolve("agent.lock"), "version: 1\n");
        // Expanded as a FILE, gone by the time the plan is made.
        Plan plan = new LandlockEnforcer().plan(set(proj, Map.of(
            "agent.lock", ProtectedPath.Kind.FILE, "vanished.txt", ProtectedPath.Kind.FILE)));
        assertFalse(plan.enforceable());
        assertEquals(1, plan.refusals().size(), plan.refusals().toString());
        String refusal = plan.refusals().get(0).reason();
        assertTrue(refusal.contains(proj.resolve("vanished.txt").toString()) && refusal.contains("openat"), refusal);
        assertFalse(refusal.contains("\n"));
        assertEquals(new LandlockEnforcer().guarantees(), plan.missing());
    }

    @Test
    void prepareRefusesAPlanItDidNotMake() {
        Plan foreign = Plan.builder("landlock").build();
        Command cmd = Command.of(Path.of("/bin/true"), List.of("true"), Map.of(), Path.of("/"));
        EnforcementException e = assertThrows(EnforcementException.class, () -> new LandlockEnforcer().prepare(foreign, cmd));
        assertNotNull(e.getMessage());
    }

    @Test
    void prepareFailsClosedWhenTheFileSystemChangedAfterThePlan() throws IOException {
        Sandboxes.requireLandlock();
        base = Sandboxes.newBase("ralon-ll-plan-");
        String cp = Sandboxes.copyClasspath(base);
        Path home = Files.createDirectories(base.resolve("home"));
        Files.createDirectories(home.resolve("tmp"));
        Path proj = Files.createDirectories(base.resolve("proj"));
        Files.writeString(proj.resolve("agent.lock"), "version: 1\n");
        Files.createDirectories(proj.resolve("deep/a"));
        Files.writeString(proj.resolve("deep/a/conf"), "conf\n");
        Path marker = home.resolve("command-ran");

        List<String> cmd = new ArrayList<>(Sandboxes.javaCommand(home, cp, SandboxMain.class.getName()));
        cmd.addAll(List.of(proj.toString(), proj.resolve("agent.lock").toString(), proj.resolve("deep/a/conf").toString(),
            "--", "/bin/sh", "-c", "touch " + marker));
        dev.ralon.testsupport.ProcessResult out = Sandboxes.run(cmd, Map.of("RALON_TEST_REMOVE_BEFORE_PREPARE", proj.resolve("deep").toString(),
            "HOME", home.toString()), 60);

        assertEquals(2, out.code(), out.out());
        assertFalse(Files.exists(marker), "the command must not run when prepare fails");
        List<String> lines = out.out().strip().lines().filter(l -> !l.startsWith("WARNING: ")).toList();
        assertEquals(1, lines.size(), "one line: " + out.out());
        String line = lines.get(0);
        assertEquals("ralon: landlock: openat failed for " + proj.resolve("deep")
            + ": No such file or directory (errno 2)", line);
    }

    /**
     * Contained, the command gets a PID namespace whose PID 1 binds the paths beneath /proc read-only on the session's
     * own /proc, so they are no Landlock rules and /proc is not create-restricted (its uid_map is written by the
     * chain); where the session cannot be contained, leftovers are refused with the reason, and the rules stay.
     */
    @Test
    void containmentIsPlannedOrRefusedWithItsReason() throws IOException {
        base = Sandboxes.newBase("ralon-ll-plan-");
        Path proj = Files.createDirectories(base.resolve("proj"));
        Files.writeString(proj.resolve("secret.txt"), "s\n");
        List<ProtectedPath> paths = List.of(ProtectedPath.of(proj.resolve("secret.txt"), ProtectedPath.Kind.FILE,
            List.of("secret.txt")), ProtectedPath.of(Path.of("/proc/sys"), ProtectedPath.Kind.DIRECTORY,
            List.of("kernel settings")));
        ProtectedSet set = ProtectedSet.of(proj, proj.resolve("agent.lock"), paths, List.of());
        LandlockEnforcer e = new LandlockEnforcer();

        Plan contained = e.plan(set, 7, null);
        assertTrue(contained.enforceable(), contained.refusals().toString());
        String pid = contained.steps().stream().filter(s -> s.action().equals("pid-namespace")).findFirst()
            .orElseThrow().detail();
        assertTrue(pid.contains("[/proc/sys]") && pid.contains("read-only"), pid);
        assertFalse(contained.createRestricted().contains(Path.of("/proc")), contained.createRestricted().toString());
        assertEquals(List.of(Path.of("/proc/sys")), contained.payload(LandlockEnforcer.Payload.class).procReadOnly());
        assertTrue(contained.payload(LandlockEnforcer.Payload.class).contained());

        Plan not = e.plan(set, 7, "user namespaces are not usable here");
        assertEquals(Set.of(Guarantee.LEFTOVERS), not.missing());
        assertEquals("processes the command starts could outlive it: user namespaces are not usable here",
            not.refusals().get(0).reason());
        assertTrue(not.createRestricted().contains(Path.of("/proc")), not.createRestricted().toString());
        assertFalse(not.payload(LandlockEnforcer.Payload.class).contained());
    }

    /**
     * Contained, an existing file or directory protected outside the project is a read-only bind in the session's
     * mount namespace, after binds of the directories on the way, and no rule: its directories (an agent's state
     * directory) stay free. Inside the project, missing outside it, or not contained: rules, as before.
     */
    @Test
    void containedProtectsExistingPathsOutsideTheProjectByBindsNotRules() throws IOException {
        base = Sandboxes.newBase("ralon-ll-binds-");
        Path proj = Files.createDirectories(base.resolve("proj"));
        Files.writeString(proj.resolve("secret.txt"), "s\n");
        Path state = Files.createDirectories(base.resolve("home/.agent"));
        Files.writeString(state.resolve("settings.json"), "{}\n");
        Path hooks = Files.createDirectories(state.resolve("hooks"));
        Path absent = state.resolve("rules.toml");
        List<ProtectedPath> paths = new ArrayList<>(List.of(
            ProtectedPath.of(proj.resolve("secret.txt"), ProtectedPath.Kind.FILE, List.of("secret.txt")),
            ProtectedPath.of(state.resolve("settings.json"), ProtectedPath.Kind.FILE, List.of("baseline")),
            ProtectedPath.of(hooks, ProtectedPath.Kind.DIRECTORY, List.of("baseline"))));
        ProtectedSet set = ProtectedSet.of(proj, proj.resolve("agent.lock"), paths, List.of());
        LandlockEnforcer e = new LandlockEnforcer();

        Plan contained = e.plan(set, 7, null);
        assertTrue(contained.enforceable(), contained.refusals().toString());
        LandlockEnforcer.Payload pl = contained.payload(LandlockEnforcer.Payload.class);
        List<String> readOnly = pl.binds().stream().filter(b -> b.readOnly()).map(b -> b.path()).toList();
        assertEquals(List.of(hooks.toString(), state.resolve("settings.json").toString()), readOnly);
        List<String> ways = pl.binds().stream().filter(b -> !b.readOnly()).map(b -> b.path()).toList();
        assertTrue(ways.contains(state.toString()) && ways.contains(base.toString()), ways.toString());
        assertTrue(ways.indexOf(base.toString()) < ways.indexOf(state.toString()), "parents first: " + ways);
        assertFalse(contained.createRestricted().contains(state), contained.createRestricted().toString());
        assertTrue(contained.createRestricted().contains(proj), "in the project: a rule, as before");
        assertEquals(List.of(proj.resolve("secret.txt")), pl.protectedPaths().stream().map(ProtectedPath::path).toList());
        assertTrue(contained.steps().stream().anyMatch(st -> st.action().equals("bind-readonly")
            && hooks.equals(st.path())), contained.steps().toString());

        paths.add(ProtectedPath.of(absent, ProtectedPath.Kind.MISSING, List.of("baseline")));
        Plan withAbsent = e.plan(ProtectedSet.of(proj, proj.resolve("agent.lock"), paths, List.of()), 7, null);
        assertTrue(withAbsent.createRestricted().contains(state), "a missing path stays a rule: its creation is"
            + " refused by making its directory create-restricted");

        Plan not = e.plan(set, 7, "user namespaces are not usable here");
        assertTrue(not.payload(LandlockEnforcer.Payload.class).binds().isEmpty());
        assertTrue(not.createRestricted().contains(state), not.createRestricted().toString());
    }

    private static String detailOf(List<Plan.Step> rules, Path p) {
        return rules.stream().filter(s -> p.equals(s.path())).findFirst().orElseThrow().detail();
    }

    private static ProtectedSet set(Path root, Map<String, ProtectedPath.Kind> kinds) {
        List<ProtectedPath> paths = new ArrayList<>();
        kinds.forEach((rel, kind) -> paths.add(ProtectedPath.of(root.resolve(rel), kind, List.of(rel))));
        paths.sort(Comparator.comparing(ProtectedPath::path));
        return ProtectedSet.of(root, root.resolve("agent.lock"), paths, List.of());
    }
}
