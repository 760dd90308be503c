package dev.ralon.linux;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chains {@link SessionContainer} hands to an exec; their runs are in cli's LeftoversE2ETest. */
class SessionContainerTest {
    @Test
    void afterPid1TheOuterTimeoutKeepsTheLifelineAndItsChildClosesItBeforeTheCommand() {
        List<String> argv = SessionContainer.argvAfterPid1(Path.of("/usr/bin/timeout"),
                List.of("/usr/bin/unshare", "--user", "--", "/bin/echo", "a b"));
        assertEquals(List.of("/usr/bin/timeout", "--foreground", "0", "/bin/sh", "-c", "exec 3>&-; exec \"$@\"", "sh",
                "/usr/bin/unshare", "--user", "--", "/bin/echo", "a b"), argv);
        assertThrows(IllegalArgumentException.class,
                () -> SessionContainer.argvAfterPid1(Path.of("/usr/bin/timeout"), List.of("echo")));
    }

    @Test
    void pid1IgnoresTheTerminalsSignalsAndEndsWithItsLifeline() {
        assertTrue(SessionContainer.PID1_WAIT.startsWith("trap '' INT QUIT TSTP TTIN TTOU HUP TERM;"),
                SessionContainer.PID1_WAIT);
        assertTrue(SessionContainer.PID1_WAIT.endsWith("while read -r _; do :; done <&3"), SessionContainer.PID1_WAIT);
        assertEquals(3, SessionContainer.LIFELINE_FD);
    }
}
