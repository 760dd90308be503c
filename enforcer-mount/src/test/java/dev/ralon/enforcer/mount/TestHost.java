package dev.ralon.enforcer.mount;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.linux.Exec;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the host ({@code ralon run}) does, minus policy loading: {@code TestHost ROOT PROTECTED... -- EXECUTABLE ARGS}.
 * Builds a ProtectedSet from the paths as found on disk, plans, prepares and execs the launch with
 * {@link Exec#replaceProcess}, exactly like the host. {@code ROOT} may be followed by {@code --paths-from FILE}
 * (one path per line) for large sets. Exit 3 when the plan has refusals, 4 when the probe says unavailable.
 */
public final class TestHost {
    private TestHost() {
    }

    public static void main(String[] args) throws Exception {
        int sep = Arrays.asList(args).indexOf("--");
        Path root = Path.of(args[0]);
        List<String> names = new ArrayList<>();
        for (int i = 1; i < sep; i++) {
            if (args[i].equals("--paths-from")) {
                names.addAll(Files.readAllLines(Path.of(args[++i])));
            } else {
                names.add(args[i]);
            }
        }
        List<ProtectedPath> paths = new ArrayList<>();
        for (String n : names) {
            Path p = Path.of(n).toAbsolutePath().normalize();
            ProtectedPath.Kind kind;
            if (Files.isSymbolicLink(p)) {
                kind = ProtectedPath.Kind.SYMLINK;
            } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                kind = ProtectedPath.Kind.DIRECTORY;
            } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                kind = ProtectedPath.Kind.FILE;
            } else if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                kind = ProtectedPath.Kind.OTHER;
            } else {
                kind = ProtectedPath.Kind.MISSING;
            }
            paths.add(ProtectedPath.of(p, kind, List.of("test")));
        }
        paths.sort((a, b) -> a.path().compareTo(b.path()));
        MountEnforcer enforcer = new MountEnforcer();
        Probe probe = enforcer.probe();
        if (!probe.available()) {
            System.err.println("testhost: unavailable: " + probe.detail() + " / fix: " + probe.fix());
            System.exit(4);
        }
        Plan plan = enforcer.plan(ProtectedSet.of(root, root.resolve("agent.lock"), paths, List.of()));
        if (System.getenv("TESTHOST_DRY_RUN") != null) {
            plan.steps().forEach(s -> System.out.println("step " + s));
            plan.refusals().forEach(s -> System.out.println("refusal " + s));
            plan.warnings().forEach(s -> System.out.println("warning " + s));
            System.exit(0);
        }
        if (!plan.enforceable()) {
            plan.refusals().forEach(r -> System.err.println("testhost: refused: " + r));
            System.exit(3);
        }
        List<String> argv = Arrays.asList(args).subList(sep + 1, args.length);
        Command command = Command.of(Path.of(argv.get(0)), argv, System.getenv(),
                Path.of(System.getProperty("user.dir")));
        Launch launch = enforcer.prepare(plan, command);
        Exec.replaceProcess(launch.executable(), launch.argv(), launch.env());
    }
}
