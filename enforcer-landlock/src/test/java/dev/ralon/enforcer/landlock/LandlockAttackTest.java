package dev.ralon.enforcer.landlock;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real attacks on a real project, run inside the real sandbox (a child JVM that plans, prepares and execs exactly as
 * {@code ralon run --backend landlock} does, see {@link SandboxMain}), as root and as uid 65534. Every verdict is
 * taken from OUTSIDE the sandbox, on disk: content hash, inode, mode, mtime, existence, directory listing. A control
 * run makes the same attacks without the sandbox and checks that each one really changes its target, so no check
 * here can pass for lack of an effect to detect.
 */
class LandlockAttackTest {

    enum Expect {
        /** The attack must leave every watched path exactly as it was. */
        BLOCKED,
        /** Ordinary work that must keep working: the watched paths must change. */
        WORKS,
        /** A documented limit of this backend: the watched paths must NOT change (refused although unprotected). */
        LIMIT_REFUSED,
        /** A documented limit: not a declared guarantee, the change goes through. */
        LIMIT_ALLOWED
    }

    /**
     * One attack.
     *
     * @param name      unique name; the script prints {@code RESULT name rc}
     * @param what      the guarantee or behaviour it tests
     * @param shell     the shell command (run in the project directory), or null for an {@link AttackMain} attack
     * @param watched   paths (relative to the project) whose state must (not) change
     * @param expect    the verdict expected inside the sandbox
     * @param inControl whether the control run (no sandbox) must show a change on the watched paths
     */
    record Attack(String name, String what, String shell, List<String> watched, Expect expect, boolean inControl) {
    }

    private static Attack blocked(String name, String what, String shell, String... watched) {
        return new Attack(name, what, shell, List.of(watched), Expect.BLOCKED, true);
    }

