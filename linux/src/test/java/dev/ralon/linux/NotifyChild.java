package dev.ralon.linux;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The process under the filter in {@link SeccompNotifyTest}: installs a filter that notifies mkdir and mkdirat,
 * prints its listener descriptor, waits for {@code go} on standard input, closes its own copy of the listener (the
 * test's copy is then the only one), tries {@code mkdir ARG} and prints what came of it. With a second argument
 * {@code landlock}, the process first enters a Landlock domain that handles LANDLOCK_ACCESS_FS_MAKE_DIR and grants it
 * nowhere: no directory can be made by this process, as in a create-restricted directory of the landlock backend.
 */
public final class NotifyChild {
    private NotifyChild() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 1 && args[1].equals("landlock")) {
            enterLandlockDomainWithoutMkdir();
        }
        List<Integer> mkdirs = LinuxAbi.ARM64 ? List.of(34) : List.of(83, 258); // mkdirat; x86_64 mkdir, mkdirat
        int listener = SeccompNotify.install(SeccompNotify.program(mkdirs));
        System.out.println("listener " + listener);
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if (!"go".equals(in.readLine())) {
            System.exit(3);
        }
        LibC.close(listener);
        try {
            Files.createDirectory(Path.of(args[0]));
            System.out.println("made");
        } catch (Exception e) {
            System.out.println("failed " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        System.out.flush();
    }

    /**
     * landlock_create_ruleset({handled_access_fs = MAKE_DIR}, 8, 0), no rule, landlock_restrict_self (after
     * no_new_privs, landlock(7)): MAKE_DIR is denied beneath /. The 8-byte attribute is ABI 1's size.
     */
    private static void enterLandlockDomainWithoutMkdir() {
        com.sun.jna.Memory attr = new com.sun.jna.Memory(8);
        attr.setLong(0, 1L << 7); // LANDLOCK_ACCESS_FS_MAKE_DIR (include/uapi/linux/landlock.h)
        long fd = LibC.syscall(LinuxAbi.SYS_LANDLOCK_CREATE_RULESET, com.sun.jna.Pointer.nativeValue(attr), 8, 0, 0);
        if (fd < 0 || LibC.prctl(LinuxAbi.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                || LibC.syscall(LinuxAbi.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0, 0) != 0) {
            System.out.println("no landlock " + com.sun.jna.Native.getLastError());
            System.exit(4);
        }
        java.lang.ref.Reference.reachabilityFence(attr);
    }
}
