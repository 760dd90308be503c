package dev.ralon.linux;

import dev.ralon.testsupport.Requirements;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seccomp user notification for real: a child JVM ({@link NotifyChild}) under a filter that notifies mkdir, this JVM
 * holding the only listener. What the broker is built on: the call waits for the answer, the broker reads the path
 * from the caller's memory, performs the call itself or refuses it with an errno, or lets the kernel run it; and when
 * the listener is gone the call fails (closed), it never runs. Checked from outside: whether the directory exists.
 */
class SeccompNotifyTest {
    private static final int WAIT_MS = 20_000;

    @TempDir
    Path tmp;

    @BeforeEach
    void kernelHasIt() {
        boolean has;
        try {
            SeccompNotify.checkSizes();
            has = true;
        } catch (ExecException e) {
            has = false;
        }
        Requirements.require(has, "seccomp user notification (Linux 5.0; CONTINUE 5.5; pidfd_getfd 5.6)");
    }

    /** The child, started, with this JVM holding its listener; the child waits for {@link Child#go}. */
    private final class Child implements AutoCloseable {
        final Process process;
        final BufferedReader out;
        private int listener;
        final Path target;

        Child(Path target) throws Exception {
            this(target, false);
        }

        Child(Path target, boolean landlock) throws Exception {
            this.target = target;
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            process = new ProcessBuilder(java, "-XX:-UsePerfData", "-Xshare:auto", "-cp",
                    System.getProperty("java.class.path"), NotifyChild.class.getName(), target.toString(), landlock ? "landlock" : "plain")
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String first = out.readLine();
            assertNotNull(first, "the child said nothing");
            if (first.startsWith("no landlock")) {
                Requirements.unmet("Landlock: " + first);
            }
            assertTrue(first.startsWith("listener "), first);
            listener = SeccompNotify.copyDescriptor((int) process.pid(), Integer.parseInt(first.substring(9)));
        }

        void go() throws Exception {
            OutputStream in = process.getOutputStream();
            in.write("go\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        /** The next notification for {@link #target}; other mkdirs the JVM makes are let through to the kernel. */
        SeccompNotify.Call next() throws Exception {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            while (System.nanoTime() < until) {
                SeccompNotify.Call c = SeccompNotify.receive(listener, 1000);
                if (c == null) {
                    continue;
                }
                byte[] path = SeccompNotify.readString(c.pid(), pathArgument(c));
                assertTrue(SeccompNotify.stillWaiting(listener, c.id()), "the caller stopped waiting");
                if (path != null && SeccompNotify.text(path).equals(target.toString())) {
                    return c;
                }
                SeccompNotify.answer(listener, c.id(), 0, 0, true);
            }
            throw new AssertionError("no mkdir of " + target + " within " + WAIT_MS + " ms");
        }

        String result() throws Exception {
            String line = out.readLine();
            assertTrue(process.waitFor(WAIT_MS, TimeUnit.MILLISECONDS), "the child did not end");
            return line;
        }

        /** Closes this JVM's copy of the listener (once): the broker is gone. */
        void closeListener() {
            if (listener >= 0) {
                LibC.close(listener);
                listener = -1;
            }
        }

        @Override
        public void close() {
            process.destroyForcibly();
            closeListener();
        }
    }

    private static long pathArgument(SeccompNotify.Call c) {
        boolean at = c.nr() == 258 || c.nr() == 34; // mkdirat(dirfd, path, mode); mkdir(path, mode)
        return c.args()[at ? 1 : 0];
    }

    @Test
    void theBrokerPerformsTheCallItselfAndTheCallerSeesSuccess() throws Exception {
        Path target = tmp.resolve("made-by-broker");
        try (Child child = new Child(target)) {
            child.go();
            SeccompNotify.Call c = child.next();
            Files.createDirectory(target); // the broker acts, on the path it read
            assertTrue(SeccompNotify.answer(child.listener, c.id(), 0, 0, false));
            assertEquals("made", child.result());
        }
        assertTrue(Files.isDirectory(target));
    }

    @Test
    void aRefusalIsTheErrnoTheBrokerGivesAndNothingIsMade() throws Exception {
        Path target = tmp.resolve("refused");
        try (Child child = new Child(target)) {
            child.go();
            SeccompNotify.Call c = child.next();
            assertTrue(SeccompNotify.answer(child.listener, c.id(), 0, LinuxAbi.EACCES, false));
            String r = child.result();
            assertTrue(r.startsWith("failed AccessDeniedException"), r);
        }
        assertFalse(Files.exists(target));
    }

    @Test
    void continueLetsTheKernelRunTheCall() throws Exception {
        Path target = tmp.resolve("made-by-kernel");
        try (Child child = new Child(target)) {
            child.go();
            SeccompNotify.Call c = child.next();
            assertTrue(SeccompNotify.answer(child.listener, c.id(), 0, 0, true));
            assertEquals("made", child.result());
        }
        assertTrue(Files.isDirectory(target));
    }

    @Test
    void withTheListenerGoneTheCallFailsAndNeverRuns() throws Exception {
        Path target = tmp.resolve("no-broker");
        try (Child child = new Child(target)) {
            child.closeListener(); // the broker dies: the child closes its own copy when told to go
            child.go();
            String r = child.result();
            assertTrue(r.startsWith("failed "), r);
            assertTrue(r.contains("Function not implemented") || r.contains("ENOSYS"), r);
        }
        assertFalse(Files.exists(target));
    }

    @Test
    void aBrokerOutsideTheLandlockDomainMakesWhatTheDomainRefuses() throws Exception {
        Path target = tmp.resolve("inside-a-create-restricted-directory");
        try (Child child = new Child(target, true)) {
            child.go();
            SeccompNotify.Call c = child.next();
            Files.createDirectory(target); // this JVM is outside the child's domain
            assertTrue(SeccompNotify.answer(child.listener, c.id(), 0, 0, false));
            assertEquals("made", child.result());
        }
        assertTrue(Files.isDirectory(target));
    }

    @Test
    void continueUnderLandlockLeavesTheDecisionToTheDomain() throws Exception {
        Path target = tmp.resolve("continued-into-the-domain");
        try (Child child = new Child(target, true)) {
            child.go();
            SeccompNotify.Call c = child.next();
            assertTrue(SeccompNotify.answer(child.listener, c.id(), 0, 0, true));
            String r = child.result();
            assertTrue(r.startsWith("failed AccessDeniedException"), "Landlock still decides after CONTINUE: " + r);
        }
        assertFalse(Files.exists(target));
    }

    @Test
    void theProgramNotifiesOnlyTheNamedCallsOfThisArchitecture() {
        int[][] p = SeccompNotify.program(List.of(83, 258));
        assertEquals(8, p.length);
        assertEquals(SeccompNotify.SECCOMP_RET_USER_NOTIF, p[7][3]);
        assertEquals(TerminalGuard.SECCOMP_RET_ALLOW, p[6][3]);
        assertEquals(TerminalGuard.SECCOMP_RET_ERRNO | LinuxAbi.ENOSYS, p[2][3]);
    }
}
