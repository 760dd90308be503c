package dev.ralon.conformance;

import dev.ralon.conformance.KitRun.Case;
import dev.ralon.conformance.KitRun.Outcome;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The cases of a run whose attack goes through the user's terminal, each in its own pseudo-terminal session. */
final class TerminalCases {
    private final String backend;
    private final int uid;
    private final Path proj;
    private final Path home;
    private final CaseWatch watcher;

    TerminalCases(KitProject project, String backend, int uid, CaseWatch watcher) {
        this.backend = backend;
        this.uid = uid;
        this.proj = project.proj;
        this.home = project.home;
        this.watcher = watcher;
    }

    /**
     * The attacks made through the user's terminal ({@link Attack#viaTerminal()}), each twice from an interactive shell
     * on a fresh pseudo-terminal: through {@code ralon run --backend NAME} (the verdict), then the same program started
     * plainly by that shell (the control: the machine lets a process inject into its terminal). Outcomes are what
     * changed on disk, read from outside, after the shell had the chance to run an injected line.
     */
    void run(List<Case> cases, Map<String, SortedMap<String, String>> before, Map<String, Outcome> outcomes,
             Map<String, Outcome> plainOutcomes) throws IOException {
        Path cpFile = home.resolve("kit.classpath");
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", home.toString());
        env.put("TMPDIR", home.resolve("tmp").toString());
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        List<String> user = KitHost.asUser(uid, List.of());
        for (Case c : cases) {
            if (!c.attack().viaTerminal()) {
                continue;
            }
            StringBuilder program = new StringBuilder();
            for (String part : AttackScript.javaCommand(home, "dev.ralon.conformance.attack.AttackProgram")) {
                program.append(part.equals("@CP@") ? "\"$(cat " + AttackScript.q(cpFile) + ")\"" : AttackScript.q(part)).append(' ');
            }
            program.append(AttackScript.q(c.attack().program())).append(' ').append(AttackScript.q(c.id())).append(' ').append(AttackScript.q(c.target()))
                    .append(" -");
            StringBuilder ralon = new StringBuilder();
            Map<String, String> shellEnv = new LinkedHashMap<>(System.getenv());
            shellEnv.putAll(env);
            for (String part : KitLocale.envPrefix(shellEnv)) {
                ralon.append(AttackScript.q(part)).append(' ');
            }
            List<String> host = new ArrayList<>(AttackScript.javaCommand(home, KitRun.MAIN));
            host.add(1, "-XX:-MaxFDLimit");
            for (String part : host) {
                ralon.append(part.equals("@CP@") ? "\"$(cat " + AttackScript.q(cpFile) + ")\"" : AttackScript.q(part)).append(' ');
            }
            // --write-anywhere: these cases attack the terminal, not the confinement (KitRun's runs do), and a backend that
            // does not confine writes is refused without it
            ralon.append("run --write-anywhere --backend ").append(AttackScript.q(backend)).append(" -- ").append(program);
            String sandboxed = TerminalAttack.session(user, proj, env, ralon.toString());
            SortedMap<String, String> afterSandboxed = watcher.watch(c);
            outcomes.put(c.id(), new Outcome(resultOf(c, sandboxed), watcher.changes(c, before.get(c.id()), afterSandboxed)));
            String plain = TerminalAttack.session(user, proj, env, program.toString());
            plainOutcomes.put(c.id(), new Outcome(resultOf(c, plain), watcher.changes(c, afterSandboxed, watcher.watch(c))));
        }
    }

    private static String resultOf(Case c, String transcript) {
        Matcher m = Pattern.compile("RESULT " + Pattern.quote(c.id()) + " (\\S+.*)").matcher(transcript);
        return m.find() ? m.group(1).trim() : "(no result; terminal: " + tailOf(transcript) + ")";
    }

    private static String tailOf(String s) {
        String t = s.replace('\r', ' ').replace('\n', ' ');
        return t.length() > 300 ? t.substring(t.length() - 300) : t;
    }
}
