package dev.ralon.policy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A non-fatal remark found while loading or expanding a policy, as data: what kind it is, where it points (a policy
 * file, a line and a column, each absent when the remark is not about a place in a policy) and what it says. Tools
 * render it ({@link #message}) and decide on its {@link #kind()}, never on its text.
 *
 * @param kind   what the remark is about; {@link Kind#id()} is stable (JSON output, the Maven plugin)
 * @param file   the policy file the remark points into, as the loader was given it; null when it points nowhere in
 *               a policy (a link, a directory that cannot be listed)
 * @param line   1-based line in {@code file}; 0 when none
 * @param column 1-based column in Unicode code points; 0 when none
 * @param text   the remark without its place: {@code pattern "keys/*.pem" matches nothing that exists}
 */
public record Warning(Kind kind, Path file, int line, int column, String text) {

    /** Every kind of remark. */
    public enum Kind {
        /** A pattern that normalises to one written earlier in the same file. */
        REPEATED_PATTERN(false),
        /** A pattern with wildcards that matches no existing path. */
        MATCHES_NOTHING(false),
        /** A literal pattern whose path does not exist (yet): it is protected all the same. */
        NAMES_NOTHING_YET(false),
        /** A slash-less pattern that matches nothing at the top but would match deeper (patterns are anchored). */
        MATCHES_DEEPER(false),
        /** A protected path git writes in ordinary work. */
        STOPS_GIT(false),
        /** A symbolic link that leads a protected path outside the project, or points to nothing. */
        LINK(false),
        /** A directory in the policy's reach that could not be listed: the protected set may miss a path. */
        CANNOT_LIST(true),
        /** A name this JVM cannot read as UTF-8: the protected set may miss a path. */
        UNREADABLE_NAME(true),
        /** An entry whose type could not be read: the protected set may miss a path. */
        CANNOT_EXAMINE(true),
        /** A literal pattern naming a path this JVM cannot represent: the protected set may miss a path. */
        UNREPRESENTABLE_PATTERN(true),
        /**
         * Links that lead to the same directories by more paths than one walk follows (TreeWalker's bound): the
         * protected set may miss a path reached only through links.
         */
        TOO_MANY_LINK_PATHS(true);

        private final boolean incomplete;

        Kind(boolean incomplete) {
            this.incomplete = incomplete;
        }

        /** Whether a remark of this kind means the protected set may miss a path ({@link Expansion#incomplete()}). */
        public boolean incomplete() {
            return incomplete;
        }

        /** Whether the remark says that a pattern matches no existing path (one of three ways of saying it). */
        public boolean unmatched() {
            return this == MATCHES_NOTHING || this == NAMES_NOTHING_YET || this == MATCHES_DEEPER;
        }

        /** Stable id: lower case, dashed ({@code matches-nothing}). */
        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** A remark that points to nowhere in a policy. */
    public static Warning of(Kind kind, String text) {
        return new Warning(kind, null, 0, 0, text);
    }

    /** A remark about one rule, placed where the rule is written: {@code pattern "p" } followed by {@code rest}. */
    public static Warning about(Kind kind, Rule rule, String rest) {
        return new Warning(kind, rule.file(), rule.line(), rule.column(), RuleText.pattern(rule) + " " + rest);
    }

    /**
     * One line: {@code agent.lock:4:5: text} ({@link RuleText#where}), or the text alone when the remark points to
     * nowhere in a policy.
     */
    public String message(RuleText.Naming naming) {
        return file == null && line == 0 ? text : RuleText.where(file, line, column, naming) + ": " + text;
    }

    /** Every warning's {@link #message}. */
    public static List<String> messages(List<Warning> warnings, RuleText.Naming naming) {
        List<String> out = new ArrayList<>(warnings.size());
        for (Warning w : warnings) {
            out.add(w.message(naming));
        }
        return out;
    }

    /** {@link #message} with the file as shown in a terminal. */
    @Override
    public String toString() {
        return message(RuleText.Naming.SHOWN);
    }
}
