package dev.ralon.conformance;

import dev.ralon.conformance.ConformanceKit.Verdict;
import dev.ralon.enforcer.spi.Guarantee;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The kit's judge: turns what one run recorded (and its control run under {@code noop}) into verdicts and the checks of
 * what must keep working. Pure: it reads no file and starts no process, so every rule is unit-tested without a sandbox
 * ({@code JudgeTest}); {@link KitRun} records, {@link ConformanceKit} renders.
 */
final class Judge {
    /** A verdict that could not be judged on this machine: skipped with the reason, a failure under CI=true. */
    static final String NOT_JUDGED = "not judged: ";

    /**
     * Everything the judge looks at.
     *
     * @param backend          the enforcer's name
     * @param project          the attacked project (case paths are shown relative to it)
     * @param declared         the guarantees the enforcer declares
     * @param cases            the (attack × kind) cases of the run
     * @param run              what the run under the enforcer recorded
     * @param control          what the same script did under {@code noop} (may be {@code run} itself for noop)
     * @param createRestricted the directories the plan lists as create-restricted
     * @param planProblem      the plan's refusals in one line, or null
     * @param legacyTiocsti    the machine's {@code dev.tty.legacy_tiocsti}, for the terminal attack's "not judged"
     */
    record Input(String backend, Path project, Set<Guarantee> declared, List<KitRun.Case> cases, KitRun.Recording run,
                 KitRun.Recording control, Set<Path> createRestricted, String planProblem, String legacyTiocsti) {
        String context() {
            return "\n--- ralon run stderr ---\n" + run.stderr() + "--- attack log (tail) ---\n" + tail(run.log(), 60);
        }
    }

    private Judge() {
    }

    /** Why the run as a whole cannot be judged (the script did not run to its end), or null. */
    static String setupFailure(Input in) {
        KitRun.Recording r = in.run();
        if (r.exit() == KitRun.EXIT_MARK && r.output().contains("END\n")) {
            return null;
        }
        return "`ralon run --backend " + in.backend() + "` did not run the attack script to its end and pass its exit"
                + " status back (exit " + r.exit() + ", expected " + KitRun.EXIT_MARK + ")"
                + (in.planProblem() == null ? "" : "; " + in.planProblem()) + in.context();
    }

    /** The rc of an attack that reported no result (KitRun): it did not run, or did not get to its end. */
    static final String NO_RESULT = "(no result)";
    /** A result reported from inside the sandbox: a shell status, or the attack program's errno or error. */
    static final java.util.regex.Pattern REPORTED_INSIDE =
            java.util.regex.Pattern.compile("-?\\d+|errno=\\d+ \\(.*\\)|error \\(.*\\)");

    /** One verdict per case, in case order. */
    static List<Verdict> verdicts(Input in, String setupFailure) {
        List<Verdict> verdicts = new ArrayList<>();
        KitRun.Recording result = in.run();
        for (KitRun.Case c : in.cases()) {
            KitRun.Outcome o = result.outcomes().get(c.id());
            // a terminal attack's control is the same program started plainly by the same shell: under noop the
            // host's terminal guard (on every backend) blocks it too
            KitRun.Outcome co = c.attack().plainControl() ? result.plainOutcomes().get(c.id())
                    : in.control().outcomes().get(c.id());
            boolean isDeclared = in.declared().contains(c.attack().guarantee());
            boolean controlChanged = co != null && co.changed();
            String where = c.kind().description() + " (" + in.project().relativize(c.target()) + ")";
            String failure = null;
            // The run as a whole failed (the script did not end, or its status did not come back: a supervisor, a
            // killed sandbox): that is reported once, by the setup failure. An attack whose file changed is still
            // judged (a change read from outside is a breach, whoever made it), and so is one whose result was
            // reported from inside the sandbox: the script's "RESULT id N" for a shell attack, the attack program's
            // "RESULT id 0", "RESULT id errno=N (call)" or "RESULT id error (...)" for a system-call attack; the
            // others (not reported, or made through a helper or a terminal, whose status is the outer command's,
            // not the attack's) have no verdict.
            boolean seen = o != null && (o.changed() || !c.attack().viaHelper() && !c.attack().viaTerminal()
                    && o.rc() != null && REPORTED_INSIDE.matcher(o.rc()).matches());
            if (setupFailure != null && !seen) {
                failure = "no verdict: " + setupFailure.lines().findFirst().orElse("");
            } else if (o.notJudged() != null) {
                failure = null;
            } else if (isDeclared && o.changed()) {
                String own = result.logOf(c.id()).strip();
                failure = "backend " + in.backend() + " declares " + c.attack().guarantee().id() + ", but attack '"
                        + c.attack().id() + "' (" + c.attack().title() + ") on " + where + " got through (rc "
                        + o.rc() + "); changed on disk: " + String.join("; ", o.changes())
                        + "\n--- the attack's own output ---\n" + (own.isEmpty() ? "(none)" : own)
                        + "\n--- the sandboxed process ---\n" + result.sandbox().replace(";", "\n");
            } else if (!o.changed() && !controlChanged && c.attack().viaTerminal()) {
                failure = NOT_JUDGED + "attack '" + c.attack().id() + "' changed nothing even when its program was"
                        + " started plainly from the shell: this machine does not let this user inject into its"
                        + " terminal (dev.tty.legacy_tiocsti=" + in.legacyTiocsti() + "; without it TIOCSTI needs"
                        + " CAP_SYS_ADMIN) (rc " + (co == null ? "none" : co.rc()) + ")";
            } else if (!o.changed() && !controlChanged && c.attack().viaHelper()) {
                failure = "attack '" + c.attack().id() + "' proves nothing: the helper outside did not write the file"
                        + " even when the attack was made without ralon run (rc " + (co == null ? "none" : co.rc()) + ")";
            } else if (!o.changed() && !controlChanged) {
                failure = "attack '" + c.attack().id() + "' on " + where + " proves nothing: it changed nothing even"
                        + " under --backend noop (rc " + (co == null ? "none" : co.rc()) + ")";
            }
            verdicts.add(new Verdict(c.id(), c.attack(), c.kind(), isDeclared, o.changed(), controlChanged, failure,
                    o.notJudged() != null ? o.notJudged()
                            : o.changed() ? String.join("; ", o.changes()) : "unchanged (rc " + o.rc() + ")",
                    o.notJudged()));
        }
        return verdicts;
    }

