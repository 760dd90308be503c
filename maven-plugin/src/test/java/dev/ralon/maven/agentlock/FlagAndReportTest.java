package dev.ralon.maven.agentlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ralon.policy.PolicyException;
import dev.ralon.policy.Warning;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Strict on/off parameters, every error of a file on its own line, the SARIF report. */
class FlagAndReportTest {

  @TempDir Path dir;

  @Test
  void onlyTrueAndFalseAreFlags() throws Exception {
    assertTrue(Flag.parse("agentlock.failOnUnmatched", "true"));
    assertTrue(Flag.parse("agentlock.failOnUnmatched", " TRUE "));
    assertFalse(Flag.parse("agentlock.failOnUnmatched", "false"));
    assertFalse(Flag.parse("agentlock.failOnUnmatched", null));
    for (String typo : List.of("yes", "1", "ture", "", "on")) {
      MojoExecutionException e = assertThrows(MojoExecutionException.class,
          () -> Flag.parse("agentlock.failOnUnmatched", typo));
      assertEquals("agentlock.failOnUnmatched is \"" + typo + "\"; expected true or false", e.getMessage());
    }
  }

  @Test
  void everyErrorOfAFileIsALineOfItsOwn() throws Exception {
    Path file = Files.writeString(dir.resolve("agent.lock"),
        "version: 1\nprotect:\n  - /etc/passwd\n  - ../up\n  - \"!neg\"\n  - \"[abc\"\n");
    PolicyException e = assertThrows(PolicyException.class, () -> PolicyCheck.run(file, false, List.of()));
    List<String> lines = PolicyCheck.describeAll(e, file);
    assertEquals(4, lines.size(), lines.toString());
    for (int i = 0; i < 4; i++) {
      assertTrue(lines.get(i).startsWith(file + ":" + (3 + i) + ":"), lines.get(i)); // line of each entry
    }
  }

  @Test
  void aPolicyThatProtectsOnlyItselfIsWarnedAbout() throws Exception {
    Path file = Files.writeString(dir.resolve("agent.lock"), "version: 1\nprotect: []\n");
    PolicyCheck.Result r = PolicyCheck.run(file, false, List.of());
    assertEquals(List.of(file + ": the policy protects nothing but itself (no pattern under protect:)"), r.warnings());
    Path noKey = Files.writeString(dir.resolve("agent.lock"), "version: 1\n");
    assertEquals(1, PolicyCheck.run(noKey, false, List.of()).warnings().size());
  }

  @Test
  void warningsCarryTheAbsoluteFile() {
    Path file = Path.of("").toAbsolutePath().resolve("sub/agent.lock");
    Warning.Kind repeated = Warning.Kind.REPEATED_PATTERN;
    assertEquals(file + ":4:3: repeated",
        PolicyCheck.absolute(new Warning(repeated, Path.of("sub/agent.lock"), 4, 3, "repeated"), file));
    assertEquals(file + ":4:3: repeated", PolicyCheck.absolute(new Warning(repeated, file, 4, 3, "repeated"), file));
    assertEquals(file + ": the policy protects .git",
        PolicyCheck.absolute(new Warning(Warning.Kind.STOPS_GIT, null, 0, 0, "the policy protects .git"), file));
  }

  @Test
  void sarifHasOneResultPerProblemWithItsRegion() throws Exception {
    Path file = dir.resolve("agent.lock");
    Path out = dir.resolve("target/agentlock.sarif");
    Sarif.write(out, List.of(file), List.of(file + ":4:5: pattern \"a\" \"quoted\""), List.of(file + ": whole file"));
    String json = Files.readString(out);
    assertTrue(json.contains("\"version\": \"2.1.0\""), json);
    assertTrue(json.contains("\"level\": \"error\", \"message\": {\"text\": \"pattern \\\"a\\\" \\\"quoted\\\"\"}"), json);
    assertTrue(json.contains("\"region\": {\"startLine\": 4, \"startColumn\": 5}"), json);
    assertTrue(json.contains("\"level\": \"warning\", \"message\": {\"text\": \"whole file\"}"), json);
    assertTrue(json.contains("\"uri\": \"" + file.toUri() + "\""), json);
  }
}
