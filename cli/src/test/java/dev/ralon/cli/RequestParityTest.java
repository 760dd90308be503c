package dev.ralon.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The fast parser makes exactly the request picocli's bindings make, for every argument list it accepts: argument
 * lists are generated from the words both parsers care about (commands, options, {@code --}, {@code @files}, empty and
 * non-ASCII words), each accepted one is parsed by picocli too and the two requests must be equal. The seed is printed
 * and fixed under CI; {@code -Dralon.seed=N} replays one.
 */
class RequestParityTest {
    private static final List<String> WORDS = List.of("check", "run", "hook", "status", "--backend", "landlock",
            "mount", "noop", "--", "true", "echo", "sh", "-c", "-x", "-q", "--json", "--explain", "--dry-run",
            "--policy", "p.lock", "@args", "", "a.txt", "src/x y", "../up.json", "/abs/pom.xml", "clé/ü.json",
            "claude-code", "codex", "gemini", "unknown-agent", "help", "--help", "-", "=", "a=b", "--backend=mount");

    enum Kind { CHECK, RUN, HOOK, STATUS }

    @Test
    void theFastParserMakesPicocliSRequestForEveryListItAccepts() {
        long seed = dev.ralon.testsupport.Seeds.seed("RequestParityTest");
        Random random = new Random(seed);
        Map<Kind, Integer> accepted = new EnumMap<>(Kind.class);
        for (int n = 0; n < 2_000; n++) { // picocli builds its model from annotations at each parse: ~10 ms each
            List<String> args = new ArrayList<>();
            args.add(List.of("check", "run", "hook", "status").get(random.nextInt(4)));
            int length = args.get(0).equals("status") ? random.nextInt(3) : random.nextInt(7); // status: short lists
            for (int i = 0; i < length; i++) {
                args.add(WORDS.get(random.nextInt(WORDS.size())));
            }
            if (args.get(0).equals("run") && random.nextBoolean()) { // the run form's skeleton, more often than chance
                args.add(1, "--");
                if (random.nextBoolean()) {
                    args.addAll(1, List.of("--backend", WORDS.get(random.nextInt(WORDS.size()))));
                }
                if (random.nextInt(3) == 0) { // -q/--quiet before or after --backend, or twice (picocli's)
                    args.add(1 + 2 * random.nextInt(args.indexOf("--") / 2 + 1), random.nextBoolean() ? "-q" : "--quiet");
                }
            }
            Request fast = FastParser.parse(args.toArray(String[]::new));
            if (fast == null) {
                continue;
            }
            Request slow;
            try {
                slow = Ralon.parse(args.toArray(String[]::new));
            } catch (RuntimeException e) {
                fail("the fast parser accepts " + args + " but picocli refuses it: " + e.getMessage() + " (seed " + seed + ")");
                return;
            }
            assertEquals(slow, fast, "requests differ for " + args + " (seed " + seed + ")");
            accepted.merge(Kind.valueOf(args.get(0).toUpperCase(java.util.Locale.ROOT)), 1, Integer::sum);
        }
        for (Kind k : Kind.values()) { // the generator reaches every accepted form, or the test proves little
            assertTrue(accepted.getOrDefault(k, 0) >= 20, k + " accepted only " + accepted.get(k) + " times (seed " + seed + ")");
        }
    }

    @Test
    void theHotPathFormsAreAcceptedAndTheRestLeftToPicocli() {
        assertEquals(CheckRequest.of(List.of("src/a.ts")), FastParser.parse(new String[] {"check", "src/a.ts"}));
        assertEquals(new HookRequest("claude-code", null), FastParser.parse(new String[] {"hook", "claude-code"}));
        assertEquals(new HookRequest(null, null), FastParser.parse(new String[] {"hook"}));
        assertEquals(new StatusRequest(null, false, false), FastParser.parse(new String[] {"status"}));
        assertEquals(new StatusRequest(null, true, false), FastParser.parse(new String[] {"status", "--json"}));
        assertEquals(new RunRequest(null, "mount", false, false, false, false, false, false, false, false, RunRequest.Writes.DEFAULT,
                List.of("claude", "--resume")),
                FastParser.parse(new String[] {"run", "--backend", "mount", "--", "claude", "--resume"}));
        assertEquals(new RunRequest(null, "mount", false, false, true, false, false, false, false, false, RunRequest.Writes.DEFAULT,
                List.of("true")), FastParser.parse(new String[] {"run", "-q", "--backend", "mount", "--", "true"}));
        assertEquals(new RunRequest(null, "landlock", false, false, true, false, false, false, false, false,
                RunRequest.Writes.DEFAULT, List.of("true")),
                FastParser.parse(new String[] {"run", "--backend", "landlock", "--quiet", "--", "true"}));
        for (String[] slow : List.of(new String[] {"check", "--explain", "x"}, new String[] {"hook", "--policy", "p",
                "claude-code"}, new String[] {"hook", "claude-code", "extra"}, new String[] {"hook", "--", "codex"},
                new String[] {"run", "--", "@args"}, new String[] {"run", "claude"},
                new String[] {"run", "-q", "-q", "--", "true"}, new String[] {"run", "-q", "--quiet", "--", "true"},
                new String[] {"run", "-qV", "--", "true"}, new String[] {"run", "-q", "--"},
                new String[] {"status", "--policy", "p"}, new String[] {"status", "--json", "--json"},
                new String[] {"--json", "status"},
                new String[] {}, new String[] {"check", "@paths"}, new String[] {"hook", ""})) {
            assertNull(FastParser.parse(slow), List.of(slow) + " must go through picocli");
        }
        // and picocli makes the same requests from the forms the fast parser leaves to it
        assertEquals(new HookRequest("codex", null), Ralon.parse(new String[] {"hook", "--", "codex"}));
        assertEquals(new HookRequest("claude-code", Path.of("p")),
                Ralon.parse(new String[] {"--policy", "p", "hook", "claude-code"}));
        assertNotNull(Ralon.parse(new String[] {"check", "--", "x"}));
        assertEquals(new StatusRequest(Path.of("p"), true, false),
                Ralon.parse(new String[] {"--policy", "p", "status", "--json"}));
        assertNull(Ralon.parse(new String[] {"init"}));
    }
}
