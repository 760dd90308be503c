package dev.ralon.maven.agentlock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes what a goal found as a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format), the format
 * GitHub code scanning ({@code github/codeql-action/upload-sarif}) turns into pull-request annotations and that
 * Jenkins Warnings NG, reviewdog and Azure DevOps read. Chosen over checkstyle XML because it is a standard with a
 * schema, carries the level, rule and a URI per result, and GitHub reads it without a converter.
 *
 * <p>Two rules: {@value #POLICY_RULE} (agent.lock itself: {@code agentlock:check}'s problems and any goal's policy
 * errors) and {@value #CHANGE_RULE} ({@code agentlock:changed}: a change to a protected path, located at that path,
 * with the protecting pattern's place in agent.lock as a related location). Hand-written JSON: the plugin carries no
 * JSON library.
 */
final class Sarif {
    static final String POLICY_RULE = "agent-lock";
    static final String CHANGE_RULE = "protected-path-changed";

    private static final Pattern LOCATION = Pattern.compile("^:(\\d+)(?::(\\d+))?: (.*)$", Pattern.DOTALL);

    /** A place in a file; {@code line} and {@code column} 0 when unknown (the whole file). */
    record Location(Path file, int line, int column) {}

    /**
     * One result.
     *
     * @param rule    {@link #POLICY_RULE} or {@link #CHANGE_RULE}
     * @param level   {@code error} or {@code warning}
     * @param related further places (the patterns that protect a changed path), possibly none
     */
    record Result(String rule, String level, String text, Location at, List<Location> related) {}

    private Sarif() {}

    /**
     * The results for problem lines as the goals log them ({@code /abs/agent.lock:L:C: reason}), each located in
     * whichever of {@code policyFiles} it names (the files are known, so a path with colons is no trouble).
     */
    static List<Result> problems(List<Path> policyFiles, List<String> errors, List<String> warnings) {
        List<Result> out = new ArrayList<>();
        for (String e : errors) {
            out.add(problem(fileOf(e, policyFiles), "error", e));
        }
        for (String w : warnings) {
            out.add(problem(fileOf(w, policyFiles), "warning", w));
        }
        return out;
    }

    /** Writes {@code errors} and {@code warnings}, each located in whichever of {@code policyFiles} it names. */
    static void write(Path out, List<Path> policyFiles, List<String> errors, List<String> warnings) throws IOException {
        write(out, problems(policyFiles, errors, warnings));
    }

    /** Writes the log, one run of this plugin holding {@code results} (none: a clean run). */
    static void write(Path out, List<Result> results) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (Result r : results) {
            sb.append(sb.length() > 0 ? "," : "").append("\n      {\"ruleId\": ").append(string(r.rule()))
                    .append(", \"level\": ").append(string(r.level())).append(", \"message\": {\"text\": ")
                    .append(string(r.text())).append("}, \"locations\": [");
            location(sb, r.at());
            sb.append(']');
            if (!r.related().isEmpty()) {
                sb.append(", \"relatedLocations\": [");
                for (int i = 0; i < r.related().size(); i++) {
                    sb.append(i > 0 ? ", " : "");
                    location(sb, r.related().get(i));
                }
                sb.append(']');
            }
            sb.append('}');
        }
        String json = "{\n  \"version\": \"2.1.0\",\n"
                + "  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
                + "  \"runs\": [{\n    \"tool\": {\"driver\": {\"name\": \"agentlock-maven-plugin\", "
                + "\"informationUri\": \"https://ralon.dev\", \"rules\": [{\"id\": \"" + POLICY_RULE + "\", "
                + "\"shortDescription\": {\"text\": \"agent.lock is valid and protects what it must\"}}, {\"id\": \""
                + CHANGE_RULE + "\", \"shortDescription\": {\"text\": \"a path agent.lock protects was changed\"}}]}},\n"
                + "    \"results\": [" + sb + (sb.length() > 0 ? "\n    " : "") + "]\n  }]\n}\n";
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.writeString(out, json, StandardCharsets.UTF_8);
    }

    private static Path fileOf(String problem, List<Path> files) {
        Path best = files.get(0);
        for (Path f : files) { // the longest match: /p/agent.lock must not claim /p/agent.lock.d/... (nor a/ claim a/b/)
            if (problem.startsWith(f + ":") && f.toString().length() >= best.toString().length()) {
                best = f;
            }
        }
        return best;
    }

    private static Result problem(Path file, String level, String problem) {
        String prefix = file.toString();
        String rest = problem.startsWith(prefix) ? problem.substring(prefix.length()) : null;
        int line = 0;
        int column = 0;
        String text = problem;
        if (rest != null) {
            Matcher m = LOCATION.matcher(rest);
            if (m.matches()) {
                line = Integer.parseInt(m.group(1));
                column = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
                text = m.group(3);
            } else if (rest.startsWith(": ")) {
                text = rest.substring(2);
            }
        }
        return new Result(POLICY_RULE, level, text, new Location(file, line, column), List.of());
    }

    private static void location(StringBuilder sb, Location at) {
        sb.append("{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ").append(string(at.file().toUri().toString()))
                .append('}');
        if (at.line() > 0) {
            sb.append(", \"region\": {\"startLine\": ").append(at.line());
            if (at.column() > 0) {
                sb.append(", \"startColumn\": ").append(at.column());
            }
            sb.append('}');
        }
        sb.append("}}");
    }

    static String string(String s) {
        return dev.ralon.policy.JsonString.of(s);
    }
}