    private static final List<Attack> ATTACKS = List.of(
        blocked("write", "modify-content", "echo pwned > f-write", "f-write"),
        blocked("append", "modify-content", "echo pwned >> f-append", "f-append"),
        blocked("o-trunc", "modify-content", ": > f-otrunc", "f-otrunc"),
        blocked("truncate-cmd", "modify-content", "truncate -s 0 f-truncate", "f-truncate"),
        blocked("dd-notrunc", "modify-content", "echo pwned | dd of=f-dd conv=notrunc", "f-dd"),
        blocked("cp-over", "modify-content", "cp src/evil f-cp", "f-cp"),
        blocked("sed-i", "modify-content", "sed -i s/original/pwned/ f-sed", "f-sed"),
        blocked("hardlink-then-write", "modify-content", "ln f-hardlink src/hl && echo pwned > src/hl", "f-hardlink"),
        blocked("hardlink-samedir-then-write", "modify-content", "ln f-hardlink2 hl2 && echo pwned > hl2", "f-hardlink2"),
        blocked("symlink-then-write", "modify-content", "ln -s ../f-symlink src/sl && echo pwned > src/sl", "f-symlink"),
        blocked("proc-pid-root", "modify-content",
            "echo pwned > /proc/$OUTSIDE_PID/root$PROJ/f-procroot", "f-procroot"),
        blocked("proc-self-root", "modify-content", "echo pwned > /proc/self/root$PROJ/f-procself", "f-procself"),
        blocked("create-via-symlinked-dir", "create-restricted", "ln -s .. src/up && echo pwned > src/up/via-link",
            "via-link"),
        blocked("setsid-daemon-write", "modify-content",
            "setsid sh -c 'echo pwned > f-setsid' & wait; sleep 0.2; cat f-setsid | grep -q pwned", "f-setsid"),
        blocked("git-checkout", "modify-content", "cd repo && git checkout -- tracked.txt", "repo/tracked.txt"),
        blocked("agent-lock-rewrite", "modify-content", "printf 'version: 1\\nprotect: []\\n' > agent.lock", "agent.lock"),
        blocked("rm", "delete", "rm -f f-rm", "f-rm"),
        blocked("unlink-symlink", "delete", "rm -f link-prot", "link-prot"),
        blocked("mv-away", "rename-away", "mv f-mvaway src/", "f-mvaway"),
        blocked("mv-away-samedir", "rename-away", "mv f-mvaway2 f-mvaway2.bak", "f-mvaway2"),
        blocked("mv-over", "rename-over", "mv src/evil2 f-mvover", "f-mvover"),
        blocked("atomic-save-samedir", "rename-over",
            "printf pwned > .f-atomic.tmp && mv .f-atomic.tmp f-atomic", "f-atomic"),
        blocked("atomic-save-from-sibling", "rename-over",
            "printf pwned > src/atomic.tmp && mv src/atomic.tmp f-atomic2", "f-atomic2"),
        blocked("agent-lock-mv-over", "rename-over", "mv src/evil-lock agent.lock", "agent.lock"),
        blocked("symlink-replace", "rename-over", "ln -sfn /etc/passwd link-prot", "link-prot"),
        blocked("create-inside", "create-inside", "touch locked/new", "locked"),
        blocked("mkdir-inside", "create-inside", "mkdir locked/newdir", "locked"),
        blocked("mv-into-protected-dir", "create-inside", "mv src/evil3 locked/", "locked"),
        blocked("rm-inside", "create-inside", "rm -f locked/inner.txt", "locked/inner.txt"),
        blocked("rename-inside", "create-inside", "mv locked/inner2.txt locked/renamed.txt", "locked/inner2.txt"),
        blocked("write-inside", "modify-content", "echo pwned > locked/inner3.txt", "locked/inner3.txt"),
        blocked("write-deep-inside", "modify-content", "echo pwned > locked/sub/deep.txt", "locked/sub/deep.txt"),
        blocked("create-missing", "create-missing", "echo pwned > secret.env", "secret.env"),
        blocked("create-missing-by-rename", "create-missing", "mv src/evil4 secret.env", "secret.env"),
        blocked("create-missing-as-symlink", "create-missing", "ln -s src/evil5 secret.env", "secret.env"),
        blocked("create-missing-as-dir", "create-missing", "mkdir secret.env", "secret.env"),
        // AttackMain (syscalls the shell cannot make)
        blocked("j-truncate", "modify-content", null, "f-jtruncate"),
        blocked("j-rdonly-otrunc", "modify-content", null, "f-jotrunc"),
        blocked("j-ftruncate", "modify-content", null, "f-jftruncate"),
        blocked("j-procfd-reopen", "modify-content", null, "f-procfd"),
        new Attack("j-mmap-rdonly-fd", "modify-content", null, List.of("f-mmap"), Expect.BLOCKED, false),
        blocked("j-mmap-rdwr-fd", "modify-content", null, "f-mmap2"),
        blocked("j-filechannel-map", "modify-content", null, "f-mmap3"),
        blocked("j-link-then-write", "modify-content", null, "f-jlink"),
        blocked("j-open-by-handle", "modify-content", null, "f-handle"),
        blocked("j-exchange-sibling", "rename-over", null, "f-exchange"),
        blocked("j-exchange-samedir", "rename-over", null, "f-exchange2"),
        blocked("j-exchange-ancestor", "ancestor-rename", null, "deep"),
        blocked("j-exchange-protected-dir", "rename-over", null, "locked"),
        // what must keep working
        new Attack("ok-write-unprotected", "works", "echo more >> notes.txt", List.of("notes.txt"), Expect.WORKS, true),
        new Attack("ok-create-in-subdir", "works", "mkdir -p src/new/dir && echo x > src/new/dir/file",
            List.of("src/new/dir/file"), Expect.WORKS, true),
        new Attack("ok-write-sibling-of-deep-ancestor", "works", "echo more >> deep/a/sibling.txt",
            List.of("deep/a/sibling.txt"), Expect.WORKS, true),
        new Attack("ok-read-protected", "works", "cat f-read locked/inner.txt > build/read-copy",
            List.of("build/read-copy"), Expect.WORKS, true),
        new Attack("ok-git-status", "works", "cd repo && git status --porcelain > ../build/git-status.out",
            List.of("build/git-status.out"), Expect.WORKS, true),
        new Attack("ok-mv-between-unprotected-dirs", "works", "mv src/movable build/movable",
            List.of("src/movable", "build/movable"), Expect.WORKS, true),
        new Attack("ok-ln-between-unprotected-dirs", "works", "ln src/evil-ln build/evil-ln",
            List.of("build/evil-ln"), Expect.WORKS, true),
        new Attack("ok-mv-between-siblings-at-different-levels", "works", "mv src/evil-cross \"$HOME\"/evil-cross",
            List.of("src/evil-cross", "../home/evil-cross"), Expect.WORKS, true),
        new Attack("ok-rm-in-unprotected-dir", "works", "rm src/evil-rm", List.of("src/evil-rm"), Expect.WORKS, true),
        // documented limits
        new Attack("limit-mkdir-in-project-root", "create-restricted", "mkdir target", List.of("target"),
            Expect.LIMIT_REFUSED, true),
        new Attack("limit-rename-unprotected-in-root", "create-restricted", "mv notes2.txt notes2.bak",
            List.of("notes2.txt"), Expect.LIMIT_REFUSED, true),
        new Attack("limit-mv-unprotected-out-of-root", "create-restricted", "mv notes3.txt src/",
            List.of("notes3.txt"), Expect.LIMIT_REFUSED, true),
        new Attack("limit-chmod-protected", "metadata", "chmod 600 f-chmod", List.of("f-chmod"),
            Expect.LIMIT_ALLOWED, true),
        new Attack("limit-touch-protected", "metadata", "touch -d 2001-01-01 f-touch", List.of("f-touch"),
            Expect.LIMIT_ALLOWED, true),
        // destructive ones last, so that they cannot hide the effect of another attack in the control run
        blocked("rm-rf-protected-dir", "delete", "rm -rf locked", "locked/sub"),
        blocked("ancestor-rm-rf", "ancestor-rename", "rm -rf deep/a/b", "deep/a/b/conf.yml"),
        blocked("ancestor-mv-mid", "ancestor-rename", "mv deep/a src/a-moved", "deep/a"),
        blocked("ancestor-mv", "ancestor-rename", "mv deep deep2", "deep/a/b"),
        new Attack("ancestor-mv-project-root", "ancestor-rename", "cd .. && mv proj proj-moved", List.of("."),
            Expect.BLOCKED, false));

