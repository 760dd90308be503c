package dev.ralon.enforcer.landlock;

import dev.ralon.linux.ExecException;
import dev.ralon.linux.LibC;
import dev.ralon.linux.SeccompNotify;
import dev.ralon.testsupport.Requirements;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The broker against a real Landlock domain and a real filter: a child JVM ({@link BrokeredChild}) whose project root
 * is create-restricted makes a directory, files in it and at the root through the broker (this JVM, outside the
 * domain), and cannot write a protected file however it names it: directly, absent, through a symbolic link, through
 * a hard link. Checked from outside: what exists and what each file holds.
 */
class BrokerTest {
    private static final long WAIT_MS = 20_000;

    @TempDir
    Path tmp;

    @Test
    void theBrokerMakesWhatTheDomainOverBlocksAndNothingProtected() throws Exception {
        requireNotifications();
        Path root = Files.createDirectories(tmp.resolve("project")).toRealPath();
        Path outside = Files.createDirectories(tmp.resolve("outside")).toRealPath();
        Files.writeString(root.resolve(".env"), "SECRET=1\n");
        Files.writeString(root.resolve("README"), "readme\n");
        Files.createSymbolicLink(root.resolve("link"), root.resolve(".env"));
        Files.createLink(root.resolve("hl"), root.resolve(".env"));
        // the broker's own working directory, served too: a magic link resolved by the broker would name it
        Path brokerCwd = Path.of("").toAbsolutePath().toRealPath();
        String magic = "magic-" + ProcessHandle.current().pid() + ".txt";
        Broker broker = new Broker(List.of(root, brokerCwd), List.of(root.resolve(".env"), root.resolve("secret.key"),
                root.resolve("agent.lock")));

        List<String> ops = List.of(
                "mkdir", root.resolve("target").toString(),
                "write", root.resolve("target/x").toString(), "made-inside",
                "write", root.resolve("scratch.txt").toString(), "scratch",
                "write", root.resolve(".env").toString(), "pwned",
                "write", root.resolve("secret.key").toString(), "pwned",
                "write", root.resolve("link").toString(), "pwned",
                "write", root.resolve("hl").toString(), "pwned",
                "write", root.resolve("README").toString(), "edited",
                "write", root.resolve("../outside/y").toString(), "outside",
                "write", "relative.txt", "relative",
                "mkdir", root.resolve("agent.lock").toString(),
                "write", "/proc/self/cwd/" + magic, "misdirected");
        List<String> results = runChild(broker, root, outside, ops);
        assertEquals(List.of("ok", "ok", "ok", "failed AccessDeniedException", "failed AccessDeniedException",
                "failed AccessDeniedException", "failed AccessDeniedException", "ok", "ok", "ok",
                "failed AccessDeniedException", "failed AccessDeniedException"), results);
        // the caller's /proc/self/cwd is ROOT (create-restricted): left to the kernel, refused by the domain; never
        // made in the broker's own working directory
        assertFalse(Files.exists(brokerCwd.resolve(magic)));
        assertFalse(Files.exists(root.resolve(magic)));

        assertTrue(Files.isDirectory(root.resolve("target")));
        assertEquals("made-inside", Files.readString(root.resolve("target/x")));
        assertEquals("scratch", Files.readString(root.resolve("scratch.txt")));
        assertEquals("SECRET=1\n", Files.readString(root.resolve(".env")));
        assertFalse(Files.exists(root.resolve("secret.key")));
        assertFalse(Files.exists(root.resolve("agent.lock")));
        assertEquals("edited", Files.readString(root.resolve("README")));
        assertEquals("outside", Files.readString(outside.resolve("y")));
        assertEquals("relative", Files.readString(root.resolve("relative.txt")));
    }

