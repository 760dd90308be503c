package dev.ralon.cli;

import dev.ralon.testsupport.Leftovers;
import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * One copy of the real executable per test JVM that every user may read and run ({@code /tmp/ralon-e2e-exe-*}, the
 * directory this JVM's user's and mode 755: uid 65534 can neither replace it nor plant a {@code .ralon-cds} beside it),
 * with its start-up archive made once, before the first test runs it: installed as a user installs it, and started as
 * every later start of an install is.
 *
 * <p>Why (#32): each case used to run a copy of its own, in a directory of its own; the launcher keys its archive by
 * the executable's path, so every case's first start ran without one and started the archive builder in the
 * background (a training run and a dump: ~3.3 s of CPU, measured with /proc/stat, against ~0.3 s for a start with the
 * archive), some hundred times a suite. The builder and the archive-less start stay covered where they are the
 * subject: {@link CdsE2ETest}, {@link PluginsE2ETest}, and the classes with a copy of their own.
 *
 * <p>It is a {@link ReadableExecutable} (removed when the JVM ends). Not for a test that writes beside the executable (plugins, an archive of its own): those copy it.
 */
final class SharedExecutable {
    private static Path exe;

    private SharedExecutable() {
    }

    /** The shared copy, made (and its archive built, within 180 s) on the first call in this JVM. */
    static synchronized Path exe() {
        if (exe == null) {
            try {
                exe = make();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return exe;
    }

    private static Path make() throws IOException, InterruptedException {
        String ralon = System.getProperty("ralon.executable");
        if (ralon == null) {
            fail("system property ralon.executable is not set: run through Maven (mvn verify)");
        }
        ReadableExecutable copy = ReadableExecutable.create("ralon-e2e-exe-");
        Leftovers.removedAtExit(copy.base()); // by the hook below, after the guard has judged this JVM's tests
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                copy.delete();
            } catch (IOException e) {
                // the JVM is ending; /tmp keeps a copy of the executable
            }
        }, "remove " + copy.base()));
        // Any start begins the archive builder (the launcher, detached); wait for its archive (a CDS archive on JDK 17,
        // an AOT cache on 25+) and for its lock to go, or go on without it (the starts are then slower, not different).
        ProcessResult first = TestProcess.of(copy.exe().toString(), "--version").in(copy.base()).without("RALON_DEBUG")
                .stdin("").timeout(120).run();
        if (first.code() != 0) {
            fail("the executable does not start: " + first);
        }
        Path cds = copy.base().resolve(".ralon-cds");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < end && CdsE2ETest.archive(cds).isEmpty()) {
            Thread.sleep(100);
        }
        if (CdsE2ETest.archive(cds).isEmpty()) {
            System.err.println("[e2e] the start-up archive of " + copy.exe() + " was not built within 180 s: the"
                    + " end-to-end tests run without it (slower)");
        }
        return copy.exe();
    }
}
