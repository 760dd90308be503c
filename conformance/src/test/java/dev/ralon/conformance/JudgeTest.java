package dev.ralon.conformance;

import dev.ralon.enforcer.spi.Guarantee;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The judge's rules on recorded runs made up here: no sandbox, no process, no file. */
class JudgeTest {
    private static final Path PROJECT = Path.of("/tmp/kit/proj");
    private static final Attack WRITE = attack("write");
    private static final Attack RM = attack("rm");
    private static final Attack TIOCSTI = attack("tiocsti");

    private static Attack attack(String id) {
        return Attacks.all().stream().filter(a -> a.id().equals(id)).findFirst().orElseThrow();
    }

    private static KitRun.Case fileCase(Attack a) {
        Path dir = PROJECT.resolve("c/" + a.id() + "-file");
        return new KitRun.Case(a, PathKind.FILE, a.id() + "-file", dir.resolve("w/target.txt"), dir.resolve("w"));
    }

    private static final KitRun.Outcome CHANGED = new KitRun.Outcome("0", List.of("c/x: size 20 -> 6"));
    private static final KitRun.Outcome UNCHANGED = new KitRun.Outcome("1", List.of());

    /** Everything of what must keep working as a sound run of uid 1000 leaves it. */
    private static Map<String, String> soundSanity() {
        Map<String, String> s = new HashMap<>();
        s.put("existing.txt", "unprotected\nchanged\n");
        s.put("new.txt", "ok\n");
        s.put("next.txt", "ok\n");
        s.put("read-expected", "x");
        s.put("read-copy", "x");
        s.put("pid-expected", "7");
        s.put("pid-seen", "7");
        s.put("ok-signal", "TERM");
        s.put("ok-git-status", "0");
        s.put("git-status", " M agent.lock\n");
        s.put("id-uid", "1000");
        s.put("id-gid", "1000");
        s.put("expected-gid", "1000");
        s.put("id-pwd", PROJECT.toString());
        s.put("expected-pwd", PROJECT.toString());
        s.put("id-marker", "kit marker");
        s.put("id-jto", "-Dralon.kit.marker=1");
        s.put("id-nofile", "1024");
        s.put("expected-nofile", "1024");
        s.put("seen-ok-mkdir-deep", "ok\n");
        for (String[] w : AttackScript.WORK) {
            if (!w[0].equals("ok-mkdir-deep")) {
                s.put("seen-" + w[0], "true");
            }
        }
        return s;
    }

    private static KitRun.Recording result(int exit, Map<String, KitRun.Outcome> outcomes, Map<String, String> sanity,
                                        Map<String, KitRun.Outcome> plain) {
        return new KitRun.Recording("b", 1000, exit, exit == KitRun.EXIT_MARK ? "PID 7\nEND\n" : "", "stderr text\n",
                "== write-file\nsh: pwned\n", outcomes, sanity, true, plain, 7, "uid_map: 0 1000 1;CapEff: 0");
    }

    private static Judge.Input input(Set<Guarantee> declared, List<KitRun.Case> cases, KitRun.Recording run,
                                     KitRun.Recording control, Set<Path> restricted) {
        return new Judge.Input("b", PROJECT, declared, cases, run, control, restricted, null, "0");
    }

    private static Map<String, KitRun.Outcome> outcomes(Object... idAndOutcome) {
        Map<String, KitRun.Outcome> m = new LinkedHashMap<>();
        for (int i = 0; i < idAndOutcome.length; i += 2) {
            m.put((String) idAndOutcome[i], (KitRun.Outcome) idAndOutcome[i + 1]);
        }
        return m;
    }