    /** What must keep working: check name → failure message, null when it worked. */
    static Map<String, String> sanity(Input in) {
        Map<String, String> s = in.run().sanity();
        String context = in.context();
        Path next = in.project().resolve("c/ok-next/w");
        boolean nextRestricted = in.createRestricted().contains(next);
        Map<String, String> out = new LinkedHashMap<>();
        out.put("an existing unprotected file can be written",
                "unprotected\nchanged\n".equals(s.get("existing.txt")) ? null
                        : "writing free/existing.txt did not work (rc " + s.get("ok-write-unprotected") + ")" + context);
        out.put("a new file can be created in an unprotected directory", "ok\n".equals(s.get("new.txt")) ? null
                : "creating free/new.txt did not work (rc " + s.get("ok-create-unprotected") + ")" + context);
        String nextFile = s.get("next.txt");
        if (nextRestricted) {
            out.put("a new file next to a protected file is refused, as the plan's create-restricted list says",
                    nextFile == null ? null
                            : "the plan lists c/ok-next/w as create-restricted, yet a file was created in it");
        } else {
            out.put("a new file can be created next to a protected file", "ok\n".equals(nextFile) ? null
                    : "creating c/ok-next/w/new.txt next to a protected file did not work, and the plan does not list"
                    + " that directory as create-restricted (rc " + s.get("ok-create-next-to-protected") + ")" + context);
        }
        out.put("protected files can be read", Objects.equals(s.get("read-expected"), s.get("read-copy")) ? null
                : "reading protected files gave other bytes (rc " + s.get("ok-read-protected") + ")" + context);
        if (in.declared().contains(Guarantee.LEFTOVERS)) {
            // contained: the command runs beneath ralon's process, in a PID namespace of its own (SessionContainer)
            out.put("the command runs in a PID namespace of its own, beneath the process ralon was started as",
                    !Objects.equals(s.get("pid-expected"), s.get("pid-seen")) && s.get("pid-seen") != null
                            && !"-1".equals(s.get("pid-seen")) ? null
                            : "the backend declares " + Guarantee.LEFTOVERS.id() + ", yet the command runs as pid "
                            + s.get("pid-seen") + ", the pid `ralon run` was started as: it is in no PID namespace of"
                            + " its own" + context);
        } else {
            out.put("the command runs as the process ralon was started as (no supervisor)",
                    Objects.equals(s.get("pid-expected"), s.get("pid-seen")) ? null
                            : "the sandboxed command's pid is " + s.get("pid-seen") + ", but `ralon run` was started as pid "
                            + s.get("pid-expected") + ": something stays between ralon's process and the command (a"
                            + " supervising parent), so signals, job control and the exit status no longer reach the command"
                            + " as they reach the built-in backends' commands; the SPI's Enforcer contract forbids it (exec"
                            + " the command in place: unshare without --fork)" + context);
        }
        out.put("SIGTERM sent to ralon's pid reaches the command", "TERM".equals(s.get("ok-signal")) ? null
                : "SIGTERM sent to the pid `ralon run` was started as did not reach the command (it saw: "
                + s.get("ok-signal") + ")" + context);
        String gs = s.get("git-status");
        out.put("git status works", "0".equals(s.get("ok-git-status")) && gs != null && gs.contains("agent.lock")
                ? null : "git status failed or did not see the modified agent.lock (rc " + s.get("ok-git-status")
                + "): " + gs + context);
        out.put("the command runs as the invoking user (uid and gid)",
                Integer.toString(in.run().uid()).equals(s.get("id-uid")) && Objects.equals(s.get("expected-gid"),
                        s.get("id-gid")) ? null : "the command ran as uid " + s.get("id-uid") + ", gid " + s.get("id-gid")
                        + ", expected uid " + in.run().uid() + ", gid " + s.get("expected-gid") + context);
        out.put("the command keeps its working directory and environment",
                Objects.equals(s.get("expected-pwd"), s.get("id-pwd")) && "kit marker".equals(s.get("id-marker"))
                        && "-Dralon.kit.marker=1".equals(s.get("id-jto")) ? null
                        : "the command saw cwd " + s.get("id-pwd") + " (expected " + s.get("expected-pwd")
                        + "), RALON_KIT_MARKER=" + s.get("id-marker") + " (expected 'kit marker'), JAVA_TOOL_OPTIONS="
                        + s.get("id-jto") + " (expected -Dralon.kit.marker=1)" + context);
        out.put("the command gets the user's RLIMIT_NOFILE soft limit",
                Objects.equals(s.get("expected-nofile"), s.get("id-nofile")) ? null
                        : "ulimit -n in the command is " + s.get("id-nofile") + ", for a plain child of the same parent "
                        + s.get("expected-nofile") + context);
        out.put("a new directory tree can be made in an unprotected directory", "ok\n".equals(
                s.get("seen-ok-mkdir-deep")) ? null : works("mkdir -p free/new/dir", s, "ok-mkdir-deep", context));
        work(out, s, "ok-mv-between", "a file can be moved between two unprotected directories", context);
        work(out, s, "ok-ln-between", "a file can be hard-linked between two unprotected directories", context);
        work(out, s, "ok-mv-out-of-project", "a file can be moved out of the project (to the temporary directory)", context);
        work(out, s, "ok-rm-unprotected", "an unprotected file can be removed", context);
        work(out, s, "ok-write-in-ancestor", "an unprotected file beside a directory on the way can be written",
                context);
        restricted(out, s, "ok-way-mkdir", in.createRestricted().contains(next.getParent()),
                "a directory can be made beside a directory on the way (c/ok-next/newdir)", context);
        restricted(out, s, "ok-next-mkdir", nextRestricted, "a directory can be made next to a protected file", context);
        restricted(out, s, "ok-next-rename", nextRestricted, "an unprotected file next to a protected file can be"
                + " renamed in place", context);
        restricted(out, s, "ok-next-move-out", nextRestricted, "an unprotected file next to a protected file can be"
                + " moved out of its directory", context);
        restricted(out, s, "ok-next-via-link", nextRestricted, "a file can be created next to a protected file through"
                + " a symbolic link to its directory", context);
        return out;
    }

    private static String works(String what, Map<String, String> s, String id, String context) {
        return what + " did not work (rc " + s.get(id) + ")" + context;
    }

    private static void work(Map<String, String> out, Map<String, String> s, String id, String name, String context) {
        out.put(name, "true".equals(s.get("seen-" + id)) ? null : works(name, s, id, context));
    }

    /** Work in a directory the plan may list as create-restricted: refused there, working elsewhere. */
    private static void restricted(Map<String, String> out, Map<String, String> s, String id, boolean isRestricted,
                                   String name, String context) {
        boolean changed = "true".equals(s.get("seen-" + id));
        if (isRestricted) {
            out.put("refused, as the plan's create-restricted list says: " + name.replace(" can be ", " "),
                    changed ? "the plan lists the directory as create-restricted, yet this went through: " + name
                            + " (rc " + s.get(id) + ")" : null);
        } else {
            out.put(name, changed ? null : works(name, s, id, context) + "; the plan does not list the directory as"
                    + " create-restricted");
        }
    }

    private static String tail(String s, int lines) {
        List<String> all = s.lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size())) + "\n";
    }
}
