package dev.ralon.cli;

import dev.ralon.policy.git.GitLayout;
import dev.ralon.enforcer.spi.Command;
import dev.ralon.enforcer.spi.Launch;
import dev.ralon.linux.Exec;
import dev.ralon.linux.ExecException;
import dev.ralon.linux.LauncherNamespace;
import dev.ralon.linux.Supervisor;
import dev.ralon.host.AgentsUnderLandlock;
import dev.ralon.host.BackendSurvey;
import dev.ralon.host.RunDecision;
import dev.ralon.host.SessionNotes;
import dev.ralon.host.StartReport;
import dev.ralon.host.WritableAreas;
import dev.ralon.policy.Expansion;
import dev.ralon.policy.Rule;
import dev.ralon.policy.walk.PolicySet;
import dev.ralon.policy.Warning;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ralon run}, executed ({@link RunRequest}; picocli-free, reached from {@link RunCommand} and {@link FastParser}):
 * becomes the command, with the policy enforced by the chosen backend.
 *
 * <p>Contract: the command is started only when the backend is available and its plan is enforceable (or the user
 * passed {@code --allow-degraded}, and then every refusal and missing guarantee is printed first). On success this
 * process (same pid) becomes the command through execve, so the command keeps the terminal, the foreground process
 * group, its exit status and its signals (under a backend that declares {@code leftovers}, the mount backend, the
 * command runs beneath this pid in a PID namespace of its own, and the chain passes the status and signals on). Where
 * the backend cannot contain the session and the host holds {@code leftovers} itself ({@link RunDecision#supervised()}),
 * this process stays instead, as the command's parent ({@link Supervisor}), and returns its status. Every refusal is
 * one line and exit 2, with nothing started.
 */
final class Run {
    /** Environment variable the command sees: the backend's name. */
    static final String ENV_BACKEND = StartReport.ENV_BACKEND;
    /** Environment variable the command sees: the nearest policy file's absolute path (the others: --dry-run). */
    static final String ENV_POLICY = StartReport.ENV_POLICY;

    private Run() {
    }

    /** Runs {@code request}: returns only for {@code --dry-run}; otherwise becomes the command or throws a refusal. */
    static int execute(RunRequest request, PrintWriter out, PrintWriter err) throws IOException {
        List<String> command = request.command();
        boolean dryRun = request.dryRun();
        boolean json = request.json();
        if (command.isEmpty() && !dryRun) {
            throw CliException.error("no command given; usage: ralon run [--backend NAME] -- CMD [ARGS...]");
        }
        if (request.quiet() && request.verbose()) {
            throw CliException.error("--quiet and --verbose: choose one");
        }
        if (json && !dryRun) {
            throw CliException.error("--json goes with --dry-run");
        }
        BackendSurvey survey = BackendSurvey.forRun(request.backend()); // what needs no policy, on other threads
        PolicySet policies = PolicyOption.load(request.policy());
        String leftOut = PolicyOption.leftOutNote(request.policy()); // what --policy leaves out, said below
        String redirect = GitLayout.redirectRefusal(Path.of("").toAbsolutePath(), policies.nearest().root());
        if (redirect != null) {
            throw CliException.error(redirect + " (nothing was started)");
        }
        if (request.createAgentState() && !dryRun && System.getenv("HOME") != null) {
            for (Path created : AgentsUnderLandlock.createStateDirectories(Path.of(System.getenv("HOME")))) {
                err.println("ralon: created " + created);
            }
        }
        if (request.writes().anywhere() && (request.writes().temp() != null || !request.writes().allow().isEmpty())) {
            throw CliException.error("--write-anywhere leaves every writable place writable: --temp and --allow-write"
                    + " go without it");
        }
        if (request.writes().temp() != null && !Files.isDirectory(request.writes().temp())) {
            throw CliException.error("--temp " + request.writes().temp() + ": not a directory (it must exist; nothing"
                    + " was started)");
        }
        for (String a : request.writes().allow()) { // asked for on this run: never a silent no-op (a line in the file is said)
            Path p = WritableAreas.allowed(a, System.getenv(), Path.of("").toAbsolutePath());
            if (!Files.exists(p)) {
                throw CliException.error("--allow-write " + a + ": " + p + " does not exist (create it first, or leave"
                        + " the option out; nothing was started)");
            }
        }
        WalkReader.install();
        Expansion expansion = policies.expand(false); // no "would match deeper" walk at start-up
        for (String problem : survey.problems()) { // said before the choice, which may refuse because of one
            err.println("ralon: warning: " + problem);
        }
        Path cwd = Path.of("").toAbsolutePath();
        // the one decision (host): backend, set, plan, baseline, admission, writable areas, session
        RunDecision d = RunDecision.decide(survey, policies, expansion, new RunDecision.Options(request.backend(),
                request.noBaseline(), !dryRun, request.allowUnixSockets(), request.writes().anywhere(),
                request.writes().temp(), request.writes().allow(), System.getenv(), cwd));
        var enforcer = d.enforcer();
        List<String> passedOver = new ArrayList<>();
        for (String passed : json ? List.<String>of() : d.passedOver()) {
            passedOver.add("note: " + passed + "; using " + enforcer.name());
        }
        if (dryRun) {
            passedOver.forEach(out::println);
            return dryRun(d, request, leftOut, out);
        }

        // what is said at start (StartLines): errors refuse; what weakens the run or asks something of the user is a
        // warning, printed even with -q; what only explains is a note, printed with --verbose and counted otherwise
        StartLines lines = new StartLines();
        passedOver.forEach(lines::mustAct); // a stronger backend left aside (unavailable, or its plan failed)
        if (leftOut != null) {
            lines.mustAct("note: " + leftOut); // --policy: the policies it leaves out are not in force
        }
        if (request.noBaseline()) {
            lines.mustAct("note: baseline off (--no-baseline): the paths that run code later (git's hooks and config,"
                    + " shell start-up files, agents' settings) are not protected");
        }
        for (WritableAreas.Left l : d.writable().left()) { // asked for, and not writable: said, never silent
            lines.mustAct("warning: " + l.path() + " is not writable in this session (" + l.why() + ")");
        }
        String restricted = d.createRestrictedWarning();
        if (restricted != null) {
            lines.mustAct("warning: " + restricted);
        }
        String notCreateProtected = d.notCreateProtectedLine();
        for (Warning w : expansion.warnings()) { // the set's warnings, as data
            if (notCreateProtected != null && w.kind() == Warning.Kind.NAMES_NOTHING_YET) {
                continue; // the one line about missing paths (notCreateProtected) says it, with what it means here
            }
            String line = "warning: " + w.message(expansion.naming());
            if (w.kind().unmatched()) {
                lines.note(line); // advice on the policy's text (status shows it too)
            } else {
                lines.mustAct(line); // a link leading out, a path git writes, a directory not read: it weakens the run
            }
        }
        for (String w : d.plan().warnings()) { // the backend's own: what the user should know (Plan#warnings)
            lines.mustAct("warning: " + w);
        }
        for (String n : d.plan().notes()) { // what only explains the plan (Plan#notes)
            lines.note("note: " + n);
        }
        if (notCreateProtected != null) { // a path the user named that the command may create: theirs to act on
            lines.mustAct(notCreateProtected);
        }
        if (d.baseline() != null && !enforcer.guarantees().isEmpty()) { // noop says "enforces nothing" below
            String existing = d.baseline().existingNotProtected(enforcer.name());
            if (existing != null) { // a file that runs code later, there now, left writable: a hole
                lines.mustAct("warning: " + existing);
            }
            String baselineLine = d.baseline().summary(enforcer.name());
            if (baselineLine != null) {
                lines.note(baselineLine);
            }
        }
        for (String w : d.gitNotes()) {
            lines.mustAct("warning: " + w);
        }
        for (String n : d.notes(command)) {
            lines.note("note: " + n);
        }
        if (!d.enforceable()) {
            List<String> refusals = d.admission().reasons();
            if (!request.allowDegraded()) {
                throw CliException.error("backend " + enforcer.name() + " cannot enforce this policy: "
                        + String.join("; ", refusals) + " (nothing was started; --allow-degraded runs anyway)");
            }
            for (String r : refusals) {
                lines.mustAct("DEGRADED: " + r);
            }
            lines.mustAct("DEGRADED: not guaranteed in this run: " + GuaranteeIds.text(d.missing()));
        }
        if (enforcer.guarantees().isEmpty()) {
            lines.mustAct("WARNING: backend " + enforcer.name() + " enforces nothing: no path is protected in this run");
        }
        // the session guard is the host's, for every backend: refuse rather than run without it (SessionReport)
        String sessionRefusal = d.session().kernelRefusal();
        if (sessionRefusal != null) {
            if (!request.allowDegraded()) {
                throw CliException.error(sessionRefusal + " (nothing was started; --allow-degraded runs anyway)");
            }
            lines.mustAct("DEGRADED: " + sessionRefusal);
        }

        Map<String, String> env = userEnvironment(System.getenv());
        env.remove(LauncherNamespace.ENV); // the launcher's word to this JVM, not to the command
        String notesProblem = SessionNotes.putEnv(env, SessionNotes.text(enforcer, d.planned(), d.policies(),
                d.writable().confinement())); // RALON_NOTES: what an agent can be pointed at
        if (notesProblem != null) {
            err.println("ralon: warning: " + notesProblem);
        }
        Path executable = Executables.resolve(command.get(0), env.get("PATH"), cwd);
        Command prepared = d.command(executable, command, env);
        if (d.supervised()) { // no PID namespace here: ralon stays as the command's parent (Supervisor)
            try {
                return Supervisor.run(() -> {
                    Launch l = d.prepare(prepared);
                    printStart(d, request, out, err, lines);
                    return l;
                }, d.sessionOptions());
            } catch (ExecException e) {
                throw CliException.error(e.getMessage());
            }
        }
        Launch launch = d.prepare(prepared);
        printStart(d, request, out, err, lines);
        try {
            Exec.replaceProcess(launch.executable(), launch.argv(), launch.env(), d.sessionOptions());
        } catch (ExecException e) {
            throw CliException.error(e.getMessage());
        }
        throw new IllegalStateException("execve returned");
    }

    /** The start lines, printed once the command is prepared (or, supervised, about to be). */
    private static void printStart(RunDecision d, RunRequest request, PrintWriter out, PrintWriter err,
                                   StartLines lines) {
        String sessionSuffix = d.session().startLineSuffix(); // "; not refused towards processes outside: …"
        if (!sessionSuffix.isEmpty()) {
            lines.optIn(sessionSuffix.substring(2));
        }
        if (!d.writable().confinement().confined()) {
            lines.optIn("writes outside the project NOT confined (--write-anywhere)");
        }
        lines.print(err, request.quiet(), request.verbose(), d.startLine(), d.errnoLine());
        out.flush();
        err.flush();
    }

    /** {@code run --dry-run}: the decision, rendered; exit 0 when it could start, 1 when it would be refused. */
    private static int dryRun(RunDecision d, RunRequest request, String leftOut, PrintWriter out) {
        PolicySet policies = d.policies();
        if (request.json()) {
            Map<String, Object> doc = DryRunReport.json(d);
            doc.put("policies", policies.files().stream().map(Path::toString).toList());
            doc.put("policyReplacedDiscovery", policies.isExplicit());
            doc.put("passedOver", d.passedOver());
            doc.put("baseline", BaselineReport.json(d.baseline()));
            doc.put("expandedAtStart", d.expandedAtStart().stream().map(Rule::pattern).toList());
            doc.put("session", d.session().json());
            doc.put("writable", WritableReport.json(d.writable()));
            @SuppressWarnings("unchecked")
            List<String> w = (List<String>) doc.get("warnings");
            w.addAll(d.gitNotes());
            out.println(Json.write(doc));
        } else {
            if (leftOut != null) {
                out.println("note: " + leftOut);
            }
            List<String> extra = new ArrayList<>();
            String expandedLine = ExpandedAtStart.line(d.expandedAtStart(), policies.naming());
            if (expandedLine != null) {
                extra.add("note: " + expandedLine);
            }
            for (String g : d.gitNotes()) {
                extra.add("warning: " + g);
            }
            extra.addAll(d.session().lines());
            extra.addAll(request.verbose() ? WritableReport.lines(d.writable(), WritableReport.home())
                    : WritableReport.summary(d.writable(), WritableReport.home(), d.set().root()));
            if (!request.verbose()) {
                extra.add(BaselineReport.summary(d.baseline(), d.enforcer().name()));
            }
            DryRunReport.print(out, d, extra, request.verbose());
            if (request.verbose()) {
                BaselineReport.print(out, d.baseline(), d.enforcer().name());
            }
        }
        out.flush();
        return d.enforceable() ? ExitCodes.OK : ExitCodes.PROTECTED;
    }

    /** Set by the launcher when it started the JVM under LC_ALL=C.UTF-8 in place of the user's locale. */
    static final String ENV_LOCALE_FORCED = "RALON_LOCALE_FORCED";
    /** The user's own LC_ALL, recorded by the launcher when it was set. */
    static final String ENV_USER_LC_ALL = "RALON_USER_LC_ALL";

    /**
     * The command's environment: this process's, with the user's own locale given back exactly. The launcher
     * (ralon.sh) starts the JVM under LC_ALL=C.UTF-8 when the user's LC_CTYPE is not UTF-8, so that file names are read
     * as UTF-8; the command gets the user's LC_ALL back as it was: the recorded value, or unset when it was unset. The
     * same for LIBFFI_TMPDIR, which the launcher points at a directory of its own for this JVM's libffi.
     */
    static Map<String, String> userEnvironment(Map<String, String> processEnv) {
        Map<String, String> env = new HashMap<>(processEnv);
        if (env.remove(ENV_LOCALE_FORCED) != null) {
            env.remove("LC_ALL");
            String user = env.remove(ENV_USER_LC_ALL);
            if (user != null) {
                env.put("LC_ALL", user);
            }
        }
        // the launcher's directory for this JVM's libffi (ralon.sh): the user's own value, or none, for the command
        if (env.remove(ENV_LIBFFI_SET) != null) {
            env.remove("LIBFFI_TMPDIR");
            String user = env.remove(ENV_USER_LIBFFI_TMPDIR);
            if (user != null) {
                env.put("LIBFFI_TMPDIR", user);
            }
        }
        return env;
    }

    /** Set by the launcher when it gave this JVM's libffi a directory of its own (ralon.sh). */
    static final String ENV_LIBFFI_SET = "RALON_LIBFFI_SET";
    /** The user's own LIBFFI_TMPDIR, when the launcher replaced it. */
    static final String ENV_USER_LIBFFI_TMPDIR = "RALON_USER_LIBFFI_TMPDIR";

    /** execvp-style lookup, done before anything is set up so "not found" is a clean error. */
    static final class Executables {
        private Executables() {
        }

        static Path resolve(String name, String pathVar, Path cwd) {
            if (name.isEmpty()) {
                throw CliException.error("empty command name");
            }
            if (name.indexOf('/') >= 0) {
                Path p = cwd.resolve(name).normalize();
                check(p, name);
                return p;
            }
            String search = pathVar == null ? "/usr/local/bin:/usr/bin:/bin" : pathVar;
            boolean foundButNotExecutable = false;
            for (String dir : search.split(":", -1)) {
                Path p = (dir.isEmpty() ? cwd : cwd.resolve(dir)).resolve(name);
                if (Files.isRegularFile(p)) {
                    if (Files.isExecutable(p)) {
                        return p.toAbsolutePath().normalize();
                    }
                    foundButNotExecutable = true;
                }
            }
            throw CliException.error(foundButNotExecutable ? name + ": permission denied (not executable)"
                    : "command not found: " + name);
        }

        private static void check(Path p, String name) {
            if (!Files.exists(p)) {
                throw CliException.error("command not found: " + name);
            }
            if (Files.isDirectory(p)) {
                throw CliException.error(name + ": is a directory");
            }
            if (!Files.isExecutable(p)) {
                throw CliException.error(name + ": permission denied (not executable)");
            }
        }
    }
}
