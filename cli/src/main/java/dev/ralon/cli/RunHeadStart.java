package dev.ralon.cli;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Enforcers;
import dev.ralon.enforcer.spi.exec.LibC;
import dev.ralon.host.Backends;

/**
 * The part of {@code ralon run}'s start that does not depend on agent.lock, done on daemon threads while the calling
 * thread reads and expands the policy (a second core does it in parallel; docs/performance.md):
 * <ul>
 *   <li>one thread initialises JNA (loading its native library, 30-40 ms; java.util.logging's {@code LogManager},
 *       which {@code Native} starts, on a third thread beside it) and then {@link LibC}, whose
 *       {@code Native.register} binds every libc function Ralon calls (reflection over its methods, JNA's type
 *       mappers, {@code Structure.FFIType}: 25-50 ms);</li>
 *   <li>the other discovers the backends meanwhile ({@link Backends#discover()}: the service files, the plugin
 *       directory; no native code), then waits for the first thread and runs the probes {@link Backends#choose} will
 *       ask, in its order: the pinned backend's, or each built-in backend's of rank above 0 until one is available.
 *       The mount probe runs the namespace chain in a child process (a fork and two execs of unshare). Built-in
 *       backends keep their probe's answer for the process (MountProbe, the Landlock ABI), so the calling thread's
 *       choice reads it. A plugin's probe is never run here: it runs where it always ran, once, on the calling
 *       thread, and the built-in probes after it are left to the choice too. When JNA or libc failed to initialise
 *       no probe runs here either.</li>
 * </ul>
 *
 * <p>Contract: nothing here changes what {@code run} decides or prints, only when the work is done. {@link #enforcers()}
 * waits for the thread and returns what discovery found; if anything failed here, it discovers again on the calling
 * thread, so that a failure is reported exactly where and as it was before (JNA's and libc's too: the first use on the
 * calling thread meets the same failure; the JVM's class-initialisation lock, JLS 12.4.2, makes a use that comes
 * while the thread still initialises a class wait for it). The thread ends with the JVM or is gone at execve(2),
 * which keeps only the calling thread.
 */
final class RunHeadStart {
    private final Thread nativeLoader;
    private final Thread thread;
    private volatile boolean nativeLoaded; // set by nativeLoader when both classes are initialised
    private Enforcers discovered; // written by the thread, read after join (Thread.join: happens-before, JLS 17.4.5)

    private RunHeadStart(String pinned) {
        nativeLoader = new Thread(this::loadNative, "ralon-native");
        nativeLoader.setDaemon(true);
        thread = new Thread(() -> work(pinned), "ralon-head-start");
        thread.setDaemon(true);
    }

    /** Starts the work for a run with backend {@code pinned} (null: the machine chooses). */
    static RunHeadStart start(String pinned) {
        RunHeadStart h = new RunHeadStart(pinned);
        h.nativeLoader.start();
        h.thread.start();
        return h;
    }

    /**
     * JNA's and {@link LibC}'s class initialisation. java.util.logging's {@code LogManager}, which {@code Native}'s
     * initialisation starts (its static Logger), is initialised on a thread of its own beside it, so that it runs
     * while {@code Native} loads its library rather than inside that (JLS 12.4.2: an initialiser that meets a class
     * being initialised by another thread waits for it, so it is initialised once either way).
     */
    private void loadNative() {
        Thread logging = new Thread(java.util.logging.LogManager::getLogManager, "ralon-logging");
        logging.setDaemon(true);
        logging.start();
        try {
            Class.forName("com.sun.jna.Native", true, RunHeadStart.class.getClassLoader());
            Class.forName(LibC.class.getName(), true, RunHeadStart.class.getClassLoader());
            nativeLoaded = true;
        } catch (Throwable e) {
            // the calling thread's first use meets the same failure and reports it
        }
    }

    private void work(String pinned) {
        try {
            // discovery needs no native code: it runs while JNA initialises on the other thread
            Enforcers enforcers = Backends.discover();
            nativeLoader.join();
            if (!nativeLoaded) {
                discovered = enforcers; // the probes meet JNA's failure on the calling thread, which reports it
                return;
            }
            if (pinned != null) {
                enforcers.byName(pinned).filter(RunHeadStart::builtIn).ifPresent(Backends::safeProbe);
            } else {
                for (Enforcer e : enforcers.all()) {
                    if (e.rank() <= 0) {
                        continue;
                    }
                    if (!builtIn(e) || Backends.safeProbe(e).available()) {
                        break;
                    }
                }
            }
            discovered = enforcers;
        } catch (Throwable e) {
            // redone on the calling thread, which reports it (enforcers())
        }
    }

    private static boolean builtIn(Enforcer e) {
        return "built in".equals(Backends.origin(e));
    }

    /** The backends discovery found, their probes' answers kept by the built-in ones (see the class doc). */
    Enforcers enforcers() {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Backends.discover();
        }
        Enforcers e = discovered;
        return e != null ? e : Backends.discover();
    }
}
