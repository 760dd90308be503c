package dev.ralon.maven.agentlock;

import static dev.ralon.policy.RuleText.Naming.ABSOLUTE;

import dev.ralon.policy.Expansion;
import dev.ralon.policy.FileNames;
import dev.ralon.policy.Policy;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.Rule;
import dev.ralon.policy.RuleText;
import dev.ralon.policy.Warning;
import dev.ralon.policy.git.GitIgnoredDirectories;
import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.PolicySet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The check behind {@code agentlock:check}, free of Maven types so it can be tested directly.
 *
 * <p>Contract: {@link #run} loads the policy with {@link PolicyLoader}, or takes the policies in force
 * ({@link PolicySet}: every agent.lock from the module up, each only adding), expands them against the file system,
 * and returns what to report, every line in the form {@code /abs/agent.lock[:L[:C]]: text}. It never logs and never
 * swallows a fault: policy errors and I/O faults of the loader come out as {@link PolicyException}
 * ({@link #describeAll} renders every error it carries), I/O faults while walking the tree as {@link IOException}.
 */
final class PolicyCheck {

    /** What the check found. {@code failures} empty means the build may go on. */
    record Result(String summary, List<String> warnings, List<String> failures) {}

    private PolicyCheck() {}

    /**
     * Formats a policy error as {@code /absolute/agent.lock:line:column: reason} (line and column left out when the
     * error concerns the whole file). Unlike {@link PolicyException#getMessage()}, which shows the file relative to
     * the working directory, the path is absolute: in a multi-module build the working directory says nothing.
     */
    static String describe(PolicyException e, Path file) {
        return RuleText.where(file, e.line(), e.column(), ABSOLUTE) + ": " + e.reason();
    }

    /**
     * Every error a {@link PolicyException} carries ({@link PolicyException#problems()}, in the order the spec fixes:
     * the exception's own first), one line each, so a file with four mistakes is reported in one build. A problem's
     * own file is used when it names one (absolute), else {@code file}.
     */
    static List<String> describeAll(PolicyException e, Path file) {
        List<String> out = new ArrayList<>();
        for (PolicyException.Problem p : e.problems()) {
            Path where = p.file() != null && p.file().isAbsolute() ? p.file() : file;
            out.add(RuleText.where(where, p.line(), p.column(), ABSOLUTE) + ": " + p.reason());
        }
        return out;
    }

    /**
     * A warning from policy-core in the form this plugin promises, {@code /abs/agent.lock[:L[:C]]: text}: placed where
     * it points, or, when it points nowhere in a policy (a link, a directory), put in front of by {@code file}.
     */
    static String absolute(Warning warning, Path file) {
        return warning.file() == null ? RuleText.file(file, ABSOLUTE) + ": " + warning.text() : warning.message(ABSOLUTE);
    }

    /**
     * @param file the agent.lock to check
     * @param failOnUnmatched whether a pattern that matches nothing is a failure (otherwise a warning)
     * @param required normalised paths (see {@link RequiredPath}) that the policy must protect
     */
    static Result run(Path file, boolean failOnUnmatched, List<String> required)
            throws PolicyException, IOException {
        return run(PolicySet.explicit(PolicyLoader.load(file)), failOnUnmatched, required);
    }

    /**
     * Checks every policy of {@code policies} together: each one's patterns that match nothing, each one's remarks, and
     * the required paths, relative to the nearest policy's directory, against all of them (a path any of them protects
     * is protected).
     */
    static Result run(PolicySet policies, boolean failOnUnmatched, List<String> required) throws IOException {
        // The protected paths counted, the "matches nothing" judgement and the "would match deeper" count leave out what
        // git ignores unless a pattern names the directory (target/ copies of a source file are not what a pattern's
        // author meant, and walking target/ is most of the cost); enforcement (ralon run) never asks git.
        Expansion expansion = policies.listing(GitIgnoredDirectories::of);
        List<String> warnings = new ArrayList<>();
        for (Policy p : policies.policies()) {
            for (Warning w : p.warnings()) {
                warnings.add(absolute(w, p.file()));
            }
            if (p.declaredRules().isEmpty()) {
                warnings.add(p.file().toAbsolutePath().normalize()
                        + ": the policy protects nothing but itself (no pattern under protect:)");
            }
        }
        List<Warning> remarks = new ArrayList<>(expansion.warnings());
        List<String> failures = new ArrayList<>();
        for (Rule rule : expansion.unmatched()) { // never holds the implicit self-protection rule
            // policy-core places a remark of an unmatched kind at each unmatched pattern ("matches nothing that exists", or
            // why a slash-less one would match deeper): report it once, at file:line:col, as a failure when asked to
            Warning said = null;
            for (Warning w : remarks) {
                if (w.kind().unmatched() && w.line() == rule.line() && w.column() == rule.column()
                        && java.util.Objects.equals(w.file(), rule.file())) {
                    said = w;
                    break;
                }
            }
            remarks.remove(said);
            String msg = said != null ? said.message(ABSOLUTE)
                    : RuleText.where(rule.file(), rule.line(), rule.column(), ABSOLUTE) + ": " + RuleText.pattern(rule)
                            + " matches nothing";
            (failOnUnmatched ? failures : warnings).add(msg);
        }
        Policy nearest = policies.nearest();
        String shown = String.join(", ", policies.files().stream().map(f -> f.toAbsolutePath().normalize().toString()).toList());
        // What the protected set may miss (a directory that cannot be listed, a name this JVM cannot read as UTF-8) fails
        // the check: the answer would otherwise differ from ralon's, silently. Maven's JVM reads file names with the
        // locale Maven was started under, which the plugin does not choose: ASCII names read the same under every
        // locale; a non-ASCII one under C, POSIX or no locale is reported here with what to do.
        for (Warning inc : expansion.incomplete()) {
            remarks.remove(inc);
            failures.add(inc.file() == null ? shown + ": " + inc.text() : inc.message(ABSOLUTE));
        }
        for (Warning w : remarks) {
            String abs = absolute(w, policies.nearest().file());
            if (!warnings.contains(abs)) {
                warnings.add(abs);
            }
        }
        for (String path : required) {
            Path abs;
            try {
                abs = nearest.root().resolve(path).normalize();
            } catch (java.nio.file.InvalidPathException e) {
                failures.add(nearest.file().toAbsolutePath().normalize() + ": required path \"" + path
                        + "\" cannot be represented in this JVM (file names are read as " + FileNames.encoding() + ")");
                continue;
            }
            if (!policies.isProtectedLexically(abs)) {
                failures.add(nearest.file().toAbsolutePath().normalize() + ": required path \"" + path
                        + "\" is not protected (no pattern " + (policies.policies().size() == 1 ? "" : "of " + shown + " ")
                        + "covers " + abs + ")");
            }
        }
        String notUtf8 = FileNames.notUtf8Reason();
        if (!failures.isEmpty() && notUtf8 != null) {
            // a hint about the failures, not a problem of the file: a warning, so that the count of problems stays true
            warnings.add("agentlock: " + notUtf8 + "; Maven's own locale decides it: LC_ALL=C.UTF-8 mvn ...");
        }
        int patterns = 0;
        for (Policy p : policies.policies()) {
            patterns += p.declaredRules().size();
        }
        long onDisk = expansion.entries().stream().filter(e -> e.kind() != Expansion.Entry.Kind.MISSING).count();
        String summary = "agent.lock OK: " + shown + " (" + patterns + " pattern" + (patterns == 1 ? "" : "s")
                + ", " + onDisk + " protected path" + (onDisk == 1 ? "" : "s") + " on disk" + (required.isEmpty() ? "" : ", " + required.size() + " required path"
                + (required.size() == 1 ? "" : "s") + " protected") + ")";
        return new Result(summary, List.copyOf(warnings), List.copyOf(failures));
    }
}