    private static final List<String> PROTECTED = List.of(
        "agent.lock", "f-write", "f-append", "f-otrunc", "f-truncate", "f-dd", "f-cp", "f-sed", "f-hardlink",
        "f-hardlink2", "f-symlink", "f-procroot", "f-procself", "f-setsid", "repo/tracked.txt", "f-rm", "link-prot",
        "f-mvaway", "f-mvaway2",
        "f-mvover", "f-atomic", "f-atomic2", "locked", "secret.env", "f-jtruncate", "f-jotrunc", "f-jftruncate",
        "f-procfd", "f-handle", "f-mmap", "f-mmap2", "f-mmap3", "f-jlink", "f-exchange", "f-exchange2", "f-read", "f-chmod",
        "f-touch", "deep/a/b/conf.yml");

    @TestFactory
    Stream<DynamicTest> attacksAsRoot() throws Exception {
        Sandboxes.requireLandlock();
        return verdicts(0, true);
    }

    @TestFactory
    Stream<DynamicTest> attacksAsUid65534() throws Exception {
        Sandboxes.requireLandlock();
        Sandboxes.requireRootForSetpriv();
        return verdicts(Sandboxes.NOBODY, true);
    }

    @TestFactory
    Stream<DynamicTest> controlWithoutSandboxEveryAttackHasAnEffect() throws Exception {
        Sandboxes.requireRootForSetpriv(); // the control runs as root: root may write everything it attacks
        return verdicts(0, false);
    }

