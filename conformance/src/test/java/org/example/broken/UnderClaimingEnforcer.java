package org.example.broken;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.host.discovery.Enforcers;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.util.Set;

/**
 * A test enforcer whose claims fall short of reality: it enforces exactly as Ralon's {@code mount} backend (it
 * delegates to it) but declares only modify-content. The kit must fail it for every guarantee it keeps without
 * declaring (Guava testlib's "both directions").
 */
public final class UnderClaimingEnforcer implements Enforcer {
    private Enforcer mount;

    /**
     * Found on first use, never in the constructor: discovery instantiates every provider on the class path, this one
     * included, so discovering in the constructor recursed until the stack overflowed (seen on JDK 25, where the
     * overflow then broke class initialisation in every ralon run the kit started with its test classes on the path).
     */
    private synchronized Enforcer mount() {
        if (mount == null) {
            mount = Enforcers.discover(UnderClaimingEnforcer.class.getClassLoader()).byName("mount")
                    .orElseThrow(() -> new IllegalStateException("the mount backend is not on the class path"));
        }
        return mount;
    }

    @Override
    public String name() {
        return "under-claiming";
    }

    @Override
    public String description() {
        return "test enforcer: the mount backend, declaring only modify-content";
    }

    @Override
    public int rank() {
        return 1;
    }

    @Override
    public Probe probe() {
        return mount().probe();
    }

    @Override
    public Set<Guarantee> guarantees() {
        return Set.of(Guarantee.MODIFY_CONTENT);
    }

    @Override
    public Plan plan(ProtectedSet protectedSet) {
        return mount().plan(protectedSet);
    }

    @Override
    public Launch prepare(Plan plan, Command command) throws EnforcementException {
        return mount().prepare(plan, command);
    }
}
