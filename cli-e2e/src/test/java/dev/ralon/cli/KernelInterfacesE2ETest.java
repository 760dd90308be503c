package dev.ralon.cli;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;

import dev.ralon.enforcer.spi.KernelInterfaces;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A root invoker cannot change kernel settings from inside {@code ralon run}: under mount and landlock, writing
 * {@code /proc/sys/kernel/core_pattern} (a {@code |program} there runs as real root on the next crash) and
 * {@code /sys/kernel/uevent_helper} fails. The machine's settings are never changed: each write puts back the value
 * just read, and the test checks afterwards, from outside, that the value is what it was. The control is the same
 * write-back under noop, which must succeed (root can do it: the attack is real).
 */
class KernelInterfacesE2ETest {
    static final String CORE_PATTERN = "/proc/sys/kernel/core_pattern";
    static final String UEVENT_HELPER = "/sys/kernel/uevent_helper";

    @TempDir
    Path project;
    Path ralon;

    @BeforeEach
    void setUp() throws Exception {
        ralon = Path.of(System.getProperty("ralon.executable", "cli/target/ralon"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
        Files.writeString(project.resolve("secret.txt"), "s\n");
        if (!exec("id", "-u").trim().endsWith("\n0")) {
            dev.ralon.testsupport.Requirements.requireRoot("the root invoker can only be tested as root");
        }
    }

    String exec(String... cmd) throws Exception {
        ProcessResult r = TestProcess.of(cmd).in(project).mergeStderr().stdin("").timeout(120).run();
        return "rc=" + r.code() + "\n" + r.out();
    }

    /**
     * Inside the backend: read each file and write the same value back (a shell variable, not a temporary file: under
     * landlock /tmp is create-restricted when the project is in it); prints one "FILE rc=N" line per file.
     */
    String writeBack(String backend, String... files) throws Exception {
        String script = "for f in \"$@\"; do [ -e \"$f\" ] || continue;"
                + " v=$(cat \"$f\") && { printf '%s\\n' \"$v\" > \"$f\"; echo \"$f rc=$?\"; }; done";
        List<String> cmd = new java.util.ArrayList<>(List.of(ralon.toString(), "run", "--backend", backend, "--", "sh",
                "-c", script, "sh"));
        cmd.addAll(List.of(files));
        return exec(cmd.toArray(String[]::new));
    }

    @Test
    void kernelSettingsAreReadOnlyToARootCommandUnderMountAndLandlock() throws Exception {
        String before = Files.readString(Path.of(CORE_PATTERN));
        String control = writeBack("noop", CORE_PATTERN); // only core_pattern: the one the control needs
        assertTrue(control.contains(CORE_PATTERN + " rc=0"), "control: root can write core_pattern under noop (the"
                + " write-back is real): " + control);
        for (String backend : List.of("mount", "landlock")) {
            String out = writeBack(backend, CORE_PATTERN, UEVENT_HELPER);
            assertTrue(out.contains(CORE_PATTERN + " rc=") && !out.contains(CORE_PATTERN + " rc=0"),
                    backend + ": writing core_pattern must fail: " + out);
            if (Files.exists(Path.of(UEVENT_HELPER))) {
                assertTrue(out.contains(UEVENT_HELPER + " rc=") && !out.contains(UEVENT_HELPER + " rc=0"),
                        backend + ": writing uevent_helper must fail: " + out);
            }
        }
        assertEquals(before, Files.readString(Path.of(CORE_PATTERN)), "the machine's core_pattern must not change");
    }

    @Test
    void theMountPlanBindsTheKernelInterfacesReadOnlyForRoot() throws Exception {
        String out = exec(ralon.toString(), "run", "--backend", "mount", "--dry-run", "--verbose", "--", "true");
        for (java.nio.file.Path p : KernelInterfaces.PATHS) {
            if (Files.exists(p)) {
                assertTrue(out.contains("bind-readonly " + p + " "), p + " in " + out);
            }
        }
    }
}
