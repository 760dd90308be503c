package org.example.plugins;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.util.EnumSet;
import java.util.Set;

/**
 * Plugins for the plugin-directory tests: each test jar holds one of these (and {@link Base} unless the test wants a
 * NoClassDefFoundError), with a service file naming it. None enforces anything: they test discovery, isolation and
 * host-side admission, which never look at what a backend really does.
 */
public final class PluginEnforcers {
    private PluginEnforcers() {
    }

    /** A well-behaved third-party backend that declares what Ralon's mount backend declares, and skips what it cannot. */
    public abstract static class Base implements Enforcer {
        @Override
        public Probe probe() {
            return Probe.available("test plugin");
        }

        @Override
        public Set<Guarantee> guarantees() {
            return EnumSet.complementOf(EnumSet.of(Guarantee.CREATE_MISSING));
        }

        /** Silently skips every path that does not exist and every link: the host must notice, not this plan. */
        @Override
        public Plan plan(ProtectedSet set) {
            Plan.Builder b = Plan.builder(name());
            for (ProtectedPath p : set.paths()) {
                if (p.kind() == ProtectedPath.Kind.FILE || p.kind() == ProtectedPath.Kind.DIRECTORY) {
                    b.step("pretend", p.path(), "nothing is done: a test plugin");
                }
            }
            return b.build();
        }

        @Override
        public Launch prepare(Plan plan, Command command) {
            return Launch.of(command);
        }
    }

    /** Used by {@code ralon run --backend test-plugin}. */
    public static final class Good extends Base {
        @Override
        public String name() {
            return "test-plugin";
        }
    }

    /** Declares no writes-outside: {@code ralon run} refuses it unless {@code --write-anywhere}. */
    public static final class DoesNotConfine extends Base {
        @Override
        public String name() {
            return "test-unconfined";
        }

        @Override
        public Set<Guarantee> guarantees() {
            return EnumSet.complementOf(EnumSet.of(Guarantee.CREATE_MISSING, Guarantee.WRITES_OUTSIDE));
        }
    }

    /** Throws from name(): excluded at discovery. */
    public static final class ThrowsFromName extends Base {
        @Override
        public String name() {
            throw new IllegalStateException("no name today");
        }
    }

    /** Throws from plan(): a pinned run says so in one line; a default run passes it over. */
    public static final class ThrowsFromPlan extends Base {
        @Override
        public String name() {
            return "test-bad-plan";
        }

        @Override
        public int rank() {
            return 99;
        }

        @Override
        public Plan plan(ProtectedSet set) {
            throw new NullPointerException("plan of a broken plugin");
        }
    }

    /** Throws an Error from prepare(): one line, nothing started. */
    public static final class ThrowsFromPrepare extends Base {
        @Override
        public String name() {
            return "test-bad-prepare";
        }

        @Override
        public Launch prepare(Plan plan, Command command) {
            throw new NoSuchMethodError("org.example.Gone.method()");
        }
    }

    /**
     * Ranked above every built-in backend, so {@code run} without {@code --backend} chooses it; each probe appends the
     * name of the thread it ran on to the file named by {@code RALON_TEST_PROBE_LOG}.
     */
    public static final class CountsProbes extends Base {
        @Override
        public String name() {
            return "test-counted";
        }

        @Override
        public int rank() {
            return 400;
        }

        @Override
        public Probe probe() {
            try {
                java.nio.file.Files.writeString(java.nio.file.Path.of(System.getenv("RALON_TEST_PROBE_LOG")),
                        Thread.currentThread().getName() + "\n", java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
            } catch (java.io.IOException e) {
                return Probe.unavailable("cannot log the probe: " + e.getMessage(), "");
            }
            return super.probe();
        }
    }

    /** A probe that never returns: status and run give it up after a bound, with one line, and go on. */
    public static final class HangsInProbe extends Base {
        @Override
        public String name() {
            return "test-hangs";
        }

        @Override
        public int rank() {
            return 500;
        }

        @Override
        public Probe probe() {
            while (true) {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    // a stuck plugin ignores interrupts too
                }
            }
        }
    }

    /** Has a name but its description() fails: excluded at discovery, and pinning it says so. */
    public static final class ThrowsFromDescription extends Base {
        @Override
        public String name() {
            return "test-no-description";
        }

        @Override
        public String description() {
            throw new IllegalStateException("no description today");
        }
    }

    /** A plugin jar trying to take a built-in name from a class under dev.ralon is built by the test itself. */
    public static final class NotAnEnforcer {
    }
}
