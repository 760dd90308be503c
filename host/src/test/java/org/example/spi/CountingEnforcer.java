package org.example.spi;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/** An available test backend that records every set it is asked to plan (RunDecisionTest: each plan made once). */
public class CountingEnforcer implements Enforcer {
    /** Every set plan() was called with, in order. */
    public static final List<ProtectedSet> PLANNED = new CopyOnWriteArrayList<>();

    @Override
    public String name() {
        return "decision-test";
    }

    @Override
    public String description() {
        return "test enforcer that counts its plans";
    }

    @Override
    public int rank() {
        return 1;
    }

    @Override
    public Probe probe() {
        return Probe.available("test only");
    }

    @Override
    public Set<Guarantee> guarantees() {
        return Set.of(Guarantee.MODIFY_CONTENT);
    }

    @Override
    public Plan plan(ProtectedSet protectedSet) {
        PLANNED.add(protectedSet);
        return Plan.builder(name()).build();
    }

    @Override
    public Launch prepare(Plan plan, Command command) {
        return Launch.of(command);
    }
}
