package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.Requirements;
import dev.ralon.testsupport.TestProcess;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A process left behind by one session (or any process of the user's uid) attaches to the next ralon's JVM through
 * HotSpot's attach mechanism and loads code into it before anything is locked (docs/security.md, "A process left
 * behind attaches to the next JVM"). The attacker here is {@code jcmd PID VM.version}, the JDK's own attach client, run
 * as the same uid as the JVM: what it can do, a {@code load} of a native library can too. The JVM is held alive by
 * {@code ralon hook claude-code} waiting for its payload on a FIFO. Control: the same jar started by plain {@code java},
 * without the launcher's options, is attachable, so the wait and the attack are real; through the launcher it is not.
 */
class AttachE2ETest {
    static ReadableExecutable fixture;

    @BeforeAll
    static void setUp() throws Exception {
        fixture = ReadableExecutable.sharing("ralon-attach-");
    }

    @AfterAll
    static void tearDown() throws Exception {
        fixture.delete();
    }

    /**
     * Starts {@code jvmCommand} (a hook reading a FIFO), finds its JVM, waits until it has started, then attaches to it
     * with jcmd as {@code uid}; prints "jcmd exit N" and jcmd's output.
     */
    static ProcessResult attach(int uid, String jvmCommand) throws Exception {
        String jcmd = Path.of(TestProcess.java()).resolveSibling("jcmd").toString();
        String script = "cd \"$(mktemp -d \"$HOME/attach.XXXXXX\")\" && mkfifo f && exec 3<>f\n" // a directory per run and user
                + jvmCommand + " <f >hook.out 2>hook.err & l=$!\n"
                // the launcher runs a hook's JVM as its child; plain java is the JVM itself
                + "i=0; while [ $i -lt 100 ]; do j=$(pgrep -P $l java || true); [ -n \"$j\" ] || j=$l;"
                + " grep -q dev.ralon.cli.Boot /proc/$j/cmdline 2>/dev/null && break; sleep 0.1; i=$((i + 1)); done\n"
                + "sleep 3\n" // the JVM has reached main and blocks on the FIFO
                + "\"$0\" $j VM.version > jcmd.out 2>&1; echo \"jcmd exit $?\"; cat jcmd.out\n"
                + "kill $l $j 2>/dev/null; wait $l 2>/dev/null; true\n";
        return TestProcess.of(TestProcess.asUser(uid, List.of("sh", "-c", script, jcmd)))
                .env("HOME", fixture.home().toString()).env("RALON_JAVA", TestProcess.java()).without("RALON_DEBUG")
                .without("JAVA_TOOL_OPTIONS").without("JDK_JAVA_OPTIONS").without("_JAVA_OPTIONS")
                .stdin("").timeout(120).run();
    }

    @ParameterizedTest(name = "uid {0}")
    @ValueSource(ints = {-1, TestProcess.NOBODY})
    void aProcessOfTheSameUserCannotAttachToRalonsJvm(int uidOrSelf) throws Exception {
        int uid = uidOrSelf < 0 ? TestProcess.currentUid() : uidOrSelf;
        if (uid != TestProcess.currentUid()) {
            Requirements.requireRoot("running the JVM and the attacker as uid " + uid + " (setpriv)");
        }
        String exe = fixture.exe().toString();
        ProcessResult control = attach(uid, "\"" + TestProcess.java() + "\" -cp " + exe
                + " dev.ralon.cli.Boot hook claude-code");
        assertTrue(control.out().contains("jcmd exit 0") && control.out().contains("version"),
                "control: a JVM started without the launcher's options is attachable: " + control);

        ProcessResult attack = attach(uid, exe + " hook claude-code");
        assertEquals(0, attack.code(), attack.toString());
        assertTrue(attack.out().contains("jcmd exit "), attack.toString());
        assertFalse(attack.out().contains("jcmd exit 0"), "ralon's JVM must refuse an attach: " + attack);
    }
}
