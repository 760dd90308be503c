package org.example.spi;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.util.Set;

/** The least an enforcer must write: every method with a default is left out (compiles against the SPI as it is). */
public class MinimalEnforcer implements Enforcer {
    @Override
    public String name() {
        return "minimal";
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
        return Plan.builder(name()).build();
    }

    @Override
    public Launch prepare(Plan plan, Command command) {
        return Launch.of(command);
    }
}
