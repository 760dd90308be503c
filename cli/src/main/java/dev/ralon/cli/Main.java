package dev.ralon.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Entry point of the {@code ralon} executable. */
public final class Main {
    /** What the JVM exits with for 0 when the launcher says it runs a hook: "answered, and the answer is 0". */
    static final int ANSWERED = 10;

    private Main() {
    }

    public static void main(String[] args) {
        answerToLaunchersChannel();
        forgetRejectedArchive();
        String notUtf8 = readsFileNames(args) ? dev.ralon.policy.FileNames.notUtf8Reason() : null;
        if (notUtf8 != null) {
            // the launcher starts the JVM under C.UTF-8 when the user's locale is not UTF-8; this is where that
            // locale is not installed (or the JVM was started another way): never run with mangled names
            System.err.println("ralon: " + notUtf8);
            System.exit(ExitCodes.ERROR);
        }
        // `ralon check PATH...` (before every write of an agent), `ralon hook FORMAT` (the agents' pre-write hook),
        // `ralon status [--json]` and `ralon run [--backend NAME] -- CMD` (every session) skip picocli: FastParser's contract says for which exact
        // argument forms; it makes the same request picocli would.
        Request fast = FastParser.parse(args);
        int code = fast != null
                ? execute(fast, System.in, new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                        new PrintWriter(System.err, true, StandardCharsets.UTF_8))
                : Ralon.execute(args);
        System.out.flush();
        // In hook mode the launcher runs the JVM as a child and takes any status but ANSWERED and 2 as a failure of
        // Java itself, which the agent must read as "deny" (cli/src/main/launcher/ralon.sh).
        if (code == ExitCodes.OK && System.getProperty("ralon.launcher.hook") != null) {
            code = ANSWERED;
        }
        System.exit(code);
    }

    /**
     * Executes a request parsed without picocli, reporting a failure as picocli's handler does (one line, exit 2; and
     * the JSON error document on {@code out} when the request asked for JSON).
     */
    static int execute(Request request, java.io.InputStream in, PrintWriter out, PrintWriter err) {
        try {
            return request.execute(in, out, err);
        } catch (RuntimeException | java.io.IOException e) {
            if (request instanceof StatusRequest s && s.json()) {
                out.println(Json.write(CliException.errorDocument(e)));
                out.flush();
            }
            return CliException.report(e, err);
        }
    }

    /**
     * In hook mode the launcher sends the JVM's own stdout to stderr (whatever HotSpot or an option such as
     * {@code -Xlog:gc:stdout} writes there must never reach the agent, which reads stdout as the answer's JSON) and
     * names in {@code ralon.launcher.hook} the channel it reads the answer from ({@code /proc/self/fd/3}, a pipe):
     * {@link System#out} becomes that channel, so the answer, and only it, reaches the agent. A channel that cannot be
     * opened is a refusal: one line on stderr, exit 2. Without the property (not started by the launcher's hook mode),
     * nothing changes.
     */
    /** The answer's channel the launcher gives in hook mode: its pipe on fd 3 (cli/src/main/launcher/ralon.sh). */
    static final String LAUNCHERS_CHANNEL = "/proc/self/fd/3";

    static void answerToLaunchersChannel() {
        String channel = System.getProperty("ralon.launcher.hook");
        if (channel == null) {
            return;
        }
        // The launcher names fd 3, its pipe, and nothing else. Any other value was put there by someone else: a later
        // -D in _JAVA_OPTIONS (which the JVM reads after the command line) would otherwise send the answer to stderr
        // or /dev/null while the status still said "answered", and the agent would read the empty stdout as "allow".
        if (!LAUNCHERS_CHANNEL.equals(channel)) {
            System.err.println("ralon: the answer channel is not the launcher's (ralon.launcher.hook=" + channel
                    + ", set after the launcher's, e.g. in _JAVA_OPTIONS); refusing the tool call to stay safe");
            System.exit(ExitCodes.ERROR);
        }
        try {
            // append: never truncates, whatever the channel is; a pipe ignores it
            System.setOut(new java.io.PrintStream(new java.io.FileOutputStream(channel, true), false,
                    StandardCharsets.UTF_8));
        } catch (java.io.IOException | SecurityException e) {
            System.err.println("ralon: cannot open the launcher's answer channel " + channel + " (" + e.getMessage()
                    + "); refusing the tool call to stay safe");
            System.exit(ExitCodes.ERROR);
        }
    }

    /** Whether the command reads file names (everything but help, version, schema, completion, apparmor-profile). */
    static boolean readsFileNames(String[] args) {
        if (args.length == 0) {
            return false;
        }
        return switch (args[0]) {
            case "-h", "--help", "-V", "--version", "help", "schema", "generate-completion", "apparmor-profile" -> false;
            default -> true;
        };
    }

    /**
     * The launcher names its class-data-sharing archive in {@code ralon.cds.archive} when it passes one. If the JVM
     * did not map it (it was made by another JDK build, is corrupt, or the jar changed: HotSpot then runs without
     * sharing and {@code java.vm.info} lacks "sharing"), delete it, so the next start makes a fresh one instead of
     * paying for a useless archive forever. Failure to delete changes nothing else.
     */
    static void forgetRejectedArchive() {
        String archive = System.getProperty("ralon.cds.archive");
        // only the launcher's own cache (.ralon-cds, made on first use): a release's archive (lib/ralon.jsa, made at
        // build time, dist/) belongs to the install and is never deleted by a start
        if (archive != null && archive.contains("/.ralon-cds/")
                && !System.getProperty("java.vm.info", "").contains("sharing")) {
            try {
                java.nio.file.Files.deleteIfExists(java.nio.file.Path.of(archive));
            } catch (java.io.IOException | RuntimeException e) {
                // not ours to report: the run itself is unaffected
            }
        }
    }
}
