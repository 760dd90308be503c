package dev.ralon.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The attacks that go through the user's terminal ({@link Attack#viaTerminal()}): an interactive {@code /bin/sh} on a
 * fresh pseudo-terminal ({@code script(1)}, util-linux), as the kit's user, stands for the user's shell. The test types
 * one command line into it (the attack program, through {@code ralon run} or plainly), waits until it has returned,
 * types one more line, and leaves: whatever the attack pushed into the terminal's input queue was read and run by that
 * shell, outside any sandbox, in between. The verdict, as always, is the disk read from outside.
 */
final class TerminalAttack {
    private static final int SECONDS = 90;

    private TerminalAttack() {
    }

    /**
     * Runs {@code commandLine} (a shell command line, already quoted) in an interactive shell on a new terminal, in
     * {@code cwd}, as the user {@code userPrefix} switches to (empty: this user), with {@code env}. Returns the
     * terminal's transcript; never throws for a misbehaving command (a timeout is written into the transcript).
     */
    static String session(List<String> userPrefix, Path cwd, Map<String, String> env, String commandLine)
            throws IOException {
        StringBuilder inner = new StringBuilder();
        for (String part : userPrefix) {
            inner.append(AttackScript.q(part)).append(' ');
        }
        inner.append("/bin/sh -i");
        // env --default-signal: a JVM started in the background has SIGINT ignored, and an ignored signal stays
        // ignored across exec (signal(7)); the user's terminal session has it at its default.
        ProcessBuilder pb = new ProcessBuilder("env", "--default-signal=INT,QUIT", "script", "-qfec", inner.toString(),
                "/dev/null").directory(cwd.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().put("TERM", "dumb");
        Process p = pb.start();
        StringBuffer transcript = new StringBuffer();
        Thread reader = new Thread(() -> {
            byte[] buf = new byte[4096];
            try (InputStream in = p.getInputStream()) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    transcript.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                transcript.append("\n(reading the terminal failed: ").append(e).append(")\n");
            }
        }, "ralon-kit-pty");
        reader.setDaemon(true);
        reader.start();
        try (OutputStream keys = p.getOutputStream()) {
            // typed lines show the markers split by "", so only the shell's own output matches
            type(keys, "echo SHELL\"\"-UP\n");
            if (await(p, transcript, "SHELL-UP")) {
                type(keys, commandLine + "; echo RAN\"\"-DONE\n");
                // whatever was injected now sits in the input queue ahead of the next line: the shell runs it first
                if (await(p, transcript, "RAN-DONE")) {
                    type(keys, "echo END\"\"-MARK\n");
                    await(p, transcript, "END-MARK");
                }
            }
            type(keys, "exit\n");
        } catch (IOException e) {
            transcript.append("\n(typing into the terminal failed: ").append(e).append(")\n");
        } finally {
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
                reader.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
        return transcript.toString();
    }

    private static void type(OutputStream keys, String s) throws IOException {
        keys.write(s.getBytes(StandardCharsets.UTF_8));
        keys.flush();
    }

    private static boolean await(Process p, StringBuffer transcript, String marker) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
        while (!transcript.toString().contains(marker)) {
            if (System.nanoTime() > deadline || !p.isAlive()) {
                transcript.append("\n(the terminal never showed ").append(marker).append(")\n");
                return false;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
