package org.example.broken;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Stays the command's parent, as a bubblewrap enforcer does: it execs a shell that runs the command as a child and
 * waits for it. Declares nothing (so no attack verdict can fail): the kit must fail it for the supervisor alone.
 */
public final class SupervisingEnforcer implements Enforcer {
    @Override
    public String name() {
        return "supervising";
    }

    @Override
    public Probe probe() {
        return Probe.available("always");
    }

    @Override
    public Set<Guarantee> guarantees() {
        return Set.of();
    }

    @Override
    public Plan plan(ProtectedSet protectedSet) {
        return Plan.builder(name()).step("supervise", null, "a shell stays the command's parent").build();
    }

    @Override
    public Launch prepare(Plan plan, Command command) {
        List<String> argv = new ArrayList<>(List.of("sh", "-c", "\"$@\"; rc=$?; exit $rc", "sh",
                command.executable().toString()));
        argv.addAll(command.argv().subList(1, command.argv().size()));
        return Launch.of(Path.of("/bin/sh"), argv, command.env());
    }
}
