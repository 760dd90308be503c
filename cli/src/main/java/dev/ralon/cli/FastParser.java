package dev.ralon.cli;

import java.util.Arrays;
import java.util.List;

/**
 * The command lines on every agent's hot path, parsed without picocli: {@code ralon check PATH...} (before every write),
 * {@code ralon check} (the listing, in CI and hooks), {@code ralon hook [FORMAT]} (the agents' pre-write hook, JSON on
 * stdin), {@code ralon status [--json]} and {@code ralon run [--backend NAME] -- CMD...} (starts every session).
 * picocli's class loading, old-format bytecode verification and annotation reflection cost more than the work itself
 * (docs/performance.md).
 *
 * <p>Contract: {@link #parse} returns a request only for argument lists that picocli parses unambiguously the same way,
 * and then exactly the request picocli's bindings make ({@code RequestParityTest} holds the two equal over generated
 * argument lists); for everything else it returns null and picocli parses. The forms: {@code check} alone, or followed
 * by paths, none empty, none starting with {@code -} (an option, or {@code --}) or {@code @} (picocli's argument
 * files); {@code hook} alone or with one FORMAT, not empty, not starting with {@code -} or {@code @} (an unknown FORMAT
 * is refused by the request itself, as under picocli); {@code status} alone or with {@code --json}; {@code run},
 * optionally {@code --backend NAME} (NAME as FORMAT) and {@code -q} or {@code --quiet}, each once, in either order,
 * then {@code --}, then at least one argument, none starting with {@code @}.
 */
final class FastParser {
    private FastParser() {
    }

    /** The request for {@code args}, or null when picocli must parse them. */
    static Request parse(String[] args) {
        if (args.length == 0) {
            return null;
        }
        switch (args[0]) {
            case "check" -> {
                for (int i = 1; i < args.length; i++) {
                    if (!plain(args[i])) {
                        return null;
                    }
                }
                return CheckRequest.of(Arrays.asList(args).subList(1, args.length));
            }
            case "hook" -> {
                if (args.length == 1) {
                    return new HookRequest(null, null);
                }
                return args.length == 2 && plain(args[1]) ? new HookRequest(args[1], null) : null;
            }
            case "status" -> {
                if (args.length == 1) {
                    return new StatusRequest(null, false, false);
                }
                return args.length == 2 && "--json".equals(args[1]) ? new StatusRequest(null, true, false) : null;
            }
            case "run" -> {
                return run(args);
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * {@code run}, then in any order at most one {@code --backend NAME} and at most one {@code -q} or {@code --quiet},
     * then {@code --} and the command; null for any other form (picocli refuses an option given twice: left to it).
     */
    private static Request run(String[] args) {
        String backend = null;
        boolean quiet = false;
        int i = 1;
        while (i < args.length && !"--".equals(args[i])) {
            if ("--backend".equals(args[i]) && backend == null && i + 1 < args.length && plain(args[i + 1])) {
                backend = args[i + 1];
                i += 2;
            } else if (("-q".equals(args[i]) || "--quiet".equals(args[i])) && !quiet) {
                quiet = true;
                i++;
            } else {
                return null;
            }
        }
        if (args.length <= i + 1) {
            return null; // no -- or no command after it
        }
        for (int k = i + 1; k < args.length; k++) {
            if (args[k].startsWith("@")) {
                return null;
            }
        }
        List<String> command = Arrays.asList(args).subList(i + 1, args.length);
        return new RunRequest(null, backend, false, false, quiet, false, false, false, false, false, RunRequest.Writes.DEFAULT,
                command);
    }

    /** Not empty, not an option or {@code --}, not one of picocli's {@code @argument files}. */
    private static boolean plain(String a) {
        return !a.isEmpty() && a.charAt(0) != '-' && a.charAt(0) != '@';
    }
}