    @Test
    void aDeclaredGuaranteeThatBrokeFailsNamingTheAttackTheChangeItsOutputAndTheSandbox() {
        KitRun.Case c = fileCase(WRITE);
        KitRun.Recording run = result(KitRun.EXIT_MARK, outcomes(c.id(), CHANGED), soundSanity(), Map.of());
        KitRun.Recording control = result(KitRun.EXIT_MARK, outcomes(c.id(), CHANGED), soundSanity(), Map.of());
        Judge.Input in = input(EnumSet.of(Guarantee.MODIFY_CONTENT), List.of(c), run, control, Set.of());
        assertNull(Judge.setupFailure(in));
        ConformanceKit.Verdict v = Judge.verdicts(in, null).get(0);
        assertFalse(v.passed());
        assertTrue(v.brokeThrough() && v.declared() && v.controlChanged());
        assertTrue(v.failure().startsWith("backend b declares modify-content, but attack 'write' ("), v.failure());
        assertTrue(v.failure().contains("on a file named literally in agent.lock (c/write-file/w/target.txt) got"
                + " through (rc 0); changed on disk: c/x: size 20 -> 6"), v.failure());
        assertTrue(v.failure().contains("--- the attack's own output ---\nsh: pwned"), v.failure());
        assertTrue(v.failure().contains("--- the sandboxed process ---\nuid_map: 0 1000 1\nCapEff: 0"), v.failure());
    }

    @Test
    void anUndeclaredGuaranteeThatBrokePassesAndABlockedDeclaredOnePasses() {
        KitRun.Case rm = fileCase(RM);
        KitRun.Case write = fileCase(WRITE);
        KitRun.Recording run = result(KitRun.EXIT_MARK, outcomes(rm.id(), CHANGED, write.id(), UNCHANGED), soundSanity(),
                Map.of());
        KitRun.Recording control = result(KitRun.EXIT_MARK, outcomes(rm.id(), CHANGED, write.id(), CHANGED),
                soundSanity(), Map.of());
        List<ConformanceKit.Verdict> vs = Judge.verdicts(input(EnumSet.of(Guarantee.MODIFY_CONTENT),
                List.of(rm, write), run, control, Set.of()), null);
        assertTrue(vs.get(0).passed() && vs.get(0).brokeThrough() && !vs.get(0).declared());
        assertTrue(vs.get(1).passed() && !vs.get(1).brokeThrough());
        assertEquals("unchanged (rc 1)", vs.get(1).detail());
    }

    @Test
    void anAttackThatChangedNothingEvenUnderNoopProvesNothing() {
        KitRun.Case c = fileCase(WRITE);
        KitRun.Recording run = result(KitRun.EXIT_MARK, outcomes(c.id(), UNCHANGED), soundSanity(), Map.of());
        ConformanceKit.Verdict v = Judge.verdicts(input(EnumSet.of(Guarantee.MODIFY_CONTENT), List.of(c), run, run,
                Set.of()), null).get(0);
        assertEquals("attack 'write' on a file named literally in agent.lock (c/write-file/w/target.txt) proves"
                + " nothing: it changed nothing even under --backend noop (rc 1)", v.failure());
    }

    @Test
    void aCaseNotJudgedNeitherPassesOnAChangeNorFails() {
        KitRun.Case c = fileCase(WRITE);
        KitRun.Outcome lost = new KitRun.Outcome("0", List.of("whatever"), "not judged: agent.lock was replaced");
        KitRun.Recording run = result(KitRun.EXIT_MARK, outcomes(c.id(), lost), soundSanity(), Map.of());
        KitRun.Recording control = result(KitRun.EXIT_MARK, outcomes(c.id(), CHANGED), soundSanity(), Map.of());
        ConformanceKit.Verdict v = Judge.verdicts(input(EnumSet.of(Guarantee.MODIFY_CONTENT), List.of(c), run,
                control, Set.of()), null).get(0);
        assertNull(v.failure());
        assertFalse(v.brokeThrough());
        assertEquals("not judged: agent.lock was replaced", v.notJudged());
    }

