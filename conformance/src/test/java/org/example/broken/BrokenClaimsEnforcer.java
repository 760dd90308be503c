package org.example.broken;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.util.List;
import java.util.Set;

/** A deliberately broken enforcer: it declares modify-content but does nothing at all. The kit must catch it. */
public final class BrokenClaimsEnforcer implements Enforcer {
    @Override
    public String name() {
        return "broken-claims";
    }

    @Override
    public String description() {
        return "test enforcer that claims modify-content and enforces nothing";
    }

    @Override
    public int rank() {
        return 1;
    }

    @Override
    public Probe probe() {
        return Probe.available("always");
    }

    @Override
    public Set<Guarantee> guarantees() {
        return Set.of(Guarantee.MODIFY_CONTENT);
    }

    @Override
    public Plan plan(ProtectedSet protectedSet) {
        return Plan.builder(name()).build();
    }

    @Override
    public Launch prepare(Plan plan, Command command) {
        return Launch.of(command);
    }
}
