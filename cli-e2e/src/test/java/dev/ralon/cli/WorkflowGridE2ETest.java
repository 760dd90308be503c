package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.Requirements;
import dev.ralon.testsupport.TestProcess;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Everyday work under a plain {@code ralon run} (no option), as users live: the mount and landlock backends, as root
 * and as uid 65534, with an empty home directory and a warm one (the same work done once outside first, so the tools'
 * caches are filled), the home directory under /var/lib (not in a temporary directory), the environment empty but
 * {@code PATH} and {@code HOME} ({@code env -i}, no locale). One session per cell runs: git (commit, branch, stash,
 * rebase, merge, tag, gc, a worktree inside the project), an editor's atomic save and {@code sed -i}, node
 * ({@code npm install} of a package from the registry and of a local one with a bin, which makes
 * {@code node_modules/.bin} links, {@code npm test}, {@code npx} of that bin), Python ({@code python3 -m venv},
 * {@code setup.py develop} of the project, the module run from the venv; pytest and wheel are not installed here).
 * And the same with no user namespaces (two cells, root and 65534, an empty home), with no backend named. Checked from outside: every step exits 0;
 * the protected file is unchanged and a write to it fails; the real home directory holds nothing new but ralon's own
 * (the session notes, the project's store, JNA's cache) — a warm one is file for file as it was.
 *
 * <p>Not in the grid: Maven (a cold local repository is minutes of downloads per cell; {@code HomeCopyE2ETest} covers
 * {@code ~/.m2} under mount), Go and Rust (not installed on the build machines).
 */
class WorkflowGridE2ETest {
    static final String SECRET = "s3cret\n";
    /**
     * The cell with no user namespaces: everything runs inside a user namespace whose {@code user.max_user_namespaces}
     * is 0 (user_namespaces(7): per namespace), so ralon can make none, and {@code ralon run} is given no backend.
     */
    static final String NO_USERNS = "no user namespaces";

    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    static Stream<Arguments> cells() {
        List<Arguments> out = new ArrayList<>();
        for (String backend : List.of("mount", "landlock")) {
            for (int uid : new int[] {0, TestProcess.NOBODY}) {
                for (boolean warm : new boolean[] {false, true}) {
                    out.add(Arguments.of(backend, uid, warm));
                }
            }
        }
        // where no user namespace can be made (as under Docker's default seccomp profile): a plain run chooses
        // landlock, and ralon stays as the command's parent (Supervisor)
        out.add(Arguments.of(NO_USERNS, 0, false));
        out.add(Arguments.of(NO_USERNS, TestProcess.NOBODY, false));
        return out.stream();
    }

    /** The work, run in the project: each step echoes {@code OK <name>} when it exited 0. */
    static final String WORK = """
            step() { n=$1; shift; if ( "$@" ) > "step-$n.log" 2>&1; then echo "OK $n"; else echo "FAILED $n"; cat "step-$n.log"; fi; rm -f "step-$n.log"; }
            step git-commit sh -c 'echo more >> app.txt && git add app.txt && git commit -q -m more'
            step git-branch sh -c 'git checkout -q -b feature && echo f > f.txt && git add f.txt && git commit -q -m f && git checkout -q -'
            step git-stash sh -c 'echo wip >> app.txt && git stash -q && git stash pop -q && git checkout -q -- app.txt'
            step git-rebase sh -c 'git checkout -q feature && git rebase -q main && git checkout -q main'
            step git-merge git merge -q --no-edit feature
            step git-tag git tag -a v1 -m v1
            step git-gc git gc -q
            step git-worktree sh -c 'git worktree add -q wt feature && git -C wt log --oneline >/dev/null && git worktree remove wt'
            step atomic-save sh -c 'printf "saved\\n" > .app.txt.swp && mv .app.txt.swp app.txt'
            step sed-i sed -i 's/saved/edited/' app.txt
            step npm-install npm install --no-audit --no-fund is-number@7.0.0 ./hello
            step npm-test npm test
            step npx npx hello
            step venv python3 -m venv .venv
            step python-develop .venv/bin/python setup.py -q develop
            step python-run .venv/bin/python -m gridpkg
            step protected-write sh -c 'echo PWNED > secret.txt'
            """;

    static final List<String> STEPS = List.of("git-commit", "git-branch", "git-stash", "git-rebase", "git-merge",
            "git-tag", "git-gc", "git-worktree", "atomic-save", "sed-i", "npm-install", "npm-test", "npx", "venv",
            "python-develop", "python-run");