    private Stream<DynamicTest> verdicts(int uid, boolean sandboxed) throws Exception {
        Path base = Sandboxes.newBase("ralon-ll-attack-");
        Process outside = null;
        try {
            String cp = Sandboxes.copyClasspath(base);
            Path home = Files.createDirectories(base.resolve("home"));
            Files.createDirectories(home.resolve("tmp"));
            Path proj = buildProject(base.resolve("proj"));
            Path script = home.resolve("attacks.sh");
            Files.writeString(script, script(cp, home, sandboxed));
            if (uid != 0) {
                Sandboxes.run(List.of("chown", "-R", uid + ":" + uid, proj.toString(), home.toString()), null, 30);
            }
            // A process of the same user outside the sandbox, for the /proc/PID/root attack.
            List<String> sleep = new ArrayList<>(Sandboxes.asUser(uid));
            sleep.addAll(List.of("sleep", "300"));
            outside = new ProcessBuilder(sleep).start();

            Map<String, String> before = snapshotAll(proj);
            List<String> cmd = new ArrayList<>(Sandboxes.asUser(uid));
            if (sandboxed) {
                cmd.addAll(Sandboxes.javaCommand(home, cp, SandboxMain.class.getName()));
                cmd.add(proj.toString());
                for (String p : PROTECTED) {
                    cmd.add(proj.resolve(p).toString());
                }
                cmd.add("--");
            }
            cmd.addAll(List.of("/bin/sh", script.toString()));
            Map<String, String> env = new HashMap<>();
            env.put("HOME", home.toString());
            env.put("PROJ", proj.toString());
            env.put("OUTSIDE_PID", String.valueOf(outside.pid()));
            env.put("TMPDIR", home.resolve("tmp").toString());
            env.put("GIT_CONFIG_NOSYSTEM", "1");
            Sandboxes.Output out = Sandboxes.run(cmd, env, 180, proj);
            Map<String, String> after = snapshotAll(proj);
            String log = Files.exists(home.resolve("attacks.log")) ? Files.readString(home.resolve("attacks.log")) : "";
            String gitStatus = readIfExists(proj.resolve("build/git-status.out"));
            String readCopy = readIfExists(proj.resolve("build/read-copy"));
            String expectedCopy = "original f-read\noriginal locked/inner.txt\n";
            Map<String, String> rc = parseResults(out.out());
            if (Boolean.getBoolean("ralon.test.verbose")) {
                System.out.println("uid " + uid + (sandboxed ? " sandboxed" : " control") + ":\n" + out.out());
            }
            String context = "\n--- sandbox output (exit " + out.exit() + ") ---\n" + out.out() + "--- attack log ---\n" + log;

            List<DynamicTest> tests = new ArrayList<>();
            tests.add(DynamicTest.dynamicTest("every attack ran (" + (sandboxed ? "sandboxed" : "control") + ")", () -> {
                assertEquals(0, out.exit(), "the attack script did not finish" + context);
                for (Attack a : ATTACKS) {
                    if (!sandboxed && !a.inControl() && a.shell() != null) {
                        continue;
                    }
                    assertTrue(rc.containsKey(a.name()), "attack " + a.name() + " reported no result" + context);
                }
            }));
            for (Attack a : ATTACKS) {
                if (!sandboxed && !a.inControl()) {
                    continue;
                }
                String label = a.name() + " [" + a.what() + "] as uid " + uid + (sandboxed ? "" : " WITHOUT sandbox");
                tests.add(DynamicTest.dynamicTest(label, () -> {
                    Map<String, String> changed = new LinkedHashMap<>();
                    for (String w : a.watched()) {
                        if (!before.get(w).equals(after.get(w))) {
                            changed.put(w, before.get(w) + "  ->  " + after.get(w));
                        }
                    }
                    String msg = "attack " + a.name() + " (" + a.shell() + ", rc " + rc.get(a.name()) + ")";
                    boolean mustChange = !sandboxed || a.expect() == Expect.WORKS || a.expect() == Expect.LIMIT_ALLOWED;
                    if (mustChange) {
                        assertNotEquals(Map.of(), changed, msg + " changed nothing of " + a.watched()
                            + (sandboxed ? " although it must work" : " even without the sandbox: the check proves nothing")
                            + context);
                    } else {
                        assertEquals(Map.of(), changed, msg + " changed protected state: " + changed + context);
                    }
                    if (sandboxed && a.name().equals("ok-git-status")) {
                        assertEquals("0", rc.get(a.name()), "git status failed in the sandbox" + context);
                        assertTrue(gitStatus.contains("tracked.txt"), "git status did not see the edit: " + gitStatus);
                    }
                    if (sandboxed && a.name().equals("ok-read-protected")) {
                        assertEquals(expectedCopy, readCopy, "reading protected files gave other bytes" + context);
                    }
                }));
            }
            return tests.stream();
        } finally {
            if (outside != null) {
                outside.destroyForcibly();
            }
            Sandboxes.deleteTree(base);
        }
    }

    private static String readIfExists(Path p) throws IOException {
        return Files.exists(p) ? Files.readString(p) : "";
    }

    private static Map<String, String> parseResults(String out) {
        Map<String, String> rc = new HashMap<>();
        Matcher m = Pattern.compile("(?m)^RESULT (\\S+) (\\S+)$").matcher(out);
        while (m.find()) {
            rc.put(m.group(1), m.group(2));
        }
        return rc;
    }

    private static String script(String cp, Path home, boolean sandboxed) {
        StringBuilder s = new StringBuilder("#!/bin/sh\n");
        s.append("cd \"$PROJ\" || exit 1\nLOG=\"$HOME/attacks.log\"\n");
        List<Attack> shellBefore = new ArrayList<>();
        List<Attack> destructive = new ArrayList<>();
        boolean seenJava = false;
        for (Attack a : ATTACKS) {
            if (a.shell() == null) {
                seenJava = true;
            } else if (!sandboxed && !a.inControl()) {
                continue;
            } else if (a.name().startsWith("rm-rf") || a.name().startsWith("ancestor-")) {
                destructive.add(a);
            } else {
                shellBefore.add(a);
            }
        }
        for (Attack a : shellBefore) {
            appendShell(s, a);
        }
        if (seenJava) {
            List<String> java = Sandboxes.javaCommand(home, cp, AttackMain.class.getName());
            StringBuilder line = new StringBuilder();
            for (String part : java) {
                line.append('\'').append(part.replace("'", "'\\''")).append("' ");
            }
            s.append(line).append("\"$PROJ\" 2>>\"$LOG\"\n");
        }
        for (Attack a : destructive) {
            appendShell(s, a);
        }
        s.append("exit 0\n");
        return s.toString();
    }

