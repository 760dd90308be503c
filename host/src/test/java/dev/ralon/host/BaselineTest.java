package dev.ralon.host;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Baseline}: which paths, found where real git puts them (a worktree made by {@code git worktree add}, a
 * submodule made by {@code git submodule add}), and the per-backend rule.
 */
class BaselineTest {
    @TempDir
    Path tmp;

    static void git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.name=t", "-c", "user.email=t@example.invalid",
                "-c", "protocol.file.allow=always", "-c", "init.defaultBranch=main"));
        cmd.addAll(List.of(args));
        ProcessResult r = TestProcess.of(cmd).in(dir).env("GIT_CONFIG_NOSYSTEM", "1").env("HOME", dir.toString())
                .mergeStderr().run();
        assertEquals(0, r.code(), "git " + String.join(" ", args) + ": " + r.out());
    }

    static Set<String> displays(List<Baseline.Item> items) {
        Set<String> s = new TreeSet<>();
        for (Baseline.Item i : items) {
            s.add(i.display());
        }
        return s;
    }

    static Path repo(Path dir) throws Exception {
        Files.createDirectories(dir);
        git(dir, "init", "-q");
        Files.writeString(dir.resolve("a.txt"), "a\n");
        git(dir, "add", "a.txt");
        git(dir, "commit", "-q", "-m", "a");
        return dir;
    }

    @Test
    void aPlainRepositoryFromASubdirectoryAndNoHome() throws Exception {
        Path r = repo(tmp.toRealPath().resolve("r"));
        Path sub = Files.createDirectories(r.resolve("sub"));
        List<Baseline.Item> items = Baseline.items(sub, Map.of(), Baseline.Start.NONE);
        assertEquals(Set.of(r.resolve(".git/config").toString(), r.resolve(".git/hooks").toString(),
                r.resolve(".git/info").toString()), displays(items));
        assertEquals(List.of(), Baseline.items(Files.createDirectories(tmp.resolve("none")).toRealPath(), Map.of(),
                        Baseline.Start.NONE)
                .stream().filter(i -> i.display().contains(".git")).toList(), "no repository, no git entries");
    }

    /** A linked worktree: its .git file and the worktree's commondir decide where config and hooks are read. */
    @Test
    void aLinkedWorktree() throws Exception {
        Path r = repo(tmp.toRealPath().resolve("main"));
        git(r, "worktree", "add", "-q", "../wt", "-b", "wt");
        Path wt = tmp.toRealPath().resolve("wt");
        Set<String> d = displays(Baseline.items(wt, Map.of(), Baseline.Start.NONE));
        assertEquals(Set.of(".git", r.resolve(".git/worktrees/wt/commondir").toString(),
                r.resolve(".git/config").toString(), r.resolve(".git/hooks").toString(),
                r.resolve(".git/info").toString()), d);
        git(r, "config", "extensions.worktreeConfig", "true");
        d = displays(Baseline.items(wt, Map.of(), Baseline.Start.NONE));
        assertTrue(d.contains(r.resolve(".git/worktrees/wt/config.worktree").toString()), d.toString());
        assertTrue(d.contains(r.resolve(".git/config.worktree").toString()), d.toString());
    }

    /** A submodule's git directory under .git/modules has its own config and hooks, which git status runs in. */
    @Test
    void submodules() throws Exception {
        Path lib = repo(tmp.toRealPath().resolve("lib"));
        Path r = repo(tmp.toRealPath().resolve("super"));
        git(r, "submodule", "add", "-q", lib.toString(), "deps/lib");
        Set<String> d = displays(Baseline.items(r, Map.of(), Baseline.Start.NONE));
        assertTrue(d.containsAll(Set.of(".git/config", ".git/hooks", ".git/modules/deps/lib/config",
                ".git/modules/deps/lib/hooks")), d.toString());
        Set<String> inside = displays(Baseline.items(r.resolve("deps/lib"), Map.of(), Baseline.Start.NONE));
        assertTrue(inside.containsAll(Set.of(".git", r.resolve(".git/modules/deps/lib/config").toString(),
                r.resolve(".git/modules/deps/lib/hooks").toString())), inside.toString());
    }

    /** HOME entries follow ZDOTDIR and XDG_CONFIG_HOME; a file managed by links is protected with its links. */
    @Test
    void homeEntriesFollowTheEnvironmentAndLinks() throws Exception {
        Path home = Files.createDirectories(tmp.toRealPath().resolve("home"));
        Files.createDirectories(home.resolve("dotfiles"));
        Files.writeString(home.resolve("dotfiles/bashrc"), "# real\n");
        Files.createSymbolicLink(home.resolve(".bashrc"), Path.of("dotfiles/bashrc"));
        Path zdot = Files.createDirectories(home.resolve("zsh"));
        Path xdg = Files.createDirectories(home.resolve("xdg"));
        List<Baseline.Item> items = Baseline.items(Files.createDirectories(home.resolve("p")),
                Map.of("HOME", home.toString(), "ZDOTDIR", zdot.toString(), "XDG_CONFIG_HOME", xdg.toString()),
                Baseline.Start.NONE);
        Set<String> d = displays(items);
        assertTrue(d.containsAll(Set.of("~/.bashrc", "~/zsh/.zshrc", "~/xdg/git", "~/xdg/fish/config.fish",
                "~/.local/bin", "~/.ssh/config")), d.toString());
        assertFalse(d.contains("~/.zshrc"), d.toString());
        Baseline.Item bashrc = items.stream().filter(i -> i.display().equals("~/.bashrc")).findFirst().orElseThrow();
        assertEquals(List.of(home.resolve(".bashrc"), home.resolve("dotfiles/bashrc")),
                bashrc.paths().stream().map(ProtectedPath::path).toList());
        assertEquals(ProtectedPath.Kind.SYMLINK, bashrc.paths().get(0).kind());
        assertEquals(ProtectedPath.Kind.FILE, bashrc.paths().get(1).kind());
        assertFalse(bashrc.absent());
    }

    /** An enforcer whose plan restricts every ancestor of every protected path (as Landlock does). */
    static final class Restricting implements Enforcer {
        final Set<Guarantee> guarantees;

        Restricting(Set<Guarantee> guarantees) {
            this.guarantees = guarantees;
        }

        @Override
        public String name() {
            return "restricting";
        }

        @Override
        public String description() {
            return "test";
        }

        @Override
        public int rank() {
            return 1;
        }

        @Override
        public Probe probe() {
            return Probe.available("test");
        }

        @Override
        public Set<Guarantee> guarantees() {
            return guarantees;
        }

        @Override
        public Plan plan(ProtectedSet set) {
            Set<Path> restricted = new TreeSet<>();
            for (ProtectedPath p : set.paths()) {
                for (Path a = p.path().getParent(); a != null; a = a.getParent()) {
                    restricted.add(a);
                }
            }
            return Plan.builder(name()).createRestricted(List.copyOf(restricted)).build();
        }

        @Override
        public Launch prepare(Plan plan, Command command) {
            return Launch.of(command);
        }
    }

    @Test
    void perBackendRule() throws Exception {
        Path home = Files.createDirectories(tmp.toRealPath().resolve("home"));
        Path proj = repo(home.resolve("proj"));
        Files.writeString(home.resolve(".bashrc"), "x\n");
        Files.writeString(proj.resolve("agent.lock"), "version: 1\n");
        ProtectedSet set = ProtectedSet.of(proj, proj.resolve("agent.lock"), List.of(ProtectedPath.of(
                proj.resolve("agent.lock"), ProtectedPath.Kind.FILE, List.of("self"))), List.of());
        List<Baseline.Item> items = Baseline.items(proj, Map.of("HOME", home.toString()), Baseline.Start.NONE);

        // restricting, with create-missing: .git entries and ~/.config ones dropped; HOME files kept, absent included
        Restricting landlockLike = new Restricting(EnumSet.of(Guarantee.MODIFY_CONTENT, Guarantee.CREATE_MISSING));
        Baseline.Applied a = Baseline.apply(landlockLike, set, landlockLike.plan(set), items);
        Set<String> kept = displays(a.kept());
        assertTrue(kept.containsAll(Set.of("~/.bashrc", "~/.zshrc", "~/.gitconfig")), kept.toString());
        assertFalse(kept.contains(".git/config") || kept.contains(".git/hooks") || kept.contains("~/.config/git"),
                kept.toString());
        assertEquals(new TreeSet<>(landlockLike.plan(set).createRestricted()), new TreeSet<>(a.plan().createRestricted()),
                "the baseline adds no create-restricted directory");
        assertTrue(a.dropped().stream().anyMatch(x -> x.item().display().equals(".git/config")
                && x.reason().equals("it would make " + proj.resolve(".git") + " create-restricted")), a.dropped().toString());
        String line = a.summary("restricting");
        assertTrue(line.contains("NOT protected by restricting: .git/config, .git/hooks, .git/info (it would make "), line);

        // a plan made ahead (BackendSurvey) for the set withCandidates gives: the same outcome, and the only plan apply
        // asks for is that one (then the narrowed one)
        ProtectedSet ahead = Baseline.withCandidates(landlockLike, set, items);
        Plan aheadPlan = landlockLike.plan(ahead);
        int[] asked = {0};
        Baseline.Applied same = Baseline.apply(landlockLike, set, landlockLike.plan(set), items, () -> {
            asked[0]++;
            return aheadPlan;
        });
        assertEquals(1, asked[0]);
        assertEquals(a.kept(), same.kept());
        assertEquals(a.dropped(), same.dropped());
        assertEquals(a.set(), same.set());
        assertEquals(a.plan().createRestricted(), same.plan().createRestricted());
        assertEquals(null, Baseline.withCandidates(landlockLike, set, List.of()), "no item: nothing to plan");

        // no create-missing: absent paths are out, and said
        Restricting noMissing = new Restricting(EnumSet.of(Guarantee.MODIFY_CONTENT));
        Baseline.Applied b = Baseline.apply(noMissing, set, noMissing.plan(set), items);
        assertFalse(displays(b.kept()).contains("~/.zshrc"));
        assertTrue(b.dropped().stream().anyMatch(x -> x.item().display().equals("~/.zshrc")
                && x.reason().equals(Baseline.ABSENT)));

        // the merged set: sorted, nothing beneath a protected directory
        ProtectedSet merged = Baseline.merge(set, items.stream().filter(i -> !i.absent()).toList());
        List<Path> paths = merged.paths().stream().map(ProtectedPath::path).toList();
        assertEquals(paths.stream().sorted().toList(), paths);
        assertTrue(paths.contains(proj.resolve(".git/hooks")));
        assertFalse(paths.stream().anyMatch(p -> p.startsWith(proj.resolve(".git/hooks")) && !p.equals(
                proj.resolve(".git/hooks"))));
    }

    @Test
    void aPolicyPathBeneathABaselineDirectoryGivesWay() throws IOException {
        Path root = tmp.toRealPath();
        Path hooks = Files.createDirectories(root.resolve(".git/hooks"));
        Files.writeString(hooks.resolve("pre-commit"), "#!/bin/sh\n");
        ProtectedSet set = ProtectedSet.of(root, root.resolve("agent.lock"), List.of(ProtectedPath.of(
                hooks.resolve("pre-commit"), ProtectedPath.Kind.FILE, List.of("policy"))), List.of());
        Baseline.Item item = new Baseline.Item(".git/hooks", "hooks", List.of(ProtectedPath.of(hooks,
                ProtectedPath.Kind.DIRECTORY, List.of("baseline"))));
        assertEquals(List.of(hooks), Baseline.merge(set, List.of(item)).paths().stream().map(ProtectedPath::path).toList());
    }

    static Baseline.Item find(List<Baseline.Item> items, String display) {
        return items.stream().filter(i -> i.display().equals(display)).findFirst().orElseThrow(
                () -> new AssertionError(display + " not in " + displays(items)));
    }

    /** What git's configuration points at, read as git reads it: each existing target is an item; absent ones not. */
    @Test
    void whatGitsConfigurationPointsAt() throws Exception {
        Path home = Files.createDirectories(tmp.toRealPath().resolve("home"));
        Path proj = repo(home.resolve("proj"));
        Files.createDirectories(proj.resolve(".husky"));
        Files.createDirectories(home.resolve("gitinc"));
        Files.writeString(home.resolve("gitinc/extra.config"), "[include]\n\tpath = deeper.config\n");
        Files.writeString(home.resolve("gitinc/deeper.config"), "[core]\n\texcludesFile = ~/ignore\n");
        Files.writeString(home.resolve("ignore"), "*.secret\n");
        Files.writeString(home.resolve("fsm.sh"), "#!/bin/sh\n");
        Files.writeString(home.resolve(".gitconfig"), "[includeIf \"hasconfig:remote.*.url:x\"]\n\tpath = cond.config\n"
                + "[core]\n\tattributesFile = ~/attrs\n");
        Files.writeString(home.resolve("cond.config"), "");
        Files.writeString(proj.resolve(".git/config"), Files.readString(proj.resolve(".git/config"))
                + "[core]\n\thooksPath = .husky\n\tfsmonitor = ~/fsm.sh --flag\n[include]\n\tpath = ~/gitinc/extra.config\n"
                + "\tpath = ~/gitinc/absent.config\n");
        List<Baseline.Item> items = Baseline.items(proj, Map.of("HOME", home.toString(), "GIT_CONFIG_NOSYSTEM", "1"),
                Baseline.Start.NONE);
        Set<String> d = displays(items);
        assertTrue(d.containsAll(Set.of(".husky", ".git/info", "~/gitinc/extra.config", "~/gitinc/deeper.config",
                "~/ignore", "~/fsm.sh", "~/cond.config")), d.toString());
        assertFalse(d.contains("~/gitinc/absent.config") || d.contains("~/attrs"), "absent targets: " + d);
        assertTrue(find(items, ".husky").why().contains("core.hooksPath"));

        // a boolean fsmonitor (the built-in daemon) names no file
        Files.writeString(proj.resolve(".git/config"), "[core]\n\tfsmonitor = true\n");
        assertFalse(displays(Baseline.items(proj, Map.of("HOME", home.toString(), "GIT_CONFIG_NOSYSTEM", "1"),
                Baseline.Start.NONE)).contains("~/fsm.sh"));
    }

    /** CodeRunningConfig: each entry that exists, at the policy's root and at the work tree's top. */
    @Test
    void projectConfigurationThatRunsCode() throws Exception {
        Path r = repo(tmp.toRealPath().resolve("r"));
        Path sub = Files.createDirectories(r.resolve("sub"));
        Files.createDirectories(sub.resolve(".mvn"));
        Files.writeString(sub.resolve(".mvn/jvm.config"), "-Xmx1g\n");
        Files.writeString(r.resolve(".envrc"), "echo hi\n");
        Files.createDirectories(r.resolve(".vscode"));
        Set<String> d = displays(Baseline.items(sub, Map.of(), Baseline.Start.NONE));
        assertTrue(d.containsAll(Set.of(".mvn/jvm.config", r.resolve(".envrc").toString(),
                r.resolve(".vscode").toString())), d.toString());
        assertFalse(d.contains(".mvn/maven.config") || d.contains(".envrc"), "absent ones are no items: " + d);
    }

    /**
     * PATH: each writable directory, but not one in the project or a temporary directory, nor an ancestor of the
     * project, HOME or a temporary directory; relative entries never.
     */
    @Test
    void writablePathDirectories() throws Exception {
        Path base = tmp.toRealPath();
        Path home = Files.createDirectories(base.resolve("home"));
        Path proj = Files.createDirectories(home.resolve("proj"));
        Path cargo = Files.createDirectories(home.resolve(".cargo/bin"));
        Path inProject = Files.createDirectories(proj.resolve("node_modules/.bin"));
        Path t = Files.createDirectories(base.resolve("t"));
        Path inTemp = Files.createDirectories(t.resolve("bin"));
        Path other = Files.createDirectories(base.resolve("opt/bin"));
        String path = String.join(":", cargo.toString(), "", ".", "bin", inProject.toString(), inTemp.toString(),
                home.toString(), base.toString(), "/", other.toString(), base.resolve("absent").toString());
        List<Baseline.Item> items = Baseline.items(proj, Map.of("HOME", home.toString(), "PATH", path,
                "TMPDIR", t.toString()), Baseline.Start.NONE);
        List<String> onPath = items.stream().filter(i -> i.why().startsWith("on PATH")).map(Baseline.Item::display)
                .toList();
        assertEquals(List.of("~/.cargo/bin", other.toString()), onPath);
    }

    /** Ralon's own start: the JDK, the launcher's java and its directory, the launcher with its links, .ralon-cds. */
    @Test
    void ownStartWhenWritable() throws Exception {
        Path base = tmp.toRealPath();
        Path home = Files.createDirectories(base.resolve("home"));
        Path proj = Files.createDirectories(home.resolve("proj"));
        Path jdk = Files.createDirectories(home.resolve("jdk"));
        Files.createDirectories(jdk.resolve("bin"));
        Files.createSymbolicLink(jdk.resolve("bin/java"), Path.of(System.getProperty("java.home"), "bin/java"));
        Path real = Files.createDirectories(base.resolve("install"));
        Files.writeString(real.resolve("ralon"), "#!/bin/sh\n");
        Files.createDirectories(real.resolve(".ralon-cds"));
        Path localBin = Files.createDirectories(home.resolve(".local/bin"));
        Files.createSymbolicLink(localBin.resolve("ralon"), real.resolve("ralon"));
        Baseline.Start start = new Baseline.Start(jdk.toString(), localBin.resolve("ralon").toString(),
                jdk.resolve("bin/java").toString(), null);
        List<Baseline.Item> items = Baseline.items(proj, Map.of("HOME", home.toString()), start);
        Set<String> d = displays(items);
        assertTrue(d.containsAll(Set.of("~/jdk", "~/jdk/bin", "~/jdk/bin/java", "~/.local/bin/ralon", "~/.local/bin",
                real.toString(), real.resolve(".ralon-cds").toString())), d.toString());
        // never the project, HOME, a temporary directory or an ancestor of one
        Baseline.Start inHome = new Baseline.Start(home.toString(), proj.resolve("ralon").toString(), null,
                base.toString());
        Files.writeString(proj.resolve("ralon"), "#!/bin/sh\n");
        Set<String> none = displays(Baseline.items(proj, Map.of("HOME", home.toString()), inHome));
        assertFalse(none.contains("~") || none.contains(home.toString()) || none.contains(proj.toString())
                || none.contains(base.toString()), none.toString());
        assertTrue(none.contains("ralon"), "the launcher file itself: " + none);
        Baseline.Item launcher = find(items, "~/.local/bin/ralon");
        assertEquals(List.of(localBin.resolve("ralon"), real.resolve("ralon")),
                launcher.paths().stream().map(ProtectedPath::path).toList(), "the link and the real file");
        assertEquals(ProtectedPath.Kind.SYMLINK, find(items, "~/jdk/bin/java").paths().get(0).kind());
        // the link to the real java goes before @TempDir's cleanup, which would print a warning on meeting it
        Files.delete(jdk.resolve("bin/java"));
    }

    /**
     * A release (bin/ralon beside lib/ralon.release): its lib/ and share/ where the invoker can change them, also when
     * they are read-only to their owner (who may chmod them back); nothing for a tree without the marker.
     */
    @Test
    void aReleasesLibAndShare() throws Exception {
        Path base = tmp.toRealPath();
        Path home = Files.createDirectories(base.resolve("home"));
        Path proj = Files.createDirectories(home.resolve("proj"));
        Path rel = Files.createDirectories(home.resolve("opt/ralon-1"));
        Files.createDirectories(rel.resolve("bin"));
        Files.writeString(rel.resolve("bin/ralon"), "#!/bin/sh\n");
        Path lib = Files.createDirectories(rel.resolve("lib/jna"));
        Files.writeString(rel.resolve("lib/ralon.release"), "ralon 1\n");
        Files.createDirectories(rel.resolve("share/man"));
        Baseline.Start start = new Baseline.Start(null, rel.resolve("bin/ralon").toString(), null, null);
        Set<String> d = displays(Baseline.items(proj, Map.of("HOME", home.toString()), start));
        assertTrue(d.containsAll(Set.of("~/opt/ralon-1/lib", "~/opt/ralon-1/share")), d.toString());
        // read-only to its owner: still changeable by that owner (chmod u+w), so still protected
        Files.setPosixFilePermissions(rel.resolve("lib"), java.nio.file.attribute.PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            Set<String> ro = displays(Baseline.items(proj, Map.of("HOME", home.toString()), start));
            assertTrue(ro.contains("~/opt/ralon-1/lib"), ro.toString());
            assertTrue(BaselineItems.changeable(rel.resolve("lib")));
        } finally {
            Files.setPosixFilePermissions(rel.resolve("lib"),
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        // not a release without its marker
        Files.delete(rel.resolve("lib/ralon.release"));
        Set<String> plain = displays(Baseline.items(proj, Map.of("HOME", home.toString()), start));
        assertFalse(plain.contains("~/opt/ralon-1/lib") || plain.contains("~/opt/ralon-1/share"), plain.toString());
        // root's directory is changeable by root only (run as uid 65534 too, README)
        assertEquals(dev.ralon.testsupport.Requirements.isRoot(), BaselineItems.changeable(Path.of("/usr")));
    }
}
