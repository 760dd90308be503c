package dev.ralon.enforcer.noop;

import java.util.EnumSet;
import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Enforces nothing and claims nothing. It exists so that a run without protection is an explicit, visible choice
 * ({@code ralon run --backend noop}): it has rank 0, so {@code ralon run} never picks it by itself, and the host
 * prints a warning before the command starts. Its plan lists the paths that would have been protected.
 */
public final class NoopEnforcer implements Enforcer {
    @Override
    public String name() {
        return "noop";
    }

    @Override
    public String description() {
        return "enforces nothing: runs the command as it is (only when chosen with --backend noop)";
    }

    /** Every kind of existing path: noop declares no guarantee, so there is nothing a kind could lose. */
    @Override
    public Set<ProtectedPath.Kind> coveredKinds() {
        return EnumSet.of(ProtectedPath.Kind.FILE, ProtectedPath.Kind.DIRECTORY, ProtectedPath.Kind.SYMLINK,
                ProtectedPath.Kind.OTHER);
    }

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public Probe probe() {
        return Probe.available("always available; protects nothing");
    }

    @Override
    public Set<Guarantee> guarantees() {
        return Set.of();
    }

    @Override
    public Plan plan(ProtectedSet protectedSet) {
        Plan.Builder plan = Plan.builder(name()).warning("backend noop protects nothing: every path stays writable");
        for (ProtectedPath p : protectedSet.paths()) {
            plan.step("unprotected", p.path(), "would be protected by " + String.join(", ", p.reasons()));
        }
        return plan.build();
    }

    @Override
    public Launch prepare(Plan plan, Command command) {
        return Launch.of(command);
    }
}
