package dev.ralon.conformance;

import dev.ralon.conformance.KitRun.Case;
import dev.ralon.conformance.KitRun.Outcome;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;

/**
 * The cases whose attack goes through a helper of the user's outside the sandbox ({@link Attack#viaHelper()}): the
 * kit starts the helper as the kit's user, outside any sandbox (a Unix socket listener,
 * {@link dev.ralon.conformance.attack.SocketHelper}, or a shell that appends to the target on SIGUSR1); then the
 * command reaches it through {@code ralon run --backend NAME} (the verdict), then again without {@code ralon run}
 * with a new helper (the control: the helper does act for whoever reaches it). What the host's session guard refuses
 * (docs/security.md, "The session: helpers, signals and debuggers outside") holds under every backend, noop included,
 * so the control cannot be noop. Outcomes are what changed on disk, read from outside.
 */
final class HelperCases {
    private static final int SECONDS = 90;

    private final String backend;
    private final int uid;
    private final Path proj;
    private final Path home;
    private final CaseWatch watcher;
    private final String classpath;

    HelperCases(KitProject project, String backend, int uid, CaseWatch watcher, String classpath) {
        this.backend = backend;
        this.uid = uid;
        this.proj = project.proj;
        this.home = project.home;
        this.watcher = watcher;
        this.classpath = classpath;
    }

    /**
     * Runs the helper cases side by side, one thread each: every case has its own helper, target, socket and files
     * (c/ATTACK-KIND/, tmp/helper-ID-*), and its own two attempts in order (sandboxed, then plain), so nothing one
     * case does can reach another's reading. They mostly wait (on a helper's start, on a helper that was not
     * reached); in turn they took about 6 s a run.
     */
    void run(List<Case> cases, Map<String, SortedMap<String, String>> before, Map<String, Outcome> outcomes,
             Map<String, Outcome> plainOutcomes) throws IOException {
        List<Case> helped = cases.stream().filter(c -> c.attack().viaHelper()).toList();
        if (helped.isEmpty()) {
            return;
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(helped.size());
        try {
            List<java.util.concurrent.Future<Outcome[]>> results = new ArrayList<>();
            for (Case c : helped) {
                results.add(pool.submit(() -> {
                    String sandboxed = attempt(c, true);
                    SortedMap<String, String> after = watcher.watch(c);
                    Outcome inSandbox = new Outcome(sandboxed, watcher.changes(c, before.get(c.id()), after));
                    String plain = attempt(c, false);
                    return new Outcome[] {inSandbox, new Outcome(plain, watcher.changes(c, after, watcher.watch(c)))};
                }));
            }
            for (int i = 0; i < helped.size(); i++) {
                Outcome[] o = results.get(i).get(); // each attempt is bounded (SECONDS; the helper's start, 30 s)
                outcomes.put(helped.get(i).id(), o[0]);
                plainOutcomes.put(helped.get(i).id(), o[1]);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException("a helper case failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private List<String> java(String main) {
        List<String> cmd = new ArrayList<>(AttackScript.javaCommand(home, main));
        cmd.set(cmd.indexOf("@CP@"), classpath);
        return cmd;
    }

    /** One attempt: a new helper, the attack (through ralon run or plainly); returns its rc and output, shortened. */
    private String attempt(Case c, boolean sandboxed) throws IOException {
        Path tmp = home.resolve("tmp");
        Files.createDirectories(tmp);
        String tag = c.id() + (sandboxed ? "-s" : "-p");
        Path ready = tmp.resolve("helper-" + tag + ".up");
        List<String> helperCmd;
        List<String> attack;
        boolean socket = Attack.HELPER_UNIX_SOCKET.equals(c.attack().program());
        if (socket) {
            Path sock = tmp.resolve("h-" + tag + ".sock"); // sun_path holds 108 bytes: kept short
            helperCmd = java("dev.ralon.conformance.attack.SocketHelper");
            helperCmd.addAll(List.of(sock.toString(), c.target().toString()));
            attack = java("dev.ralon.conformance.attack.AttackProgram");
            attack.addAll(List.of("unix-connect", c.id(), c.target().toString(), sock.toString()));
            ready = sock;
        } else if (Attack.HELPER_PROC_ROOT.equals(c.attack().program())) {
            helperCmd = List.of("/bin/sh", "-c", ": > \"$0\"; exec sleep 600", ready.toString());
            attack = List.of("/bin/sh", "-c", "echo pwned >> \"/proc/$0/root$1\"", "PID", c.target().toString());
        } else {
            helperCmd = List.of("/bin/sh", "-c", "trap 'echo pwned >> \"$0\"; exit 0' USR1; : > \"$1\";"
                    + " i=0; while [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done", c.target().toString(), ready.toString());
            attack = null; // needs the helper's pid
        }
        ProcessBuilder hb = new ProcessBuilder(KitHost.asUser(uid, helperCmd)).directory(proj.toFile())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("helper-" + tag + ".out").toFile());
        env(hb.environment());
        Process helper = hb.start();
        try {
            for (int i = 0; i < 300 && !Files.exists(ready) && helper.isAlive(); i++) {
                Thread.sleep(100);
            }
            if (!Files.exists(ready)) {
                return "(the helper did not start: " + KitHost.readOrNull(tmp.resolve("helper-" + tag + ".out")) + ")";
            }
            String pid = Long.toString(helper.pid()); // setpriv and sh exec: the same pid
            if (attack == null) {
                attack = List.of("/bin/kill", "-USR1", pid);
            } else {
                attack = attack.stream().map(a -> a.equals("PID") ? pid : a).toList();
            }
            List<String> cmd = new ArrayList<>();
            if (sandboxed) {
                Map<String, String> shellEnv = new LinkedHashMap<>(System.getenv());
                env(shellEnv);
                List<String> host = java(KitRun.MAIN);
                host.add(1, "-XX:-MaxFDLimit");
                List<String> inner = new ArrayList<>(KitLocale.envPrefix(shellEnv));
                inner.addAll(host);
                // --write-anywhere: these cases attack processes outside, not the confinement (KitRun's runs do)
                inner.addAll(List.of("run", "--write-anywhere", "--backend", backend, "--"));
                inner.addAll(attack);
                cmd.addAll(KitHost.asUser(uid, inner));
            } else {
                cmd.addAll(KitHost.asUser(uid, attack));
            }
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(proj.toFile()).redirectErrorStream(true);
            env(pb.environment());
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "(timed out)";
            }
            if (!Attack.HELPER_PROC_ROOT.equals(c.attack().program())) {
                helper.waitFor(2, TimeUnit.SECONDS); // a helper that was reached acts, then exits
            }
            String text = new String(out, StandardCharsets.UTF_8).strip().replace('\n', ' ');
            return p.exitValue() + (text.isEmpty() ? "" : " " + (text.length() > 400 ? text.substring(text.length() - 400) : text));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } finally {
            helper.destroyForcibly();
        }
    }

    private void env(Map<String, String> env) {
        env.put("HOME", home.toString());
        env.put("TMPDIR", home.resolve("tmp").toString());
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.remove("JAVA_TOOL_OPTIONS");
        env.remove("_JAVA_OPTIONS");
        env.remove("RALON_ORIG_NOFILE");
    }
}
