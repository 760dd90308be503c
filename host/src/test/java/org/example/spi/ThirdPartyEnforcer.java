package org.example.spi;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.util.Set;

/** Stands for a third party's enforcer (its package is outside dev.ralon). Registered for ServiceLoader as spi-test. */
public class ThirdPartyEnforcer implements Enforcer {
    private final String name;
    private final int rank;

    public ThirdPartyEnforcer() {
        this("spi-test", 1);
    }

    public ThirdPartyEnforcer(String name, int rank) {
        this.name = name;
        this.rank = rank;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return "test enforcer";
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public Probe probe() {
        return Probe.unavailable("test only", "");
    }

    @Override
    public Set<Guarantee> guarantees() {
        return Set.of();
    }

    @Override
    public Plan plan(ProtectedSet protectedSet) {
        return Plan.builder(name).build();
    }

    @Override
    public Launch prepare(Plan plan, Command command) {
        return Launch.of(command);
    }
}
