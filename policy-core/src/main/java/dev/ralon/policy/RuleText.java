package dev.ralon.policy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one wording of "which rule protects this" and of "where in a policy": every tool that names a rule (check
 * {@code --explain}, the hook's refusal, the start line, the reasons handed to an enforcer, the conformance kit, the
 * Maven plugin) says it through this class, so the words cannot drift apart.
 *
 * <ul>
 *   <li>a rule: {@code "secrets/" (agent.lock:6)}, the pattern quoted as written;</li>
 *   <li>the implicit rule: {@code agent.lock (the policy file always protects itself)};</li>
 *   <li>a place: {@code agent.lock:6:5}, the column given when known ({@link #where}).</li>
 * </ul>
 * How the policy file is named is the caller's choice ({@link Naming}): the name alone when one policy is in force,
 * the path as shown to a person in a terminal, or absolute for build logs read by CI and IDEs.
 */
public final class RuleText {
    private RuleText() {
    }

    /** How a policy file is named in a wording. */
    public enum Naming {
        /**
         * The file's name alone ({@code agent.lock}), enough when a single policy is in force. A name that is not
         * absolute (a version read from git, {@code HEAD:agent.lock}) is shown whole.
         */
        FILE_NAME,
        /** Relative to the working directory when beneath it, else absolute: what a person in a terminal reads. */
        SHOWN,
        /**
         * Absolute and normalised, with the column: {@code /work/p/agent.lock:6:5}, for logs read by CI and IDEs
         * (in a multi-module build the working directory says nothing). A git display name is shown whole.
         */
        ABSOLUTE;

        /** {@link #FILE_NAME} when {@code nameOnly}, else {@link #SHOWN}. */
        public static Naming of(boolean nameOnly) {
            return nameOnly ? FILE_NAME : SHOWN;
        }
    }

    /**
     * Where a rule is written: {@code agent.lock:6} ({@code /abs/agent.lock:6:5} with {@link Naming#ABSOLUTE}); for
     * the implicit rule, the file alone.
     */
    public static String location(Rule rule, Naming naming) {
        if (rule.implicit()) {
            return file(rule.file(), naming);
        }
        return where(rule.file(), rule.line(), naming == Naming.ABSOLUTE ? rule.column() : 0, naming);
    }

    /**
     * A rule as tools cite it: {@code "pattern" (agent.lock:6)}, or for the implicit rule
     * {@code agent.lock (the policy file always protects itself)}.
     */
    public static String of(Rule rule, Naming naming) {
        return rule.implicit() ? location(rule, naming) + " (the policy file always protects itself)"
                : quoted(rule) + " (" + location(rule, naming) + ")";
    }

    /**
     * {@link #of(Rule, Naming)} with the policy file named as the caller shows it ({@code app/agent.lock}: relative to
     * where the reader stands, when the path beside it is shown that way too).
     */
    public static String of(Rule rule, String shownFile) {
        return rule.implicit() ? shownFile + " (the policy file always protects itself)"
                : quoted(rule) + " (" + shownFile + ":" + rule.line() + ")";
    }

    /** Every rule {@link #of(Rule, Naming) cited}, joined by {@code ", "}. */
    public static String of(List<Rule> rules, Naming naming) {
        List<String> parts = new ArrayList<>(rules.size());
        for (Rule r : rules) {
            parts.add(of(r, naming));
        }
        return String.join(", ", parts);
    }

    /** The subject of a remark about one pattern: {@code pattern "secrets/"}. */
    public static String pattern(Rule rule) {
        return "pattern " + quoted(rule);
    }

    /**
     * A place in a policy file: {@code file:line:column} ({@code line} and {@code column} left out when 0), the file
     * named as {@code naming} says; {@code agent.lock} when the file is not known.
     */
    public static String where(Path file, int line, int column, Naming naming) {
        StringBuilder sb = new StringBuilder(file(file, naming));
        if (line > 0) {
            sb.append(':').append(line);
            if (column > 0) {
                sb.append(':').append(column);
            }
        }
        return sb.toString();
    }

    /** The policy file named as {@code naming} says. */
    public static String file(Path file, Naming naming) {
        if (file == null) {
            return "agent.lock";
        }
        if (!file.isAbsolute() && file.toString().contains(":")) {
            return file.toString(); // a version read from git (HEAD:agent.lock): a display name, shown whole
        }
        return switch (naming) {
            case FILE_NAME -> file.isAbsolute() && file.getFileName() != null ? file.getFileName().toString()
                    : Paths2.display(file);
            case SHOWN -> Paths2.display(file);
            case ABSOLUTE -> file.toAbsolutePath().normalize().toString();
        };
    }

    private static String quoted(Rule rule) {
        return "\"" + rule.pattern() + "\"";
    }
}
