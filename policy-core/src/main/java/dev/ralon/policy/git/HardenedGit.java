package dev.ralon.policy.git;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The one way Ralon runs git: read-only questions about a repository that an agent may have written to, asked so that
 * nothing the repository's configuration, attributes or hooks name is executed. Every git call of
 * {@code ralon check --changed/--staged} and of the Maven plugin goes through here.
 *
 * <p>What a repository can make git execute, and how each is switched off (git-config(1), gitattributes(5),
 * githooks(5); each is tested with the helper planted, see HardenedGitTest):
 * <ul>
 *   <li>{@code core.fsmonitor} (run by any command that refreshes the index, {@code diff} included):
 *       {@code -c core.fsmonitor=false};</li>
 *   <li>filter drivers {@code filter.<d>.clean/smudge/process}, selected by {@code .gitattributes} or
 *       {@code .git/info/attributes} (a content comparison of a stat-dirty file runs the clean filter): every driver
 *       the configuration names, in any scope or included file, is listed with {@code git config -z --get-regexp}
 *       just before each command and emptied with {@code -c} (an empty command is no filter);</li>
 *   <li>{@code diff.<d>.textconv}, {@code diff.<d>.command}: emptied the same way; callers also pass
 *       {@code --no-textconv --no-ext-diff} to {@code diff}; {@code diff.external}: {@code --no-ext-diff};</li>
 *   <li>pager ({@code core.pager}, {@code pager.<cmd>}): {@code --no-pager}, {@code GIT_PAGER=cat};</li>
 *   <li>hooks and {@code core.hooksPath}: none of the commands used runs a hook; {@code core.hooksPath=/dev/null}
 *       anyway;</li>
 *   <li>transports and what they run ({@code core.sshCommand}, {@code credential.helper}, askpass, proxies, the lazy
 *       fetch of a partial clone): {@code protocol.allow=never}, {@code credential.helper=} (empty resets the list),
 *       {@code GIT_TERMINAL_PROMPT=0};</li>
 *   <li>{@code gpg.program}: only run to verify signatures, which these commands never do;
 *       {@code log.showSignature=false} anyway;</li>
 *   <li>{@code include.path} and {@code includeIf}: included files are ordinary configuration, read by the listing
 *       above; {@code -c} on the command line takes precedence over every file (git-config(1), "FILES").</li>
 * </ul>
 *
 * <p>The environment: every {@code GIT_*} variable of the caller is removed ({@code GIT_DIR}, {@code GIT_WORK_TREE},
 * {@code GIT_CONFIG_*}, {@code GIT_EXTERNAL_DIFF}, {@code GIT_EXEC_PATH}, {@code GIT_SSH*}, ...) so that git finds the
 * repository from the directory alone, with one exception: {@code GIT_INDEX_FILE}, which git sets for its hooks to
 * the index the commit being made will record (a temporary one for {@code git commit -a} or {@code git commit PATH});
 * without it {@code check --staged} in a pre-commit hook would judge the wrong index. It is made absolute.
 *
 * <p>Which git: never looked up in {@code PATH}, which an agent can extend or shadow (a {@code git} planted in
 * {@code ~/.local/bin} runs with the user's rights). {@code RALON_GIT} names it explicitly; otherwise the first of
 * {@link #SYSTEM_LOCATIONS}, directories only root can write on a normal system. Decided once per JVM.
 */
public final class HardenedGit {
    /** Where git is looked for when {@code RALON_GIT} is not set, in order. */
    public static final List<String> SYSTEM_LOCATIONS = List.of(
            "/usr/bin/git", "/bin/git", "/usr/local/bin/git", "/run/current-system/sw/bin/git");

    private static final long TIMEOUT_SECONDS = 120;

    /** Options that override whatever the repository, the user or an included file configures. */
    private static final List<String> FIXED = List.of(
            "--no-pager",
            "-c", "core.fsmonitor=false",
            "-c", "core.hooksPath=/dev/null",
            "-c", "core.quotepath=off",
            "-c", "protocol.allow=never",
            "-c", "credential.helper=",
            "-c", "log.showSignature=false",
            "-c", "diff.relative=false",
            "-c", "diff.ignoreSubmodules=none",
            "-c", "submodule.recurse=false");

    private static volatile String executable;

    private final Path dir;

    private HardenedGit(Path dir) {
        this.dir = dir;
    }

    /** A runner whose commands run in {@code dir} (git finds the repository from there). */
    public static HardenedGit in(Path dir) {
        return new HardenedGit(dir);
    }

    /** What a git command printed and how it ended. */
    public record Output(int exit, byte[] out, String firstErrorLine) {
        public String text() {
            return new String(out, StandardCharsets.UTF_8).trim();
        }
    }

    /** Runs git; a non-zero exit is an exception whose message is the command and git's first error line. */
    public byte[] run(String... args) throws GitException {
        Output o = attempt(args);
        if (o.exit() != 0) {
            throw new GitException("git " + String.join(" ", args) + ": " + o.firstErrorLine());
        }
        return o.out();
    }

    /** Runs git and returns whatever happened; an exception only when git could not be run at all. */
    public Output attempt(String... args) throws GitException {
        List<String> cmd = new ArrayList<>();
        cmd.add(executable());
        cmd.addAll(FIXED);
        for (String key : driverKeysToEmpty()) {
            cmd.add("-c");
            cmd.add(key + "=");
        }
        cmd.addAll(List.of(args));
        return exec(cmd, args[0]);
    }

    /**
     * The configuration keys that name a command of a filter or diff driver ({@code filter.<d>.clean}, ...), for every
     * driver named anywhere in the configuration git reads here (includes followed), plus {@code filter.<d>.required}
     * (set to empty = false, so an emptied required filter is not an error).
     */
    List<String> driverKeysToEmpty() throws GitException {
        List<String> cmd = new ArrayList<>();
        cmd.add(executable());
        cmd.addAll(FIXED);
        cmd.addAll(List.of("config", "-z", "--get-regexp", "^(filter|diff)\\."));
        Output o = exec(cmd, "config");
        if (o.exit() != 0) {
            return List.of(); // exit 1: no such key at all
        }
        Set<String> keys = new LinkedHashSet<>();
        for (String entry : new String(o.out(), StandardCharsets.UTF_8).split("\0")) {
            int nl = entry.indexOf('\n');
            String key = nl < 0 ? entry : entry.substring(0, nl);
            int first = key.indexOf('.');
            int last = key.lastIndexOf('.');
            if (first < 0 || last <= first) {
                continue; // diff.external, diff.renames ...: no driver name
            }
            String section = key.substring(0, first).toLowerCase(java.util.Locale.ROOT);
            String driver = key.substring(first + 1, last);
            if (section.equals("filter")) {
                for (String v : List.of("clean", "smudge", "process", "required")) {
                    keys.add("filter." + driver + "." + v);
                }
            } else {
                for (String v : List.of("command", "textconv")) {
                    keys.add("diff." + driver + "." + v);
                }
            }
        }
        return List.copyOf(keys);
    }

    private Output exec(List<String> cmd, String what) throws GitException {
        Path errFile = null;
        try {
            errFile = Files.createTempFile("ralon-git", ".err");
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(errFile.toFile());
            environment(pb.environment(), Path.of("").toAbsolutePath());
            Process p = pb.start();
            p.getOutputStream().close();
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            p.getInputStream().transferTo(buf);
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new GitException("git " + what + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
            String first = Files.readString(errFile, StandardCharsets.UTF_8).lines().findFirst()
                    .orElse("exit status " + p.exitValue());
            return new Output(p.exitValue(), buf.toByteArray(), first);
        } catch (IOException e) {
            throw new GitException("cannot run " + cmd.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GitException("interrupted while waiting for git");
        } finally {
            if (errFile != null) {
                try {
                    Files.deleteIfExists(errFile);
                } catch (IOException ignored) {
                    // a temporary file left behind is harmless
                }
            }
        }
    }

    /** The caller's environment without what could redirect git or make it run something. */
    static void environment(Map<String, String> env, Path callerDir) {
        String index = env.get("GIT_INDEX_FILE");
        env.keySet().removeIf(k -> k.startsWith("GIT_"));
        if (index != null && !index.isEmpty()) {
            env.put("GIT_INDEX_FILE", callerDir.resolve(index).toString());
        }
        env.put("GIT_PAGER", "cat");
        env.put("PAGER", "cat");
        env.put("GIT_TERMINAL_PROMPT", "0");
        env.put("GIT_OPTIONAL_LOCKS", "0");
    }

    /** The git this JVM runs, decided on first use: {@code RALON_GIT}, else the first of {@link #SYSTEM_LOCATIONS}. */
    public static String executable() throws GitException {
        String found = executable;
        if (found == null) {
            found = locate(System.getenv("RALON_GIT"), SYSTEM_LOCATIONS);
            executable = found;
        }
        return found;
    }

    static String locate(String explicit, List<String> candidates) throws GitException {
        if (explicit != null && !explicit.isEmpty()) {
            Path p = Path.of(explicit);
            if (!p.isAbsolute() || !Files.isRegularFile(p) || !Files.isExecutable(p)) {
                throw new GitException("RALON_GIT=" + explicit + " is not an absolute path to an executable file");
            }
            return explicit;
        }
        for (String c : candidates) {
            Path p = Path.of(c);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return c;
            }
        }
        throw new GitException("git not found in " + String.join(", ", candidates)
                + " (Ralon does not look it up in PATH); set RALON_GIT to the absolute path of the git to use");
    }
}