    @ParameterizedTest(name = "{0}, uid {1}, warm home: {2}")
    @MethodSource("cells")
    void everydayWorkRunsAndTheProtectedFileHolds(String backend, int uid, boolean warm) throws Exception {
        AsUser.assumeRoot();
        Requirements.require(Files.isExecutable(Path.of("/usr/bin/npm")) && Files.isExecutable(Path.of("/usr/bin/git"))
                && Files.isExecutable(Path.of("/usr/bin/python3")), "git, npm and python3 in /usr/bin");
        try (AsUser u = new AsUser(uid, Path.of("/var/lib"))) {
            Path home = u.home;
            Files.delete(home.resolve("tmp")); // an empty home: nothing of AsUser's
            Path p = project(u.base.resolve("project"));
            if (warm) { // the same work once outside, in another project: the tools' caches are filled
                project(u.base.resolve("warm-up"));
            }
            u.handOver();
            if (warm) {
                ProcessResult w = plain(u, u.base.resolve("warm-up"), List.of("sh", "-c", WORK));
                for (String s : STEPS) {
                    assertTrue(w.out().contains("OK " + s + "\n"), "outside, the warm-up's " + s + ": " + w);
                }
            }
            TreeSet<String> before = listing(home);
            List<String> run = new ArrayList<>(List.of(u.exe.toString(), "run"));
            if (backend.equals(NO_USERNS)) {
                Requirements.require(plain(u, p, List.of("unshare", "--user", "--map-root-user", "true")).code() == 0,
                        "unprivileged user namespaces, to take them away inside one");
                run = new ArrayList<>(List.of("unshare", "--user", "--map-root-user", "sh", "-c",
                        "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$@\"", "sh", u.exe.toString(), "run"));
            } else {
                u.assumeBackend(p, backend);
                run.addAll(List.of("--backend", backend));
            }
            run.addAll(List.of("--", "sh", "-c", WORK));
            ProcessResult r = plain(u, p, run);
            if (backend.equals(NO_USERNS)) {
                assertTrue(r.err().contains("locked via the landlock backend; ralon stays beside the command"), r.err());
            }
            assertEquals(0, r.code(), r.toString());
            for (String s : STEPS) {
                assertTrue(r.out().contains("OK " + s + "\n"), s + " under " + backend + ": " + r);
            }
            assertTrue(r.out().contains("FAILED protected-write"), r.toString());
            assertEquals(SECRET, Files.readString(p.resolve("secret.txt")), "the protected file, read from outside");
            ProcessResult log = plain(u, p, List.of("git", "log", "--oneline", "main"));
            assertTrue(log.out().contains("more") && log.out().contains(" f\n"), "the commits, seen from outside: " + log);
            // the real home: nothing new but ralon's own
            TreeSet<String> after = listing(home);
            after.removeIf(WorkflowGridE2ETest::ralonsOwn);
            before.removeIf(WorkflowGridE2ETest::ralonsOwn);
            assertEquals(before, after, "the real home directory changed under " + backend + ": " + r);
        }
    }

    /** Ralon's own places in the home directory: the session notes, the projects' stores, JNA's cache. */
    static boolean ralonsOwn(String entry) {
        return entry.startsWith(".cache/ralon") || entry.startsWith(".local/state/ralon") || entry.startsWith(".cache/JNA")
                || entry.equals(".cache") || entry.equals(".local") || entry.equals(".local/state");
    }

    /** Every path beneath {@code home} with its size and time (directories by name only: their times follow). */
    static TreeSet<String> listing(Path home) throws IOException {
        TreeSet<String> out = new TreeSet<>();
        try (Stream<Path> s = Files.walk(home)) {
            s.filter(x -> !x.equals(home)).forEach(x -> {
                String rel = home.relativize(x).toString();
                try {
                    out.add(Files.isDirectory(x, java.nio.file.LinkOption.NOFOLLOW_LINKS) ? rel
                            : rel + " " + Files.size(x) + " " + Files.getLastModifiedTime(x,
                            java.nio.file.LinkOption.NOFOLLOW_LINKS).toMillis());
                } catch (IOException e) {
                    out.add(rel + " ?");
                }
            });
        }
        return out;
    }

    /** {@code cmd} as the user in {@code dir}, the environment empty but PATH and HOME ({@code env -i}). */
    static ProcessResult plain(AsUser u, Path dir, List<String> cmd) throws Exception {
        List<String> c = new ArrayList<>();
        if (u.uid != 0) {
            c.addAll(List.of("setpriv", "--reuid=" + u.uid, "--regid=" + u.uid, "--clear-groups"));
        }
        c.addAll(List.of("env", "-i", "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + u.home));
        c.addAll(cmd);
        return TestProcess.of(c).in(dir).stdin(new byte[0]).timeout(600).run();
    }

    /**
     * A git repository with one commit on {@code main}, an agent.lock protecting {@code secret.txt}, a node package
     * whose test requires is-number, a local package {@code hello} with a bin, and a Python package {@code gridpkg}.
     */
    static Path project(Path p) throws Exception {
        Files.createDirectories(p.resolve("hello"));
        Files.createDirectories(p.resolve("gridpkg"));
        Files.writeString(p.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
        Files.writeString(p.resolve("secret.txt"), SECRET);
        Files.writeString(p.resolve("app.txt"), "app\n");
        Files.writeString(p.resolve(".gitignore"), "node_modules/\n.venv/\n*.egg-info/\n");
        Files.writeString(p.resolve("package.json"), """
                {"name": "grid", "version": "1.0.0", "private": true,
                 "scripts": {"test": "node -e \\"if (!require('is-number')(5)) process.exit(1)\\""}}
                """);
        Files.writeString(p.resolve("hello/package.json"), """
                {"name": "hello", "version": "1.0.0", "bin": {"hello": "hello.js"}}
                """);
        Files.writeString(p.resolve("hello/hello.js"), "#!/usr/bin/env node\nconsole.log('hello');\n");
        p.resolve("hello/hello.js").toFile().setExecutable(true, false);
        // setup.py, installed in place with setuptools alone (`setup.py develop`, what `pip install -e .` runs: pip
        // itself asks for the wheel package, which a fresh venv lacks, and there is no package index here)
        Files.writeString(p.resolve("setup.py"), "from setuptools import setup\nsetup(name='gridpkg', version='1.0',"
                + " packages=['gridpkg'])\n");
        Files.writeString(p.resolve("gridpkg/__init__.py"), "");
        Files.writeString(p.resolve("gridpkg/__main__.py"), "print('gridpkg ran')\n");
        ProcessResult g = CliE2ETest.exec(p, null, java.util.Map.of("GIT_CONFIG_NOSYSTEM", "1", "HOME", p.toString()),
                "sh", "-c", "git init -q -b main && git config user.email t@example.com && git config user.name t"
                        + " && git add -A && git commit -q -m init");
        assertEquals(0, g.code(), g.toString());
        return p;
    }
}
