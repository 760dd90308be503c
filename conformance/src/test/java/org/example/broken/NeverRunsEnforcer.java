package org.example.broken;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A deliberately useless enforcer: it declares every guarantee and "keeps" them by never running the command
 * (it execs {@code /bin/true} instead). Blocking everything is not conformance: the kit must fail it.
 */
public final class NeverRunsEnforcer implements Enforcer {
    @Override
    public String name() {
        return "never-runs";
    }

    @Override
    public String description() {
        return "test enforcer that never runs the command";
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
        return EnumSet.allOf(Guarantee.class);
    }

    @Override
    public Plan plan(ProtectedSet protectedSet) {
        return Plan.builder(name()).build();
    }

    @Override
    public Launch prepare(Plan plan, Command command) {
        return Launch.of(Path.of("/bin/true"), List.of("true"), command.env());
    }
}
