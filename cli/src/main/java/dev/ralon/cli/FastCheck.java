package dev.ralon.cli;

import dev.ralon.policy.PolicySet;
import dev.ralon.policy.Rule;

import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The commands on every agent's hot path without picocli: {@code ralon check PATH...} (called before every write),
 * {@code ralon check} (the listing, in CI and hooks) and {@code ralon run [--backend NAME] -- CMD...} (starts every
 * session). picocli's class loading, old-format bytecode
 * verification and annotation reflection cost more than the work itself (docs/performance.md).
 *
 * <p>Contract: {@link #applies} accepts only argument lists that picocli parses unambiguously the same way:
 * {@code check} alone (list every protected path), or {@code check} followed by paths, none empty, none starting with {@code -} (an option, or {@code --}) or
 * {@code @} (picocli's argument files); or {@code run}, optionally {@code --backend NAME} (NAME not empty, not starting
 * with {@code -} or {@code @}), then {@code --}, then at least one argument, none starting with {@code @}. For those,
 * {@link #run} gives the same output, error lines and exit code as picocli would: check uses the same
 * {@link #checkPaths}, run the same {@code RunCommand} object with its fields set as picocli sets them. Everything else
 * goes through picocli.
 */
final class FastCheck {
    private FastCheck() {
    }

    static boolean applies(String[] args) {
        if (args.length >= 3 && "run".equals(args[0])) {
            return runCommandStart(args) > 0;
        }
        if (args.length < 1 || !"check".equals(args[0])) {
            return false;
        }
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.isEmpty() || a.charAt(0) == '-' || a.charAt(0) == '@') {
                return false;
            }
        }
        return true;
    }

    /** For {@code run}: the index of the command's first argument, or -1 if the form is not the one accepted. */
    private static int runCommandStart(String[] args) {
        int i = 1;
        if ("--backend".equals(args[i])) {
            if (args.length < 5 || !plain(args[i + 1])) {
                return -1;
            }
            i += 2;
        }
        if (!"--".equals(args[i]) || i + 1 >= args.length) {
            return -1;
        }
        for (int k = i + 1; k < args.length; k++) {
            if (args[k].startsWith("@")) {
                return -1;
            }
        }
        return i + 1;
    }

    private static boolean plain(String a) {
        return !a.isEmpty() && a.charAt(0) != '-' && a.charAt(0) != '@';
    }

    static int run(String[] args, PrintWriter out, PrintWriter err) {
        try {
            if ("run".equals(args[0])) {
                RunCommand run = new RunCommand();
                run.policyOption = new PolicyOption();
                run.backend = "--backend".equals(args[1]) ? args[2] : null;
                int start = runCommandStart(args);
                run.command = new ArrayList<>(Arrays.asList(args).subList(start, args.length));
                run.fastOut = out;
                run.fastErr = err;
                return run.call();
            }
            PolicySet policy = new PolicyOption().load();
            if (args.length == 1) {
                return CheckCommand.listProtected(policy, out, err, false, false);
            }
            List<String> paths = Arrays.asList(args).subList(1, args.length);
            return checkPaths(policy, paths, out, false, false, false);
        } catch (RuntimeException | java.io.IOException e) {
            return CliException.report(e, err);
        }
    }

    /** Checks each path, printing protected ones (or JSON); exit 1 if any is protected. Shared by {@code check} with and without picocli. */
    static int checkPaths(PolicySet policy, List<String> all, PrintWriter out, boolean explain, boolean json, boolean nul) {
        boolean any = false;
        List<Object> results = new ArrayList<>();
        for (String p : all) {
            if (dev.ralon.policy.FileNames.hasReplacement(p)) {
                // not valid UTF-8 (decoded with U+FFFD): the path asked about is not the one judged
                throw CliException.error("not a valid UTF-8 path (file names are UTF-8): " + CliException.oneLine(p));
            }
            if (p.isEmpty()) {
                throw CliException.error("an empty path names nothing; give a path (use . for this directory)");
            }
            Path path;
            try {
                path = Path.of(p);
            } catch (InvalidPathException e) {
                throw CliException.error("not a valid path: " + CliException.oneLine(p));
            }
            List<Rule> rules = policy.check(path);
            any |= !rules.isEmpty();
            if (json) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("path", p);
                r.put("protected", !rules.isEmpty());
                r.put("rules", CheckCommand.rulesJson(rules));
                results.add(r);
            } else if (!rules.isEmpty()) {
                if (explain) {
                    out.print(p + ": protected by " + CheckCommand.describe(policy, rules));
                } else {
                    out.print(p);
                }
                out.print(nul ? "\0" : "\n");
            }
        }
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            CheckCommand.putPolicies(doc, policy);
            doc.put("root", policy.root().toString());
            doc.put("anyProtected", any);
            doc.put("results", results);
            out.println(Json.write(doc));
        }
        out.flush();
        return any ? ExitCodes.PROTECTED : ExitCodes.OK;
    }
}
