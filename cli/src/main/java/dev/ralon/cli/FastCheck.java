package dev.ralon.cli;

import dev.ralon.policy.Policy;
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
 * {@code ralon check PATH...} without picocli: the hook agents call before every write, so its start-up matters
 * (picocli's class loading, old-format bytecode verification and annotation reflection cost more than the check
 * itself; see docs/performance.md).
 *
 * <p>Contract: {@link #applies} accepts only argument lists that picocli would parse as {@code check} with plain
 * positional paths and no option: {@code check} followed by at least one path, none empty, none starting with
 * {@code -} (an option, or {@code --}) or {@code @} (picocli's argument files). For those, {@link #run} gives the same
 * output, error lines and exit code as {@code CheckCommand} (both use {@link #checkPaths}); everything else
 * goes through picocli.
 */
final class FastCheck {
    private FastCheck() {
    }

    static boolean applies(String[] args) {
        if (args.length < 2 || !"check".equals(args[0])) {
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

    static int run(String[] args, PrintWriter out, PrintWriter err) {
        try {
            Policy policy = new PolicyOption().load();
            List<String> paths = Arrays.asList(args).subList(1, args.length);
            return checkPaths(policy, paths, out, false, false, false);
        } catch (CliException e) {
            err.println("ralon: " + oneLine(e.getMessage()));
            err.flush();
            return e.exitCode();
        } catch (RuntimeException e) {
            if (System.getenv("RALON_DEBUG") != null) {
                e.printStackTrace(err);
            }
            err.println("ralon: internal error: " + e.getClass().getSimpleName() + ": " + oneLine(String.valueOf(e.getMessage()))
                    + " (set RALON_DEBUG=1 for details; please report it)");
            err.flush();
            return ExitCodes.ERROR;
        }
    }

    /** Checks each path, printing protected ones (or JSON); exit 1 if any is protected. Shared by {@code check} with and without picocli. */
    static int checkPaths(Policy policy, List<String> all, PrintWriter out, boolean explain, boolean json, boolean nul) {
        boolean any = false;
        List<Object> results = new ArrayList<>();
        for (String p : all) {
            Path path;
            try {
                path = Path.of(p);
            } catch (InvalidPathException e) {
                throw CliException.error("not a valid path: " + oneLine(p));
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
            doc.put("policy", policy.file().toString());
            doc.put("root", policy.root().toString());
            doc.put("anyProtected", any);
            doc.put("results", results);
            out.println(Json.write(doc));
        }
        out.flush();
        return any ? ExitCodes.PROTECTED : ExitCodes.OK;
    }

    static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
