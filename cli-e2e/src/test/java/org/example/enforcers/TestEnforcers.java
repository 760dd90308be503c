package org.example.enforcers;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.util.List;
import java.util.Set;

/**
 * Third-party-style enforcers that exist only on the test class path of the admission tests (listed in
 * test-enforcers/META-INF/services, which the tests put on a child JVM's class path).
 */
public final class TestEnforcers {
    private TestEnforcers() {
    }

    abstract static class Base implements Enforcer {
        @Override
        public String description() {
            return "test enforcer " + name();
        }

        @Override
        public int rank() {
            return 1;
        }

        @Override
        public Set<Guarantee> guarantees() {
            return Set.of(Guarantee.MODIFY_CONTENT);
        }

        @Override
        public Plan plan(ProtectedSet set) {
            return Plan.builder(name()).step("test-step", set.root(), "nothing").build();
        }

        @Override
        public Launch prepare(Plan plan, Command command) throws dev.ralon.enforcer.spi.EnforcementException {
            return Launch.of(command);
        }
    }

    /** Available, but refuses every plan. */
    public static final class Refuser extends Base {
        @Override
        public String name() {
            return "test-refuser";
        }

        @Override
        public Probe probe() {
            return Probe.available("test host");
        }

        @Override
        public Plan plan(ProtectedSet set) {
            return Plan.builder(name()).refuse("test-refuser cannot protect " + set.paths().size() + " paths",
                    Set.of(Guarantee.MODIFY_CONTENT)).build();
        }
    }

    /** Never available. */
    public static final class Unavailable extends Base {
        @Override
        public String name() {
            return "test-unavailable";
        }

        @Override
        public Probe probe() {
            return Probe.unavailable("the frobnicator is off", "sysctl test.frobnicate=1");
        }
    }

    /** Two providers share this name: both must be refused. */
    public static final class TwinA extends Base {
        @Override
        public String name() {
            return "twin";
        }

        @Override
        public Probe probe() {
            return Probe.available("a");
        }
    }

    public static final class TwinB extends Base {
        @Override
        public String name() {
            return "twin";
        }

        @Override
        public Probe probe() {
            return Probe.available("b");
        }
    }

    /** A third party may not take a reserved name. */
    public static final class Impostor extends Base {
        @Override
        public String name() {
            return "landlock";
        }

        @Override
        public Probe probe() {
            return Probe.available("impostor");
        }
    }

    /** Claims to be available, then fails in prepare: nothing may start. */
    public static final class FailsToPrepare extends Base {
        @Override
        public String name() {
            return "test-failing";
        }

        @Override
        public Probe probe() {
            return Probe.available("test host");
        }

        @Override
        public Launch prepare(Plan plan, Command command) throws dev.ralon.enforcer.spi.EnforcementException {
            throw new dev.ralon.enforcer.spi.EnforcementException("mount(2) of /x failed: EPERM");
        }
    }
}