    private static void appendShell(StringBuilder s, Attack a) {
        s.append("echo \"== ").append(a.name()).append("\" >>\"$LOG\"\n");
        s.append("( ").append(a.shell()).append(" ) >>\"$LOG\" 2>&1; echo \"RESULT ").append(a.name())
            .append(" $?\"\ncd \"$PROJ\"\n");
    }

    /** Builds the attacked project: protected files, a protected directory, a git repo, unprotected dirs. */
    private static Path buildProject(Path proj) throws IOException {
        Files.createDirectories(proj);
        for (String p : PROTECTED) {
            if (p.startsWith("f-")) {
                write(proj.resolve(p), "original " + p + "\n");
            }
        }
        write(proj.resolve("agent.lock"), "version: 1\nprotect:\n  - agent.lock\n");
        for (String f : List.of("inner.txt", "inner2.txt", "inner3.txt", "sub/deep.txt")) {
            write(proj.resolve("locked").resolve(f), "original locked/" + f + "\n");
        }
        write(proj.resolve("deep/a/b/conf.yml"), "conf: original\n");
        write(proj.resolve("deep/a/sibling.txt"), "sibling\n");
        for (String f : List.of("evil", "evil2", "evil3", "evil4", "evil5", "evil-lock", "evil-x", "movable", "evil-rm",
            "evil-ln", "evil-cross")) {
            write(proj.resolve("src").resolve(f), "pwned " + f + "\n");
        }
        Files.createDirectories(proj.resolve("src/fake-deep"));
        Files.createDirectories(proj.resolve("src/fake-locked"));
        Files.createDirectories(proj.resolve("build"));
        for (String f : List.of("notes.txt", "notes2.txt", "notes3.txt", "notes-x.txt")) {
            write(proj.resolve(f), "notes " + f + "\n");
        }
        Files.createSymbolicLink(proj.resolve("link-prot"), Path.of("f-read"));
        Path repo = Files.createDirectories(proj.resolve("repo"));
        write(repo.resolve("tracked.txt"), "committed\n");
        git(repo, "init", "-q");
        git(repo, "add", "tracked.txt");
        git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "init");
        write(repo.resolve("tracked.txt"), "local edit not committed\n");
        Sandboxes.run(List.of("chmod", "-R", "a+rX", proj.toString()), null, 30);
        return proj;
    }

    private static void git(Path repo, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", repo.toString()));
        cmd.addAll(List.of(args));
        Sandboxes.Output o = Sandboxes.run(cmd, Map.of("GIT_CONFIG_NOSYSTEM", "1"), 30);
        if (o.exit() != 0) {
            throw new IOException("git " + String.join(" ", args) + " failed: " + o.out());
        }
    }

    private static void write(Path p, String content) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, content, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
    }

    private static Map<String, String> snapshotAll(Path proj) throws IOException {
        Map<String, String> m = new HashMap<>();
        for (Attack a : ATTACKS) {
            for (String w : a.watched()) {
                m.put(w, state(proj.resolve(w).normalize()));
            }
        }
        return m;
    }

    /** What a path is, seen from outside: kind, inode, and content hash / link target / listing; mode and mtime. */
    static String state(Path p) throws IOException {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return "missing";
        }
        PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        Object ino = Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS);
        String common = " ino=" + ino + " mode=" + PosixFilePermissions.toString(a.permissions());
        if (a.isSymbolicLink()) {
            return "symlink" + common + " -> " + Files.readSymbolicLink(p);
        }
        if (a.isDirectory()) {
            TreeSet<String> names = new TreeSet<>();
            try (var s = Files.list(p)) {
                s.forEach(c -> names.add(c.getFileName().toString()));
            }
            return "dir" + common + " " + names;
        }
        return "file" + common + " mtime=" + a.lastModifiedTime() + " sha256=" + sha256(Files.readAllBytes(p));
    }

    private static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b)).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
