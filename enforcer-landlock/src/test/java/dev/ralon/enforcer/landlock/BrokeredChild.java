package dev.ralon.enforcer.landlock;

import dev.ralon.linux.LibC;
import dev.ralon.linux.LinuxAbi;
import dev.ralon.linux.SeccompNotify;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The command under the broker in {@link BrokerTest}, in its working directory ROOT: enters a Landlock domain in
 * which ROOT is create-restricted as the landlock backend makes it (no right to make or remove an entry there, no
 * right to write its files but {@code README}'s; everything beneath OUTSIDE granted), installs the broker's filter,
 * prints its listener, waits for {@code go}, closes its own copy of the listener, then runs each operation
 * ({@code mkdir PATH}, {@code rm PATH}, {@code write PATH TEXT} or {@code mv FROM TO}) and prints {@code ok} or {@code failed WHY} per line.
 *
 * <p>Arguments: ROOT OUTSIDE then operations as pairs or triples.
 */
public final class BrokeredChild {
    private BrokeredChild() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        Path outside = Path.of(args[1]);
        enterDomain(root, outside);
        int listener = SeccompNotify.install(SeccompNotify.programOf(Broker.calls()));
        System.out.println("listener " + listener);
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if (!"go".equals(in.readLine())) {
            System.exit(3);
        }
        LibC.close(listener);
        for (int i = 2; i < args.length; ) {
            String op = args[i];
            Path p = Path.of(args[i + 1]);
            boolean two = op.equals("write") || op.equals("mv");
            String second = two ? args[i + 2] : null;
            i += two ? 3 : 2;
            try {
                switch (op) {
                    case "mkdir" -> Files.createDirectory(p);
                    case "rm" -> Files.delete(p);
                    case "write" -> Files.writeString(p, second);
                    case "mv" -> Files.move(p, Path.of(second), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    default -> throw new IllegalArgumentException(op);
                }
                System.out.println("ok");
            } catch (Exception e) {
                System.out.println("failed " + e.getClass().getSimpleName());
            }
        }
        System.out.flush();
    }

    private static void enterDomain(Path root, Path outside) {
        long handled = Access.MAKE_DIR | Access.MAKE_REG | Access.WRITE_FILE | Access.REMOVE_FILE | Access.REMOVE_DIR;
        Memory attr = LinuxCalls.rulesetAttr(handled, 1);
        long ruleset = LibC.syscall(LinuxAbi.SYS_LANDLOCK_CREATE_RULESET, Pointer.nativeValue(attr), attr.size(), 0, 0);
        if (ruleset < 0) {
            System.out.println("no landlock " + Native.getLastError());
            System.exit(4);
        }
        rule(ruleset, outside, handled);
        rule(ruleset, root.resolve("README"), Access.WRITE_FILE);
        if (LibC.prctl(LinuxAbi.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                || LibC.syscall(LinuxAbi.SYS_LANDLOCK_RESTRICT_SELF, ruleset, 0, 0, 0) != 0) {
            System.out.println("no landlock " + Native.getLastError());
            System.exit(4);
        }
        java.lang.ref.Reference.reachabilityFence(attr);
    }

    private static void rule(long ruleset, Path p, long rights) {
        int fd = LibC.openat(LinuxAbi.AT_FDCWD, (p + "\0").getBytes(StandardCharsets.UTF_8),
                LinuxAbi.O_PATH | LinuxAbi.O_CLOEXEC);
        Memory rule = LinuxCalls.pathBeneathAttr(rights, fd);
        if (fd < 0 || LibC.syscall(LinuxAbi.SYS_LANDLOCK_ADD_RULE, ruleset, LinuxCalls.LANDLOCK_RULE_PATH_BENEATH,
                Pointer.nativeValue(rule), 0) != 0) {
            System.out.println("no landlock rule " + Native.getLastError());
            System.exit(4);
        }
        java.lang.ref.Reference.reachabilityFence(rule);
    }
}
