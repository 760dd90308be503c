package dev.ralon.maven.agentlock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the check's problems as a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format), the format
 * GitHub code scanning ({@code github/codeql-action/upload-sarif}) turns into pull-request annotations and that
 * Jenkins Warnings NG, reviewdog and Azure DevOps read. Chosen over checkstyle XML because it is a standard with a
 * schema, carries the level, rule and a URI per result, and GitHub reads it without a converter.
 *
 * <p>Each problem is a line {@code /abs/agent.lock:L:C: reason} as logged; its location is taken apart here (the
 * file is known, so a path with colons is no trouble). Hand-written JSON: the plugin carries no JSON library.
 */
final class Sarif {
  private static final Pattern LOCATION = Pattern.compile("^:(\\d+)(?::(\\d+))?: (.*)$", Pattern.DOTALL);

  private Sarif() {}

  /** Writes {@code errors} and {@code warnings}, each located in whichever of {@code policyFiles} it names. */
  static void write(Path out, List<Path> policyFiles, List<String> errors, List<String> warnings) throws IOException {
    StringBuilder results = new StringBuilder();
    for (String e : errors) {
      result(results, fileOf(e, policyFiles), "error", e);
    }
    for (String w : warnings) {
      result(results, fileOf(w, policyFiles), "warning", w);
    }
    String json = "{\n  \"version\": \"2.1.0\",\n"
        + "  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
        + "  \"runs\": [{\n    \"tool\": {\"driver\": {\"name\": \"agentlock-maven-plugin\", "
        + "\"informationUri\": \"https://ralon.dev\", \"rules\": [{\"id\": \"agent-lock\", "
        + "\"shortDescription\": {\"text\": \"agent.lock is valid and protects what it must\"}}]}},\n"
        + "    \"results\": [" + results + (results.length() > 0 ? "\n    " : "") + "]\n  }]\n}\n";
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

  private static void result(StringBuilder sb, Path file, String level, String problem) {
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
    if (sb.length() > 0) {
      sb.append(',');
    }
    sb.append("\n      {\"ruleId\": \"agent-lock\", \"level\": \"").append(level).append("\", \"message\": {\"text\": ")
        .append(string(text)).append("}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ")
        .append(string(file.toUri().toString())).append('}');
    if (line > 0) {
      sb.append(", \"region\": {\"startLine\": ").append(line);
      if (column > 0) {
        sb.append(", \"startColumn\": ").append(column);
      }
      sb.append('}');
    }
    sb.append("}}]}");
  }

  static String string(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }
}
