package dev.ralon.conformance;

import dev.ralon.conformance.ConformanceKit.Report;
import dev.ralon.conformance.ConformanceKit.Verdict;
import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.host.discovery.Enforcers;
import dev.ralon.enforcer.spi.Guarantee;
import dev.ralon.enforcer.spi.Probe;
import dev.ralon.testsupport.Requirements;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The kit's JUnit 5 rendering (as EngineTestKit keeps its conditions apart from the run): first the preconditions
 * (the enforcer is found, available, and the user can be switched to; the rule of {@link Requirements}: skipped with
 * the reason outside CI, failed under {@code CI=true}), then a {@link Report} turned into one dynamic test per
 * (attack × kind), grouped per guarantee, plus what must keep working. Holds no state; judges nothing itself.
 */
final class KitTests {
    private KitTests() {
    }

    /** The tests for backend {@code name} as {@code uid}; {@code run} makes the attacks when the preconditions hold. */
    static Stream<DynamicNode> of(String name, int uid, ClassLoader loader, Supplier<Report> run) {
        String prefix = "[" + name + ", uid " + uid + "] ";
        DynamicTest unmet = unmet(name, uid, loader, prefix);
        return unmet != null ? Stream.of(unmet) : of(name, prefix, run.get());
    }

    /** Whether {@link #of(String, int, ClassLoader, Supplier)} would run the attacks: its preconditions hold. */
    static boolean ready(String name, int uid, ClassLoader loader) {
        return unmet(name, uid, loader, "") == null;
    }

    /** The one test saying which precondition does not hold, or null when they all do. */
    private static DynamicTest unmet(String name, int uid, ClassLoader loader, String prefix) {
        Enforcers found = Enforcers.discover(loader);
        Enforcer enforcer = found.byName(name).orElse(null);
        if (enforcer == null) {
            String known = found.all().stream().map(Enforcer::name).collect(Collectors.joining(", "));
            return DynamicTest.dynamicTest(prefix + "enforcer is on the test class path", () -> {
                throw new AssertionFailedError("no enforcer named '" + name + "' is found by ServiceLoader on the test"
                        + " class path (found: " + known + (found.problems().isEmpty() ? "" : "; problems: "
                        + String.join("; ", found.problems())) + ")");
            });
        }
        Probe probe = enforcer.probe();
        if (!probe.available()) {
            String msg = "backend " + name + " is unavailable here: " + probe.detail()
                    + (probe.fix().isEmpty() ? "" : " (fix: " + probe.fix() + ")");
            return DynamicTest.dynamicTest(prefix + "backend is available", () -> Requirements.unmet(msg));
        }
        if (uid != KitHost.currentUid() && KitHost.currentUid() != 0) {
            String msg = "running the command as uid " + uid + " needs root (setpriv); this JVM runs as uid "
                    + KitHost.currentUid();
            return DynamicTest.dynamicTest(prefix + "can switch user", () -> Requirements.unmet(msg));
        }
        return null;
    }

    /** The tests of one report. */
    static Stream<DynamicNode> of(String name, String prefix, Report r) {
        if (r.verdicts().isEmpty()) {
            // a kit that attacked nothing must not report success
            return Stream.of(DynamicTest.dynamicTest(prefix + "the kit made its attacks", () -> {
                throw new AssertionFailedError("the conformance kit ran no attack against backend " + name);
            }));
        }
        List<DynamicNode> nodes = new ArrayList<>();
        nodes.add(DynamicTest.dynamicTest(prefix + "ralon run --backend " + name + " ran the attack script to its end",
                () -> {
                    if (r.setupFailure() != null) {
                        throw new AssertionFailedError(r.setupFailure());
                    }
                }));
        List<DynamicNode> working = new ArrayList<>();
        for (Map.Entry<String, String> e : r.sanity().entrySet()) {
            working.add(DynamicTest.dynamicTest(prefix + e.getKey(), () -> {
                if (e.getValue() != null) {
                    throw new AssertionFailedError(e.getValue());
                }
            }));
        }
        nodes.add(DynamicContainer.dynamicContainer(prefix + "what must keep working", working));
        for (Guarantee g : Guarantee.values()) {
            nodes.add(DynamicContainer.dynamicContainer(prefix + g.id() + ": " + r.status(g), guarantee(name, prefix, r, g)));
        }
        return nodes.stream();
    }

    private static List<DynamicNode> guarantee(String name, String prefix, Report r, Guarantee g) {
        List<DynamicNode> tests = new ArrayList<>();
        boolean declared = r.declared().contains(g);
        for (Verdict v : r.verdicts()) {
            if (v.attack().guarantee() != g) {
                continue;
            }
            String outcome = v.brokeThrough() ? "got through" : "blocked";
            if (v.notJudged() != null) {
                outcome = "not judged";
            }
            tests.add(DynamicTest.dynamicTest(prefix + v.attack().id() + " x " + v.kind().id() + " -> " + outcome
                    + (declared ? "" : " (not declared)"), () -> verdict(v)));
        }
        if (!declared) {
            tests.add(DynamicTest.dynamicTest(prefix + g.id() + " is not declared: it must be breakable or "
                    + "reported unsupported", () -> {
                if (r.setupFailure() == null && !r.undeclaredIsHonest(g)) {
                    throw new AssertionFailedError("backend " + name + " does not declare " + g.id() + " ("
                            + g.effect() + "), yet every attack on it was blocked: declare it (claims must match"
                            + " reality in both directions)");
                }
            }));
        }
        return tests;
    }

    private static void verdict(Verdict v) {
        if (v.failure() != null && v.failure().startsWith(Judge.NOT_JUDGED)) {
            Requirements.unmet(v.failure());
        }
        if (v.failure() != null) {
            throw new AssertionFailedError(v.failure());
        }
        if (v.notJudged() != null) {
            Assumptions.abort(v.notJudged());
        }
    }
}
