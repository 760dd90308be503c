package dev.ralon.cli;

import dev.ralon.testsupport.Leftovers;
import dev.ralon.testsupport.ProcessResult;


import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the real executable (and plain commands, for control runs) as root or as uid 65534, in a temporary directory
 * under /tmp that user can use, with its own HOME (CI may clone where 65534 cannot
 * read). Everything the runs may touch lives beneath {@link #base}; {@link #close()} removes it. The executable is
 * this JVM's {@link SharedExecutable}, outside {@link #base}: root's, readable by all, its archive built.
 */
final class AsUser implements AutoCloseable {
    final int uid;
    final Path base;
    final Path exe;
    final Path home;

    AsUser(int uid) throws IOException {
        this(uid, Path.of("/tmp"));
    }

    /** As {@link #AsUser(int)}, beneath {@code parent} (outside every temporary directory: /var/lib). */
    AsUser(int uid, Path parent) throws IOException {
        this.uid = uid;
        base = Leftovers.createTempDirectory(parent, "ralon-e2e-" + uid + "-").toRealPath();
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        exe = SharedExecutable.exe();
        home = Files.createDirectory(base.resolve("home"));
        Files.createDirectory(home.resolve("tmp"));
    }

    /** Gives everything beneath {@link #base} to the user, so its control runs can change it. */
    void handOver() throws Exception {
        if (uid != 0) {
            ProcessResult r = CliE2ETest.exec(base, null, Map.of(), "chown", "-R", "-h", uid + ":" + uid,
                    base.toString());
            if (r.code() != 0) {
                throw new IOException("chown failed: " + r);
            }
        }
    }

    Map<String, String> env(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", home.toString());
        // the user's own cache (JNA's library, RALON_NOTES' files), beneath base: not the build's, which another
        // user cannot write, and removed with base
        env.put("XDG_CACHE_HOME", home.resolve(".cache").toString());
        env.put("TMPDIR", home.resolve("tmp").toString());
        env.put("RALON_JAVA_OPTS", "-Djava.io.tmpdir=" + home.resolve("tmp"));
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        // a login sets SHELL; without it tmux(1) and script(1) fall back on the passwd entry's shell, which for uid
        // 65534 is nologin (CI's environment has no SHELL: tmux's window died at once there)
        env.put("SHELL", "/bin/sh");
        env.putAll(extra);
        return env;
    }

    /** The real {@code ralon} with {@code args}, as this user, in {@code cwd}. */
    ProcessResult ralon(Path cwd, String... args) throws Exception {
        List<String> c = new ArrayList<>(prefix());
        c.add(exe.toString());
        c.addAll(List.of(args));
        return CliE2ETest.exec(cwd, null, env(Map.of()), c.toArray(String[]::new));
    }

    /** The real {@code ralon} with {@code args}, as this user, in {@code cwd}, with {@code extra} in the environment. */
    ProcessResult ralonWith(Path cwd, Map<String, String> extra, String... args) throws Exception {
        List<String> c = new ArrayList<>(prefix());
        c.add(exe.toString());
        c.addAll(List.of(args));
        return CliE2ETest.exec(cwd, null, env(extra), c.toArray(String[]::new));
    }

    /** {@code sh -c script} as this user, without any sandbox (the control run). */
    ProcessResult sh(Path cwd, String script) throws Exception {
        List<String> c = new ArrayList<>(prefix());
        c.addAll(List.of("sh", "-c", script));
        return CliE2ETest.exec(cwd, null, env(Map.of()), c.toArray(String[]::new));
    }

    private List<String> prefix() {
        // this JVM's own user needs no switch (and a non-root user could not make one: setgroups is refused)
        return uid == 0 || uid == dev.ralon.testsupport.TestProcess.currentUid() ? List.of()
                : List.of("setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups");
    }

    /**
     * Skips (locally) or fails (under CI=true) unless this JVM is root, which switching to uid 65534 and the root
     * cases both need.
     */
    static void assumeRoot() throws Exception {
        ProcessResult id = CliE2ETest.exec(Path.of("/"), null, Map.of(), "id", "-u");
        require("0".equals(id.out().trim()), "these cases run the sandbox as root and as uid 65534 (setpriv), which"
                + " needs root");
    }

    /**
     * What {@code run --backend B --dry-run} said about B's availability, per (uid, backend), once per test JVM: the
     * answer is the backend's probe (host.Backends.choose), the host's and the user's, not the project's (#32: the
     * end-to-end tests asked it again for every case, a JVM start each).
     */
    private static final Map<String, ProcessResult> AVAILABILITY = new java.util.concurrent.ConcurrentHashMap<>();

    /** Skips (locally) or fails (under CI=true) unless {@code backend} can enforce on this host for this user. */
    void assumeBackend(Path cwd, String backend) throws Exception {
        String key = uid + "/" + backend;
        ProcessResult dry = AVAILABILITY.get(key);
        if (dry == null) {
            dry = ralon(cwd, "run", "--backend", backend, "--dry-run");
            AVAILABILITY.put(key, dry);
        }
        requireBackend(backend, dry);
    }

    /** Fails (CI) or skips the test when {@code dryRun}, {@code run --backend BACKEND --dry-run}, found it unavailable. */
    static void requireBackend(String backend, ProcessResult dryRun) {
        require(!dryRun.err().contains("cannot enforce on this host"), "backend " + backend + " is unavailable here: "
                + dryRun.err().trim());
    }

    /**
     * The attack matrix of the enforcement tests: every backend x {root, 65534} x attack, each case's arguments being
     * (backend, uid, then the attack's own fields).
     */
    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> matrix(List<String[]> attacks) {
        List<org.junit.jupiter.params.provider.Arguments> out = new ArrayList<>();
        for (String backend : List.of("mount", "landlock")) {
            for (int uid : new int[] {0, 65534}) {
                for (String[] a : attacks) {
                    Object[] args = new Object[a.length + 2];
                    args[0] = backend;
                    args[1] = uid;
                    System.arraycopy(a, 0, args, 2, a.length);
                    out.add(org.junit.jupiter.params.provider.Arguments.of(args));
                }
            }
        }
        return out.stream();
    }

    static void require(boolean ok, String why) {
        dev.ralon.testsupport.Requirements.require(ok, why);
    }

    @Override
    public void close() throws Exception {
        CliE2ETest.exec(Path.of("/"), null, Map.of(), "rm", "-rf", "--one-file-system", base.toString());
    }
}
