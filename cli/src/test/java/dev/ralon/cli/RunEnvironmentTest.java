package dev.ralon.cli;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** What the launcher set for ralon's own JVM (ralon.sh) is given back to the command as the user had it. */
class RunEnvironmentTest {
    @Test
    void theLaunchersLibffiDirectoryIsForRalonsJvmOnly() {
        Map<String, String> none = Run.userEnvironment(Map.of("LIBFFI_TMPDIR", "/home/u/.cache/ralon/ffi",
                "RALON_LIBFFI_SET", "1", "PATH", "/bin"));
        assertEquals(Map.of("PATH", "/bin"), none);
        Map<String, String> own = Run.userEnvironment(Map.of("LIBFFI_TMPDIR", "/home/u/.cache/ralon/ffi",
                "RALON_LIBFFI_SET", "1", "RALON_USER_LIBFFI_TMPDIR", "/mine"));
        assertEquals(Map.of("LIBFFI_TMPDIR", "/mine"), own);
        // not set by the launcher (ralon started another way): the user's value stays
        assertEquals("/x", Run.userEnvironment(Map.of("LIBFFI_TMPDIR", "/x")).get("LIBFFI_TMPDIR"));
        assertFalse(Run.userEnvironment(Map.of("RALON_LIBFFI_SET", "1")).containsKey("RALON_LIBFFI_SET"));
    }
}
