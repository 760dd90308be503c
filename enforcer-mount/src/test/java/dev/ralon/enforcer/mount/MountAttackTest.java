package dev.ralon.enforcer.mount;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Real attacks on a real sandbox. One sandboxed child runs every attack (each on its own protected target, so one
 * attack's outcome cannot hide another's); the verdicts are read from the disk, outside the sandbox. The same
 * script runs WITHOUT the sandbox on an identical copy of the project first: every attack must change its target
 * there, which proves each attack is real and each verdict can fail.
 */
class MountAttackTest {

    record Attack(String name, String script, List<String> targets) {
    }

    private static final String JAVA_ATTACKS = "dev.ralon.enforcer.mount.Attacks";
    private static final List<Path> TO_DELETE = new ArrayList<>();

    @org.junit.jupiter.api.AfterAll
    static void deleteTemporaryDirectories() throws IOException {
        for (Path base : TO_DELETE) {
            try (Stream<Path> s = Files.walk(base)) {
                for (Path p : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    static List<Attack> attacks(boolean root) {
        List<Attack> a = new ArrayList<>();
        a.add(new Attack("write", "echo pwned > write.txt", List.of("write.txt")));
        a.add(new Attack("append", "echo pwned >> append.txt", List.of("append.txt")));
        a.add(new Attack("open with O_TRUNC", ": > otrunc.txt", List.of("otrunc.txt")));
        a.add(new Attack("truncate(1)", "truncate -s 0 truncate.txt", List.of("truncate.txt")));
        a.add(new Attack("cp over", "cp free/existing.txt cpover.txt", List.of("cpover.txt")));
        a.add(new Attack("rm", "rm -f rm.txt", List.of("rm.txt")));
        a.add(new Attack("rename away", "mv renameaway.txt free/moved.txt", List.of("renameaway.txt")));
        a.add(new Attack("rename over (editor atomic save)",
                "echo pwned > .renameover.swp && mv -f .renameover.swp renameover.txt", List.of("renameover.txt")));
        a.add(new Attack("create inside a protected directory", "echo pwned > pdir/new.txt; mkdir pdir/newdir",
                List.of("pdir")));
        a.add(new Attack("delete inside a protected directory", "rm -f pdir/inner.txt",
                List.of("pdir", "pdir/inner.txt")));
        a.add(new Attack("rename inside a protected directory", "mv pdir/sub/inner2.txt pdir/inner2.txt",
                List.of("pdir/sub", "pdir/sub/inner2.txt")));
        a.add(new Attack("write inside a protected directory", "echo pwned >> pdir/inner3.txt",
                List.of("pdir/inner3.txt")));
        a.add(new Attack("rename a directory on the way", "mv way1 way1-moved", List.of("@way1", "way1/d/deep.txt")));
        a.add(new Attack("rename a deeper directory on the way", "mv way2/d way2/d-moved",
                List.of("@way2/d", "way2/d/deep.txt")));
        a.add(new Attack("remove a directory on the way", "rm -rf way3", List.of("@way3", "@way3/d", "way3/d/deep.txt")));
        a.add(new Attack("hard link, then write through it", "ln hardlink.txt free/hl && echo pwned >> free/hl",
                List.of("hardlink.txt")));
        a.add(new Attack("write through a symlink made in an unprotected place",
                "ln -s \"$P/symlink.txt\" free/sl && echo pwned >> free/sl", List.of("symlink.txt")));
        a.add(new Attack("/proc/self/fd reopen for writing", "exec 3<procfd.txt; echo pwned >> /proc/self/fd/3",
                List.of("procfd.txt")));
        a.add(new Attack("sed -i", "sed -i s/original/pwned/ sed.txt", List.of("sed.txt")));
        a.add(new Attack("git checkout -- FILE", "git checkout -- git.txt", List.of("git.txt")));
        a.add(new Attack("rewrite agent.lock",
                "echo 'version: 1' > agent.lock; cp free/existing.txt free/al && mv -f free/al agent.lock",
                List.of("agent.lock")));
        a.add(new Attack("replace a protected symlink", "ln -sfn free/existing.txt plink", List.of("plink")));
        a.add(new Attack("remove a protected symlink", "rm plink2", List.of("plink2")));
        a.add(new Attack("umount, then write", "umount umount.txt; echo pwned >> umount.txt", List.of("umount.txt")));
        a.add(new Attack("umount -l, then write", "umount -l umountl.txt; echo pwned >> umountl.txt",
                List.of("umountl.txt")));
        a.add(new Attack("unshare -Ur -m, umount -l, then write",
                "unshare -Ur -m sh -c 'umount -l nsumount.txt; echo pwned >> nsumount.txt'", List.of("nsumount.txt")));
        a.add(new Attack("unshare -Ur -m, mount -o remount,rw,bind, then write",
                "unshare -Ur -m sh -c 'mount -o remount,rw,bind nsremount.txt; echo pwned >> nsremount.txt'",
                List.of("nsremount.txt")));
        a.add(new Attack("chmod", "chmod 600 chmod.txt", List.of("chmod.txt")));
        a.add(new Attack("touch -d (utime)", "touch -d 2001-02-03 touch.txt", List.of("touch.txt")));
        if (root) {
            a.add(new Attack("chown", "chown 1:1 chown.txt", List.of("chown.txt")));
        }
        a.add(new Attack("write through /proc/PID/root of a same-user process outside the sandbox",
                "echo pwned >> /proc/$SLEEPER/root$P/procroot.txt", List.of("procroot.txt")));
        for (String ns : List.of("ns2-", "ns3-")) {
            String where = ns.equals("ns2-") ? "" : " (in unshare -Ur -m)";
            a.add(new Attack("renameat2 RENAME_EXCHANGE" + where, null, List.of(ns + "exchange.txt")));
            a.add(new Attack("mmap MAP_SHARED write" + where, null, List.of(ns + "mmap.txt")));
            a.add(new Attack("setxattr user.*" + where, null, List.of(ns + "xattr.txt")));
            a.add(new Attack("umount2(MNT_DETACH), then write" + where, null, List.of(ns + "umount2.txt")));
            a.add(new Attack("mount(MS_REMOUNT|MS_BIND) read-write, then write" + where, null,
                    List.of(ns + "remount.txt")));
            a.add(new Attack("mount_setattr clearing RDONLY, then write" + where, null, List.of(ns + "setattr.txt")));
            a.add(new Attack("non-recursive open_tree clone of the project, write through it" + where, null,
                    List.of(ns + "clone.txt")));
            a.add(new Attack("recursive open_tree clone, clear RDONLY, write through it" + where, null,
                    List.of(ns + "clonerw.txt")));
            a.add(new Attack("open_by_handle_at of a protected directory via the root mount, create in it" + where,
                    null, List.of(ns + "hdir")));
        }
        // last: it moves the whole project away when it works
        a.add(new Attack("rename the project directory", "mv \"$P\" \"$P-moved\"", List.of("@.", "agent.lock")));
        return a;
    }

    /** Files the attacks target that are protected, plus the protected directories and symlinks. */
    static List<String> protectedPaths(List<Attack> attacks) {
        List<String> out = new ArrayList<>();
        for (Attack a : attacks) {
            for (String t : a.targets()) {
                if (t.startsWith("@") || t.startsWith("pdir") || t.startsWith("way")) {
                    continue;
                }
                if (!out.contains(t)) {
                    out.add(t);
                }
            }
        }
        out.addAll(List.of("pdir", "way1/d/deep.txt", "way2/d/deep.txt", "way3/d/deep.txt"));
        return out;
    }

    static void makeProject(Path p, List<Attack> attacks, Path home) throws IOException, InterruptedException {
        Files.createDirectories(p.resolve("free"));
        Files.writeString(p.resolve("free/existing.txt"), "unprotected\n");
        for (String t : protectedPaths(attacks)) {
            Path f = p.resolve(t);
            if (t.equals("pdir") || t.startsWith("plink")) {
                continue;
            }
            if (t.endsWith("hdir")) {
                Files.createDirectories(f);
                continue;
            }
            Files.createDirectories(f.getParent());
            Files.writeString(f, "original " + t + "\n");
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        }
        Files.createDirectories(p.resolve("pdir/sub"));
        Files.writeString(p.resolve("pdir/inner.txt"), "original inner\n");
        Files.writeString(p.resolve("pdir/inner3.txt"), "original inner3\n");
        Files.writeString(p.resolve("pdir/sub/inner2.txt"), "original inner2\n");
        Files.createSymbolicLink(p.resolve("plink"), Path.of("write.txt"));
        Files.createSymbolicLink(p.resolve("plink2"), Path.of("write.txt"));
        Files.writeString(p.resolve("git.txt"), "committed\n");
        Map<String, String> env = Map.of("HOME", home.toString());
        for (List<String> g : List.of(List.of("git", "init", "-q"), List.of("git", "add", "-A"),
                List.of("git", "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "init"))) {
            var r = SandboxKit.run(g, p, env, 30);
            assertEquals(0, r.exit(), "git setup: " + r.output());
        }
        Files.writeString(p.resolve("git.txt"), "modified, not committed\n");
    }

    static String script(List<Attack> attacks) {
        StringBuilder s = new StringBuilder();
        s.append("cd \"$P\"\n");
        s.append("a() { printf '== %s\\n' \"$1\" >> \"$LOG\"; sh -c \"$2\" >> \"$LOG\" 2>&1; echo \"rc=$?\" >> \"$LOG\"; }\n");
        // what must keep working
        s.append("echo ok > free/new.txt; echo changed > free/existing.txt; echo ok > newroot.txt\n");
        s.append("mkdir -p way2/newdir && echo ok > way2/newdir/f\n");
        s.append("cat write.txt > free/read-copy\n");
        s.append("git status --porcelain > free/gitstatus 2>&1; echo $? > free/gitstatus.rc\n");
        s.append("id -u > free/uid; id -g > free/gid; /bin/pwd > free/pwd; echo \"$RALON_TEST_ENV\" > free/env\n");
        s.append("echo \"$JAVA_TOOL_OPTIONS\" > free/jto; echo $$ > free/pid; ulimit -n > free/nofile\n");
        s.append("cp free/existing.txt free/.keep\n");
        for (Attack a : attacks) {
            if (a.script() == null) {
                continue;
            }
            if (a.name().equals("rename the project directory")) {
                s.append("\"$JAVA\" -Djna.tmpdir=\"$JNATMP\" -cp \"$KITCP\" " + JAVA_ATTACKS + " ns2- >> \"$LOG\" 2>&1\n");
                s.append("unshare -Ur -m \"$JAVA\" -Djna.tmpdir=\"$JNATMP\" -cp \"$KITCP\" " + JAVA_ATTACKS
                        + " ns3- >> \"$LOG\" 2>&1\n");
            }
            s.append("a ").append(shellQuote(a.name())).append(' ').append(shellQuote(a.script())).append('\n');
        }
        s.append("exit 42\n");
        return s.toString();
    }

    static String shellQuote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    @TestFactory
    Stream<DynamicTest> attacksAsInvokingUser() throws Exception {
        SandboxKit.requireAvailable();
        return runAll(false);
    }

    @TestFactory
    Stream<DynamicTest> attacksAsUid65534() throws Exception {
        SandboxKit.requireAvailable();
        dev.ralon.testsupport.Requirements.requireRoot("the attacks run as uid 65534 through setpriv; as a non-root"
                + " user, the invoking-user variant already runs unprivileged");
        return runAll(true);
    }

    private Stream<DynamicTest> runAll(boolean asNobody) throws Exception {
        boolean root = !asNobody && SandboxKit.runningAsRoot();
        int uid = asNobody ? SandboxKit.NOBODY : SandboxKit.uid();
        List<Attack> attacks = attacks(root);
        Path base = Files.createTempDirectory("ralon-mount-attacks");
        TO_DELETE.add(base);
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        String kitcp = SandboxKit.copyKit(base.resolve("kit"));
        Path home = base.resolve("home");
        Path jnatmp = home.resolve("jna");
        Files.createDirectories(jnatmp);
        Path scriptFile = base.resolve("kit/attacks.sh");
        Files.writeString(scriptFile, script(attacks));
        SandboxKit.makeReadable(base.resolve("kit"));
        Path control = base.resolve("control/project");
        Path sandboxed = base.resolve("sandboxed/project");
        makeProject(control, attacks, home);
        makeProject(sandboxed, attacks, home);
        if (asNobody) {
            SandboxKit.chownTree(base.resolve("control"), uid);
            SandboxKit.chownTree(base.resolve("sandboxed"), uid);
            SandboxKit.chownTree(home, uid);
        }
        // A process of the same user started plainly outside any sandbox: the /proc/PID/root attack goes through it.
        Process sleeper = new ProcessBuilder(SandboxKit.as(asNobody, List.of("/bin/sleep", "600"))).start();
        try {
            Thread.sleep(200);
            Map<String, String> snapshotsControl = new LinkedHashMap<>();
            Map<String, String> snapshotsSandboxed = new LinkedHashMap<>();
            for (Attack a : attacks) {
                for (String t : a.targets()) {
                    snapshotsControl.put(t, SandboxKit.snapshot(control, t));
                    snapshotsSandboxed.put(t, SandboxKit.snapshot(sandboxed, t));
                }
            }
            String sleeperRootOwner = String.valueOf(Files.getAttribute(Path.of("/proc/" + sleeper.pid() + "/root"),
                    "unix:uid", java.nio.file.LinkOption.NOFOLLOW_LINKS));
            Map<String, String> env = new LinkedHashMap<>();
            env.put("HOME", home.toString());
            env.put("SLEEPER", Long.toString(sleeper.pid()));
            env.put("JAVA", SandboxKit.java());
            env.put("KITCP", kitcp);
            env.put("JNATMP", jnatmp.toString());
            env.put("RALON_TEST_ENV", "hello env");
            env.put("JAVA_TOOL_OPTIONS", "-Dralon.test.marker=1");

            Map<String, String> controlEnv = new LinkedHashMap<>(env);
            controlEnv.put("P", control.toString());
            controlEnv.put("LOG", base.resolve("control/attack.log").toString());
            Files.writeString(base.resolve("control/attack.log"), "");
            if (asNobody) {
                SandboxKit.chownTree(base.resolve("control/attack.log"), uid);
            }
            var controlRun = SandboxKit.run(SandboxKit.as(asNobody, List.of("/bin/sh", scriptFile.toString())),
                    control, controlEnv, 120);

            Map<String, String> boxEnv = new LinkedHashMap<>(env);
            boxEnv.put("P", sandboxed.toString());
            boxEnv.put("LOG", sandboxed.resolve("free/attack.log").toString());
            List<String> host = new ArrayList<>(List.of(SandboxKit.java(), "-XX:-MaxFDLimit", "-Djna.tmpdir=" + jnatmp,
                    "-cp", kitcp, TestHost.class.getName(), sandboxed.toString()));
            for (String p : protectedPaths(attacks)) {
                host.add(sandboxed.resolve(p).toString());
            }
            host.add("--");
            host.add("/bin/sh");
            host.add(scriptFile.toString());
            var box = SandboxKit.run(SandboxKit.as(asNobody, host), sandboxed, boxEnv, 180);
            String log = Files.exists(sandboxed.resolve("free/attack.log"))
                    ? Files.readString(sandboxed.resolve("free/attack.log")) : "(no log)";
            String context = "\n--- sandbox output:\n" + box.output() + "\n--- attack log:\n" + log
                    + "\n--- control output:\n" + controlRun.output();

            List<DynamicTest> tests = new ArrayList<>();
            String who = " [uid " + uid + "]";
            tests.add(DynamicTest.dynamicTest("sandbox ran the command and passed its exit code" + who,
                    () -> assertEquals(42, box.exit(), "exit code" + context)));
            tests.add(DynamicTest.dynamicTest("control ran without the sandbox" + who,
                    () -> assertEquals(42, controlRun.exit(), "control exit code" + context)));
            tests.add(DynamicTest.dynamicTest("command runs as the invoking user" + who, () -> {
                assertEquals(Integer.toString(uid), read(sandboxed, "free/uid"), "id -u" + context);
                assertEquals(Integer.toString(uid), read(sandboxed, "free/gid"), "id -g" + context);
            }));
            tests.add(DynamicTest.dynamicTest("command keeps cwd and environment" + who, () -> {
                assertEquals(sandboxed.toString(), read(sandboxed, "free/pwd"), "cwd" + context);
                assertEquals("hello env", read(sandboxed, "free/env"), "env" + context);
                assertEquals("-Dralon.test.marker=1", read(sandboxed, "free/jto"),
                        "JAVA_TOOL_OPTIONS reaches the command" + context);
            }));
            String nofileOutside = SandboxKit.run(SandboxKit.as(asNobody, List.of("/bin/sh", "-c", "ulimit -n")),
                    base, Map.of(), 30).output().trim();
            tests.add(DynamicTest.dynamicTest("command gets the user's RLIMIT_NOFILE soft limit" + who,
                    () -> assertEquals(nofileOutside, read(sandboxed, "free/nofile"), "ulimit -n" + context)));
            tests.add(DynamicTest.dynamicTest("command replaced the host process (same pid, nothing beside it)" + who,
                    () -> assertEquals(Long.toString(box.pid()), read(sandboxed, "free/pid"), "pid" + context)));
            tests.add(DynamicTest.dynamicTest("unprotected writes and reads keep working" + who, () -> {
                assertEquals("ok", read(sandboxed, "free/new.txt"), "new file in an unprotected directory" + context);
                assertEquals("changed", read(sandboxed, "free/existing.txt"), "existing unprotected file" + context);
                assertEquals("ok", read(sandboxed, "newroot.txt"), "new file next to protected files" + context);
                assertEquals("ok", read(sandboxed, "way2/newdir/f"), "new dir on the way" + context);
                assertEquals("original write.txt", read(sandboxed, "free/read-copy"), "read a protected file" + context);
                assertEquals("0", read(sandboxed, "free/gitstatus.rc"), "git status" + read(sandboxed, "free/gitstatus")
                        + context);
            }));
            tests.add(DynamicTest.dynamicTest("the outside process used for /proc/PID/root is the same user's" + who,
                    () -> assertEquals(Integer.toString(uid), sleeperRootOwner,
                            "/proc/PID/root of the outside process is owned by root: it is non-dumpable, and the"
                                    + " /proc attack would be blocked for the wrong reason")));
            for (Attack a : attacks) {
                tests.add(DynamicTest.dynamicTest("blocks: " + a.name() + who, () -> {
                    List<String> controlChanges = new ArrayList<>();
                    List<String> boxChanges = new ArrayList<>();
                    for (String t : a.targets()) {
                        String cAfter = SandboxKit.snapshot(control, t);
                        if (!cAfter.equals(snapshotsControl.get(t))) {
                            controlChanges.add(t);
                        }
                        String bAfter = SandboxKit.snapshot(sandboxed, t);
                        if (!bAfter.equals(snapshotsSandboxed.get(t))) {
                            boxChanges.add(t + ": before [" + snapshotsSandboxed.get(t) + "] after [" + bAfter + "]");
                        }
                    }
                    assertTrue(!controlChanges.isEmpty(), "attack '" + a.name() + "' changed nothing even WITHOUT"
                            + " the sandbox: it proves nothing" + context);
                    assertTrue(boxChanges.isEmpty(), "attack '" + a.name() + "' got through the sandbox: "
                            + String.join("; ", boxChanges) + context);
                }));
            }
            return tests.stream();
        } finally {
            sleeper.destroyForcibly();
        }
    }

    private static String read(Path project, String rel) throws IOException {
        Path p = project.resolve(rel);
        return Files.exists(p) ? Files.readString(p).trim() : "(missing " + rel + ")";
    }
}