    /**
     * A run whose script did not end (or whose status did not come back: a supervisor) is one setup failure; the
     * attacks that reported their result, or whose file changed, are still judged; only the others have no verdict.
     */
    @Test
    void aScriptThatDidNotRunToItsEndIsReportedOnceAndTheAttacksThatRanAreStillJudged() {
        KitRun.Case ran = fileCase(WRITE);
        KitRun.Case broke = fileCase(RM);
        KitRun.Case never = fileCase(attack("truncate"));
        KitRun.Case helper = fileCase(Attacks.all().stream().filter(Attack::viaHelper).findFirst().orElseThrow());
        KitRun.Case program = fileCase(attack("o-trunc"));
        KitRun.Outcome noResult = new KitRun.Outcome(Judge.NO_RESULT, List.of());
        KitRun.Outcome changedWithoutResult = new KitRun.Outcome(Judge.NO_RESULT, List.of("c/x: removed"));
        KitRun.Outcome refusedByTheKernel = new KitRun.Outcome("errno=30 (open)", List.of());
        KitRun.Recording run = result(0, outcomes(ran.id(), UNCHANGED, broke.id(), changedWithoutResult, never.id(),
                noResult, helper.id(), UNCHANGED, program.id(), refusedByTheKernel), soundSanity(), Map.of());
        KitRun.Recording control = result(KitRun.EXIT_MARK, outcomes(ran.id(), CHANGED, broke.id(), CHANGED,
                never.id(), CHANGED, helper.id(), CHANGED, program.id(), CHANGED), soundSanity(), Map.of());
        Judge.Input in = input(EnumSet.allOf(Guarantee.class), List.of(ran, broke, never, helper, program), run,
                control, Set.of());
        String setup = Judge.setupFailure(in);
        assertTrue(setup.startsWith("`ralon run --backend b` did not run the attack script to its end and pass its"
                + " exit status back (exit 0, expected 42)"), setup);
        assertTrue(setup.contains("--- ralon run stderr ---\nstderr text"), setup);
        List<ConformanceKit.Verdict> vs = Judge.verdicts(in, setup);
        assertTrue(vs.get(0).passed() && !vs.get(0).brokeThrough(), "ran and was blocked: " + vs.get(0));
        assertFalse(vs.get(1).passed(), "a change read from outside is a breach, result or not: " + vs.get(1));
        assertTrue(vs.get(1).failure().startsWith("backend b declares delete, but attack 'rm'"), vs.get(1).failure());
        assertTrue(vs.get(2).failure().startsWith("no verdict: `ralon run --backend b`"), vs.get(2).failure());
        // a helper's status is the outer command's: unchanged proves nothing when the run failed
        assertTrue(vs.get(3).failure().startsWith("no verdict: `ralon run --backend b`"), vs.get(3).failure());
        // the attack program reported the kernel's errno from inside: judged (a supervisor's run keeps these verdicts)
        assertTrue(vs.get(4).passed() && !vs.get(4).brokeThrough(), "ran inside and was blocked: " + vs.get(4));
    }

    @Test
    void aTerminalAttackIsJudgedAgainstThePlainProgramAndNotJudgedWhereTheMachineForbidsInjection() {
        KitRun.Case c = new KitRun.Case(TIOCSTI, PathKind.FILE, "tiocsti-file", PROJECT.resolve("c/t/w/target.txt"),
                PROJECT.resolve("c/t/w"));
        KitRun.Recording noInjection = result(KitRun.EXIT_MARK, outcomes(c.id(), UNCHANGED), soundSanity(),
                outcomes(c.id(), UNCHANGED));
        ConformanceKit.Verdict v = Judge.verdicts(input(EnumSet.of(Guarantee.MODIFY_CONTENT), List.of(c), noInjection,
                noInjection, Set.of()), null).get(0);
        assertTrue(v.failure().startsWith(Judge.NOT_JUDGED + "attack 'tiocsti' changed nothing even when its program"
                + " was started plainly"), v.failure());
        KitRun.Recording injects = result(KitRun.EXIT_MARK, outcomes(c.id(), UNCHANGED), soundSanity(),
                outcomes(c.id(), CHANGED));
        // the noop control (where the host's terminal guard also blocks it) is not what counts: the plain run is
        ConformanceKit.Verdict held = Judge.verdicts(input(EnumSet.of(Guarantee.MODIFY_CONTENT), List.of(c), injects,
                noInjection, Set.of()), null).get(0);
        assertTrue(held.passed() && held.controlChanged(), String.valueOf(held));
    }

