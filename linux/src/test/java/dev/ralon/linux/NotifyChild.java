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
 * test's copy is then the only one), tries {@code mkdir ARG} and prints what came of it.
 */
public final class NotifyChild {
    private NotifyChild() {
    }

    public static void main(String[] args) throws Exception {
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
}
