package dev.ralon.linux;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How {@link LauncherNamespace} reads the kernel's answers (the formats of proc(5) and user_namespaces(7)); the route
 * itself is exercised end to end by the cli's MountRoutesE2ETest and the conformance kit.
 */
class LauncherNamespaceTest {
    @Test
    void onlyAMapOfRootAloneNamesTheInvoker() {
        assertEquals(1000, LauncherNamespace.rootMappedTo("         0       1000          1\n"));
        assertEquals(0, LauncherNamespace.rootMappedTo("0 0 1"));
        // the initial namespace, a range, another inside id, two lines, garbage: not the launcher's namespace
        assertEquals(-1, LauncherNamespace.rootMappedTo("         0          0 4294967295\n"));
        assertEquals(-1, LauncherNamespace.rootMappedTo("0 100000 65536\n"));
        assertEquals(-1, LauncherNamespace.rootMappedTo("1000 1000 1\n"));
        assertEquals(-1, LauncherNamespace.rootMappedTo("0 1000 1\n1 100000 1\n"));
        assertEquals(-1, LauncherNamespace.rootMappedTo(""));
        assertEquals(-1, LauncherNamespace.rootMappedTo("0 x 1"));
        assertEquals(-1, LauncherNamespace.rootMappedTo("0 4294967295 1"));
    }

    @Test
    void aSharedMountAnywhereDisqualifiesTheNamespace() {
        String privateRoot = "24 1 0:21 / / rw,relatime - ext4 /dev/sda1 rw\n";
        String shared = "25 24 0:22 / /proc rw,nosuid shared:12 - proc proc rw\n";
        String slave = "26 24 0:23 / /sys rw master:3 - sysfs sysfs rw\n";
        String namedLikeAField = "27 24 0:24 / /shared:1 rw - tmpfs tmpfs rw\n";
        assertFalse(LauncherNamespace.anyShared(privateRoot + slave + namedLikeAField));
        assertTrue(LauncherNamespace.anyShared(privateRoot + shared));
    }

    @Test
    void aVariableThatNamesAnotherProcessOrNoneIsIgnored() {
        // pid 1 is never this test's JVM; and outside such a namespace the answer is empty even for its own pid
        assertTrue(LauncherNamespace.read("1").isEmpty());
        assertTrue(LauncherNamespace.read(null).isEmpty());
        assertTrue(LauncherNamespace.read(Long.toString(ProcessHandle.current().pid())).isEmpty());
    }
}