    @Test
    void removalsAndRenamesOfUnprotectedNamesAsSedAndEditorsMakeThem() throws Exception {
        requireNotifications();
        Path root = Files.createDirectories(tmp.resolve("project")).toRealPath();
        Path outside = Files.createDirectories(tmp.resolve("outside")).toRealPath();
        Files.writeString(root.resolve(".env"), "SECRET=1\n");
        Files.writeString(root.resolve("README"), "readme\n");
        Files.createLink(root.resolve("hl"), root.resolve(".env"));
        List<String> ops = List.of(
                "write", root.resolve("sedAbc123").toString(), "readme, edited\n",   // sed -i: a temporary file
                "mv", root.resolve("sedAbc123").toString(), root.resolve("README").toString(), // renamed over the file
                "write", root.resolve(".README.swp").toString(), "swap",           // an editor's swap file
                "rm", root.resolve(".README.swp").toString(),
                "mkdir", root.resolve("a").toString(),
                "mkdir", root.resolve("a/b").toString(),
                "mv", root.resolve("a").toString(), root.resolve("c").toString(),  // a made directory, renamed
                "write", root.resolve("c/b/x").toString(), "deep",                 // known under its new name
                "write", root.resolve("other").toString(), "other",
                "mv", root.resolve("other").toString(), root.resolve(".env").toString(),   // over a protected name
                "mv", root.resolve(".env").toString(), root.resolve("stolen").toString(), // a protected name away
                "mv", root.resolve("hl").toString(), root.resolve("hl2").toString(),      // another name of .env
                "rm", root.resolve(".env").toString(),
                "rm", root.resolve("hl").toString(),
                "mv", root.resolve("other").toString(), root.resolve("agent.lock").toString(),
                "mkdir", root.resolve(".claude").toString(),                        // on the way: made empty
                "write", root.resolve(".claude/settings.json").toString(), "hooks", // the protected path in it: no
                "write", root.resolve(".claude/notes").toString(), "notes",         // its other entries: yes
                "mv", root.resolve(".claude").toString(), root.resolve("moved").toString()); // never moved away
        List<String> results = runChild(new Broker(List.of(root), List.of(root.resolve(".env"),
                root.resolve("agent.lock"), root.resolve(".claude/settings.json"))), root, outside, ops);
        assertEquals(List.of("ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok",
                "failed AccessDeniedException", "failed AccessDeniedException", "failed AccessDeniedException",
                "failed AccessDeniedException", "failed AccessDeniedException", "failed AccessDeniedException",
                "ok", "failed AccessDeniedException", "ok", "failed AccessDeniedException"),
                results);
        assertFalse(Files.exists(root.resolve(".claude/settings.json")));
        assertEquals("notes", Files.readString(root.resolve(".claude/notes")));
        assertEquals("readme, edited\n", Files.readString(root.resolve("README")));
        assertFalse(Files.exists(root.resolve(".README.swp")));
        assertFalse(Files.exists(root.resolve("sedAbc123")));
        assertEquals("deep", Files.readString(root.resolve("c/b/x")));
        assertEquals("SECRET=1\n", Files.readString(root.resolve(".env")));
        assertEquals("SECRET=1\n", Files.readString(root.resolve("hl")));
        assertFalse(Files.exists(root.resolve("stolen")));
        assertFalse(Files.exists(root.resolve("hl2")));
        assertFalse(Files.exists(root.resolve("agent.lock")));
        assertEquals("other", Files.readString(root.resolve("other")));
    }

    @Test
    void withoutTheBrokerTheSameCallsFailClosed() throws Exception {
        requireNotifications();
        Path root = Files.createDirectories(tmp.resolve("project")).toRealPath();
        Path outside = Files.createDirectories(tmp.resolve("outside")).toRealPath();
        Files.writeString(root.resolve("README"), "readme\n");
        List<String> results = runChild(null, root, outside, List.of(
                "mkdir", root.resolve("target").toString(),
                "write", root.resolve("scratch.txt").toString(), "scratch"));
        assertEquals(2, results.size(), results.toString());
        assertTrue(results.stream().allMatch(r -> r.startsWith("failed")), results.toString());
        assertFalse(Files.exists(root.resolve("target")));
        assertFalse(Files.exists(root.resolve("scratch.txt")));
    }

    private static void requireNotifications() {
        boolean has;
        try {
            SeccompNotify.checkSizes();
            has = true;
        } catch (ExecException e) {
            has = false;
        }
        Requirements.require(has, "seccomp user notification");
    }

    /** Runs the child with {@code broker} serving its listener (null: the listener is closed, no broker). */
    private List<String> runChild(Broker broker, Path root, Path outside, List<String> ops) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:-UsePerfData", "-cp", System.getProperty("java.class.path"), BrokeredChild.class.getName(),
                root.toString(), outside.toString()));
        cmd.addAll(ops);
        Process p = new ProcessBuilder(cmd).directory(root.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread watchdog = new Thread(() -> {
            try {
                if (!p.waitFor(WAIT_MS, TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly(); // a hang is a failure, not a stuck build
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread serving = null;
        int listener = -1;
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String first = out.readLine();
            if (first != null && first.startsWith("no landlock")) {
                Requirements.unmet("Landlock: " + first);
            }
            assertTrue(first != null && first.startsWith("listener "), String.valueOf(first));
            listener = SeccompNotify.copyDescriptor((int) p.pid(), Integer.parseInt(first.substring(9)));
            if (broker == null) {
                LibC.close(listener);
                listener = -1;
            } else {
                int l = listener;
                serving = new Thread(() -> {
                    try {
                        broker.serve(l, running::get);
                    } catch (Throwable t) {
                        failed.set(t);
                    }
                }, "broker");
                serving.setDaemon(true);
                serving.start();
            }
            p.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().flush();
            List<String> results = new ArrayList<>();
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                results.add(line);
            }
            assertTrue(p.waitFor(WAIT_MS, TimeUnit.MILLISECONDS), "the child did not end");
            return results;
        } finally {
            running.set(false);
            p.destroyForcibly();
            if (serving != null) {
                serving.join(WAIT_MS);
            }
            if (listener >= 0) {
                LibC.close(listener);
            }
            assertNull(failed.get(), () -> "the broker failed: " + failed.get());
        }
    }
}
