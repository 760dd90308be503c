package org.example.bwrap;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Broken variants of {@link BwrapEnforcer}, each with one of the mistakes its class comment explains, declaring what
 * the sound one declares: {@link BrokenVariantsTest} checks that the conformance kit fails each of them, and how.
 * Test code only (listed in the test class path's service file).
 */
public abstract class BrokenBwrap implements Enforcer {
    private final BwrapEnforcer sound = new BwrapEnforcer();

    @Override
    public Probe probe() {
        return sound.probe();
    }

    @Override
    public Set<Guarantee> guarantees() {
        return sound.guarantees();
    }

    @Override
    public Plan plan(ProtectedSet protectedSet) {
        Plan p = sound.plan(protectedSet);
        Plan.Builder plan = Plan.builder(name()).payload(p.payload(ProtectedSet.class));
        plan.step("broken", null, description());
        return plan.build();
    }

    @Override
    public Launch prepare(Plan plan, Command command) throws EnforcementException {
        ProtectedSet set = plan.payload(ProtectedSet.class);
        return launch(BwrapEnforcer.Tools.find(), BwrapEnforcer.boundPaths(set), set, command);
    }

    abstract Launch launch(BwrapEnforcer.Tools tools, List<String> paths, ProtectedSet set, Command command)
            throws EnforcementException;

    /**
     * bwrap left as the command's parent, the way bwrap is usually run: {@code bwrap BINDS -- unshare ... -- CMD}
     * (bwrap enters the working directory itself). The binds and the locking namespace are the sound ones: only the
     * supervisor is wrong.
     */
    public static final class Supervising extends BrokenBwrap {
        @Override
        public String name() {
            return "bwrap-supervising";
        }

        @Override
        public String description() {
            return "broken: bwrap stays the command's parent";
        }

        @Override
        Launch launch(BwrapEnforcer.Tools tools, List<String> paths, ProtectedSet set, Command command)
                throws EnforcementException {
            int[] ids = BwrapEnforcer.invokerIds();
            List<String> argv = new ArrayList<>(BwrapEnforcer.bwrapCommand(tools.bwrap(), paths));
            argv.subList(argv.indexOf("--") + 1, argv.size()).clear();
            argv.addAll(List.of(tools.unshare().toString(), "--user", "--mount", "--map-user=" + ids[0],
                    "--map-group=" + ids[1], "--", command.executable().toString()));
            argv.addAll(command.argv().subList(1, command.argv().size()));
            return Launch.of(tools.bwrap(), argv, command.env());
        }
    }

    /**
     * No nested user namespace: the command is exec'd right in bwrap's, which the stage joined with setns(2) and so
     * holds every capability of (kept across exec by uid 0 only).
     */
    public static final class NotNested extends BrokenBwrap {
        /** {@link BwrapEnforcer#JOIN} without the nested namespace: exec the command where the stage joined. */
        static final String JOIN = String.join("\n",
                "_bwe_pid=$1; _bwe_cwd=$5; shift 5",
                "kill -KILL \"$_bwe_pid\" 2>/dev/null",
                "cd \"$_bwe_cwd\" || exit 125",
                "exec \"$@\"");

        @Override
        public String name() {
            return "bwrap-not-nested";
        }

        @Override
        public String description() {
            return "broken: the command runs in bwrap's user namespace, not in a nested one";
        }

        @Override
        Launch launch(BwrapEnforcer.Tools tools, List<String> paths, ProtectedSet set, Command command)
                throws EnforcementException {
            return BwrapEnforcer.launch(tools, paths, command, JOIN);
        }
    }

    /** One bind missed: the policy file (always protected) gets none. */
    public static final class MissedBind extends BrokenBwrap {
        @Override
        public String name() {
            return "bwrap-missed-bind";
        }

        @Override
        public String description() {
            return "broken: the policy file is not bound";
        }

        @Override
        Launch launch(BwrapEnforcer.Tools tools, List<String> paths, ProtectedSet set, Command command)
                throws EnforcementException {
            List<String> fewer = new ArrayList<>(paths);
            fewer.remove(set.policyFile().toString());
            if (fewer.size() == paths.size()) {
                throw new EnforcementException("the policy file " + set.policyFile() + " is not among the binds");
            }
            return BwrapEnforcer.launch(tools, fewer, command, BwrapEnforcer.JOIN);
        }
    }
}