    @Test
    void aSoundRunKeepsEverythingWorking() {
        KitRun.Recording run = result(KitRun.EXIT_MARK, Map.of(), soundSanity(), Map.of());
        Map<String, String> checks = Judge.sanity(input(Set.of(), List.of(), run, run, Set.of()));
        checks.forEach((name, failure) -> assertNull(failure, name));
        assertTrue(checks.containsKey("a directory can be made next to a protected file"), checks.keySet().toString());
    }

    @Test
    void workInACreateRestrictedDirectoryMustBeRefusedAndElsewhereMustWork() {
        Path next = PROJECT.resolve("c/ok-next/w");
        Map<String, String> refused = soundSanity();
        refused.remove("next.txt");
        for (String id : List.of("ok-next-mkdir", "ok-next-rename", "ok-next-move-out", "ok-next-via-link")) {
            refused.put("seen-" + id, "false");
        }
        KitRun.Recording run = result(KitRun.EXIT_MARK, Map.of(), refused, Map.of());
        Map<String, String> restricted = Judge.sanity(input(Set.of(), List.of(), run, run, Set.of(next)));
        restricted.forEach((name, failure) -> assertNull(failure, name));
        assertTrue(restricted.containsKey("refused, as the plan's create-restricted list says: a directory made next"
                + " to a protected file"), restricted.keySet().toString());

        Map<String, String> unrestricted = Judge.sanity(input(Set.of(), List.of(), run, run, Set.of()));
        String mkdir = unrestricted.get("a directory can be made next to a protected file");
        assertTrue(mkdir.startsWith("a directory can be made next to a protected file did not work (rc null)")
                && mkdir.endsWith("; the plan does not list the directory as create-restricted"), mkdir);

        KitRun.Recording wentThrough = result(KitRun.EXIT_MARK, Map.of(), soundSanity(), Map.of());
        Map<String, String> breached = Judge.sanity(input(Set.of(), List.of(), wentThrough, wentThrough, Set.of(next)));
        assertTrue(breached.get("refused, as the plan's create-restricted list says: an unprotected file next to a"
                + " protected file renamed in place").startsWith("the plan lists the directory as create-restricted,"
                + " yet this went through"), breached.toString());
    }

    @Test
    void aSupervisorAnotherUserALostVariableOrAnotherDescriptorLimitFail() {
        Map<String, String> s = soundSanity();
        s.put("pid-seen", "8");
        s.put("id-uid", "0");
        s.put("id-marker", "");
        s.put("id-nofile", "20000");
        KitRun.Recording run = result(KitRun.EXIT_MARK, Map.of(), s, Map.of());
        Map<String, String> checks = Judge.sanity(input(Set.of(), List.of(), run, run, Set.of()));
        assertTrue(checks.get("the command runs as the process ralon was started as (no supervisor)")
                .startsWith("the sandboxed command's pid is 8, but `ralon run` was started as pid 7"));
        assertTrue(checks.get("the command runs as the invoking user (uid and gid)")
                .startsWith("the command ran as uid 0, gid 1000, expected uid 1000, gid 1000"));
        assertTrue(checks.get("the command keeps its working directory and environment")
                .contains("RALON_KIT_MARKER= (expected 'kit marker')"));
        assertTrue(checks.get("the command gets the user's RLIMIT_NOFILE soft limit")
                .startsWith("ulimit -n in the command is 20000, for a plain child of the same parent 1024"));
    }
}
