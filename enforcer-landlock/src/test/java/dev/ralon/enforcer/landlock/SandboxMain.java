package dev.ralon.enforcer.landlock;

import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.EnforcementException;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Plan;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.enforcer.spi.ProtectedPath;
import dev.ralon.enforcer.spi.ProtectedSet;
import dev.ralon.linux.Exec;
import dev.ralon.linux.SessionGuard;
import dev.ralon.linux.ExecException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * What {@code ralon run --backend landlock} does, for tests, until the CLI exists: builds a protected set from the
 * arguments, plans, prepares on the main thread, then execs the command in place with {@link Exec#replaceProcess}.
 *
 * <p>Usage: {@code SandboxMain ROOT PROTECTED... -- /abs/command args...}. Exit 2: enforcement refused or failed;
 * 3: Landlock unavailable. With {@code RALON_TEST_PLAN=1} the plan is printed to stderr first; with
 * {@code RALON_TEST_REMOVE_BEFORE_PREPARE=DIR} that tree is deleted between plan and prepare.
 */
public final class SandboxMain {
    private SandboxMain() {
    }

    public static void main(String[] args) throws IOException {
        int sep = Arrays.asList(args).indexOf("--");
        if (sep < 1 || sep == args.length - 1) {
            System.err.println("usage: SandboxMain ROOT PROTECTED... -- /abs/command args...");
            System.exit(64);
        }
        Path root = Path.of(args[0]).toAbsolutePath().normalize();
        List<ProtectedPath> paths = new ArrayList<>();
        for (int i = 1; i < sep; i++) {
            Path p = Path.of(args[i]).toAbsolutePath().normalize();
            paths.add(ProtectedPath.of(p, kindOf(p), List.of(args[i] + " (test)")));
        }
        paths.sort(new Comparator<ProtectedPath>() { // no lambda: keep the measured startup path free of indy
            @Override
            public int compare(ProtectedPath a, ProtectedPath b) {
                return a.path().compareTo(b.path());
            }
        });
        ProtectedSet set = ProtectedSet.of(root, root.resolve("agent.lock"), paths, List.of());
        List<String> argv = List.of(Arrays.copyOfRange(args, sep + 1, args.length));

        LandlockEnforcer enforcer = new LandlockEnforcer();
        Probe probe = enforcer.probe();
        if (!probe.available()) {
            System.err.println("landlock unavailable: " + probe.detail());
            System.exit(3);
        }
        // The rules alone, as a run admitted without containment gets them (--allow-degraded): this JVM is not in the
        // launcher's namespace, where the containment is made (LandlockContainment; tested by cli's LeftoversE2ETest)
        Plan plan = enforcer.plan(dev.ralon.enforcer.spi.KernelInterfaces.forRootInvoker(set, dev.ralon.linux.LauncherNamespace.invokerIsRoot()), LandlockEnforcer.abi(),
                "this test JVM is not in the launcher's namespace");
        if ("1".equals(System.getenv("RALON_TEST_PLAN"))) {
            for (Plan.Step s : plan.steps()) {
                System.err.println("step: " + s);
            }
            for (Path p : plan.createRestricted()) {
                System.err.println("create-restricted: " + p);
            }
            for (String w : plan.warnings()) {
                System.err.println("warning: " + w);
            }
        }
        if (plan.refusals().stream().anyMatch(r -> !r.lost().equals(java.util.Set.of(Guarantee.LEFTOVERS)))) {
            for (Plan.Refusal r : plan.refusals()) {
                System.err.println("refused: " + r);
            }
            System.exit(2);
        }
        String removeBeforePrepare = System.getenv("RALON_TEST_REMOVE_BEFORE_PREPARE");
        if (removeBeforePrepare != null) {
            // Test hook: the file system changes between plan and prepare; prepare must fail closed.
            Files.walk(Path.of(removeBeforePrepare)).sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        Command command = Command.of(Path.of(argv.get(0)), argv, System.getenv(), Path.of("").toAbsolutePath());
        try {
            Launch launch = enforcer.prepare(plan, command);
            // as the host does under landlock: the session domain grants REFER (SessionGuard.Options#grantRefer)
            Exec.replaceProcess(launch.executable(), launch.argv(), launch.env(), new SessionGuard.Options(true,
                    SessionGuard.landlockAbi() >= SessionGuard.SCOPE_ABI, true));
        } catch (EnforcementException | ExecException e) {
            System.err.println("ralon: " + e.getMessage());
            System.exit(2);
        }
    }

    private static ProtectedPath.Kind kindOf(Path p) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return ProtectedPath.Kind.MISSING;
        }
        if (a.isSymbolicLink()) {
            return ProtectedPath.Kind.SYMLINK;
        }
        if (a.isDirectory()) {
            return ProtectedPath.Kind.DIRECTORY;
        }
        return a.isRegularFile() ? ProtectedPath.Kind.FILE : ProtectedPath.Kind.OTHER;
    }
}
