package dev.ralon.cli;

import dev.ralon.policy.Policy;
import dev.ralon.policy.PolicyException;
import dev.ralon.policy.Rule;
import dev.ralon.policy.walk.PolicyDiscovery;
import dev.ralon.policy.walk.PolicySet;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The agent-instructions section: a short, delimited block in a project's {@code AGENTS.md} (Codex), {@code CLAUDE.md}
 * (Claude Code) and {@code GEMINI.md} (Gemini CLI), the files each agent puts in its model's context, saying which paths
 * agent.lock makes read-only and what EROFS, EACCES and EBUSY mean under Ralon, so the model is told before it tries.
 * Written by {@code ralon init --agents} ({@link #write}), checked by {@code ralon check} ({@link #staleLines}).
 *
 * <p>Contract: the section runs from the line {@value #BEGIN} to the line {@value #END}, both included; a file holds at
 * most one. Writing replaces exactly those lines (or appends the section, after one empty line, to a file that has none,
 * or creates the file); every other byte of the file is left as it was, whatever its encoding. Its text is a function of
 * the policies in force ({@link PolicySet}, farthest first: each file's patterns in order, the implicit self-protection
 * first) and of the directory it is written in (files are named relative to it), so {@code check} recomputes it and
 * compares. The file is never followed through a symbolic link that leads out of the project (the repository's top,
 * else the directory written in), nor written when it is not a regular file: refused with the reason, nothing written.
 */
final class AgentInstructions {
    /** The files, in the order written: Codex's, Claude Code's, Gemini CLI's. */
    static final List<String> FILES = List.of("AGENTS.md", "CLAUDE.md", "GEMINI.md");
    static final String BEGIN = "<!-- ralon:agent.lock:begin (written by `ralon init --agents`; `ralon check` says when it"
            + " is out of date) -->";
    static final String END = "<!-- ralon:agent.lock:end -->";
    /** Enough of {@link #BEGIN} to recognise a begin line whose note was edited. */
    private static final String BEGIN_PREFIX = "<!-- ralon:agent.lock:begin";

    private AgentInstructions() {
    }

    /** The section for a file in {@code dir} (absolute), from the policies in force there, ending with a line break. */
    static String section(PolicySet set, Path dir) {
        Path here = real(dir);
        StringBuilder b = new StringBuilder();
        b.append(BEGIN).append('\n');
        b.append("## Read-only files (agent.lock)\n\n");
        b.append("`agent.lock` makes these paths read-only for AI coding agents (git-style patterns, relative to the"
                + " directory of their agent.lock; a directory protects everything beneath it):\n");
        boolean one = set.policies().size() == 1 && real(set.policies().get(0).root()).equals(here);
        for (Policy p : set.policies()) {
            if (!one) {
                Path root = real(p.root());
                String file = relative(here, root.resolve(p.file().getFileName()));
                String rootShown = relative(here, root);
                b.append("\nFrom ").append(code(file)).append(rootShown.isEmpty() ? "" : " (relative to " + code(rootShown + "/")
                        + ")").append(":\n");
            }
            b.append('\n');
            Set<String> seen = new LinkedHashSet<>();
            for (Rule r : p.rules()) {
                if (seen.add(r.pattern())) {
                    b.append("- ").append(code(r.pattern())).append('\n');
                }
            }
        }
        b.append("\nUnder `ralon run` the kernel refuses every change to them: writing, creating, renaming or deleting one"
                + " fails with EROFS (\"Read-only file system\"), EACCES (\"Permission denied\") or EBUSY (\"Device or"
                + " resource busy\"), and a pre-write hook may refuse the tool call citing agent.lock. Any of these means"
                + " the path is protected by agent.lock: do not retry another way (another tool, a copy and rename, a"
                + " script, a change of permissions); continue with the rest of the task, or ask the user to make the"
                + " change. `$RALON_NOTES`, when set, names a file listing what this session protects.\n");
        b.append(END).append('\n');
        return b.toString();
    }

    /** {@code p} relative to {@code dir}, '/'-separated (empty for dir itself). */
    private static String relative(Path dir, Path p) {
        return dir.relativize(p).toString();
    }

    /** {@code p}'s real path, else its absolute normal form: the same directory, however it was reached. */
    static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | SecurityException e) {
            return p.toAbsolutePath().normalize();
        }
    }

    /** {@code s} as a Markdown code span on one line (longer fences around backticks). */
    static String code(String s) {
        String one = CliException.oneLine(s);
        String fence = one.contains("`") ? "``" : "`";
        String pad = one.startsWith("`") || one.endsWith("`") ? " " : "";
        return fence + pad + one + pad + fence;
    }

    /** Where a section lies in a file's bytes: [start, end), end past the end line's line break (if any). */
    record Span(int start, int end) {
    }

    /** The file's section markers are not one begin line followed by one end line. */
    static final class Broken extends Exception {
        private static final long serialVersionUID = 1L;

        Broken(String message) {
            super(message, null, false, false);
        }
    }

    /** The section in {@code bytes}, or null when it has none. */
    static Span find(byte[] bytes) throws Broken {
        // ISO-8859-1: one char per byte, so offsets are byte offsets and any encoding survives untouched
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int begin = -1;
        int end = -1;
        int at = 0;
        while (at < text.length()) {
            int nl = text.indexOf('\n', at);
            int next = nl < 0 ? text.length() : nl + 1;
            String line = text.substring(at, nl < 0 ? text.length() : nl);
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            if (line.startsWith(BEGIN_PREFIX)) {
                if (begin >= 0) {
                    throw new Broken("it has two agent.lock begin markers");
                }
                begin = at;
            } else if (line.equals(END)) {
                if (begin < 0 || end >= 0) {
                    throw new Broken("its agent.lock end marker has no begin marker before it");
                }
                end = next;
            }
            at = next;
        }
        if (begin >= 0 && end < 0) {
            throw new Broken("its agent.lock begin marker has no end marker after it");
        }
        return begin < 0 ? null : new Span(begin, end);
    }

    /** {@code bytes} with {@code section} in place of the old one, or appended after an empty line when it has none. */
    static byte[] withSection(byte[] bytes, String section) throws Broken {
        byte[] s = section.getBytes(StandardCharsets.UTF_8);
        Span span = find(bytes);
        byte[] before;
        byte[] after;
        if (span != null) {
            before = Arrays.copyOfRange(bytes, 0, span.start());
            after = Arrays.copyOfRange(bytes, span.end(), bytes.length);
        } else {
            before = bytes.length == 0 ? bytes : bytes[bytes.length - 1] == '\n'
                    ? concat(bytes, "\n".getBytes(StandardCharsets.US_ASCII))
                    : concat(bytes, "\n\n".getBytes(StandardCharsets.US_ASCII));
            after = new byte[0];
        }
        return concat(concat(before, s), after);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** The project a link may lead into: the repository's top holding {@code dir}, else {@code dir} (real paths). */
    static Path project(Path dir) {
        Path top = PolicyDiscovery.repositoryRoot(dir);
        return real(top != null ? top : dir);
    }

    /**
     * Where the link {@code named} leads: its real path, or, when it leads to nothing yet (CLAUDE.md pointing at an
     * AGENTS.md not written yet), the file it would create: its directory's real path and its name. Refused: a link
     * whose target's directory does not exist, or that leads to another link.
     */
    private static Path linkTarget(Path named) {
        try {
            return named.toRealPath();
        } catch (IOException | SecurityException e) {
            // dangling: resolved below
        }
        try {
            Path to = named.toAbsolutePath().resolveSibling(Files.readSymbolicLink(named)).normalize();
            Path parent = to.getParent();
            if (parent != null && to.getFileName() != null && Files.isDirectory(parent) && !Files.isSymbolicLink(to)) {
                return parent.toRealPath().resolve(to.getFileName());
            }
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            // refused below
        }
        throw CliException.error(named + " is a symbolic link to nothing that can be written; nothing was written"
                + " (remove it, or point it at a file in the project)");
    }

    /** One file to write: as named, where the bytes go (its real place), and what it holds now (null: absent). */
    private record Target(Path named, Path real, byte[] now, boolean alias) {
    }

    /**
     * Writes the section into {@link #FILES} in {@code dir} (absolute) from {@code set}, printing a line per file on
     * {@code out}. Every file is examined before any is written: a file that is a directory or another non-regular
     * file, a symbolic link leading out of {@link #project} or to nothing, a file that cannot be read, or markers that
     * are not one begin and one end line is a {@link CliException} naming the file and the reason, and nothing is
     * written. Files already up to date are not rewritten. Two names reaching one file (CLAUDE.md a link to AGENTS.md)
     * are written once. A file agent.lock protects is written all the same (outside a session the user's act; inside
     * {@code ralon run} the kernel refuses it), and that is said.
     */
    static void write(PolicySet set, Path dir, PrintWriter out) {
        for (Target t : plan(dir)) {
            if (t.alias()) {
                out.println(dir.relativize(t.named()) + ": the same file as " + t.real() + " (through a link),"
                        + " written once");
                continue;
            }
            String section = section(set, dir);
            byte[] next;
            try {
                next = withSection(t.now() == null ? new byte[0] : t.now(), section);
            } catch (Broken e) {
                throw new IllegalStateException(e); // checked by plan
            }
            String shown = dir.relativize(t.named()).toString() + (t.real().equals(t.named()) ? "" : " (" + t.real() + ")");
            String note = set.check(t.real()).isEmpty() && set.check(t.named()).isEmpty() ? ""
                    : " (protected by agent.lock: writing it outside a session is your act; a session cannot)";
            if (t.now() != null && Arrays.equals(t.now(), next)) {
                out.println(shown + ": the agent.lock section is up to date");
                continue;
            }
            replace(t.real(), next);
            String did;
            try {
                did = t.now() == null ? "wrote " : find(t.now()) == null ? "added the agent.lock section to "
                        : "updated the agent.lock section in ";
            } catch (Broken e) {
                throw new IllegalStateException(e); // checked by plan
            }
            out.println(did + shown + note);
        }
        out.flush();
    }

    /**
     * Examines the files {@link #write} would write in {@code dir}, writing nothing: the same refusals, as a
     * {@link CliException}.
     */
    static void check(Path dir) {
        plan(dir);
    }

    private static Path realDirectory(Path dir) {
        try {
            return dir.toRealPath();
        } catch (IOException e) {
            throw CliException.error("cannot read " + dir + ": " + e.getMessage() + "; nothing was written");
        }
    }

    /** The files to write in {@code dir}, each once, examined as {@link #write} says. */
    private static List<Target> plan(Path dir) {
        Path project = project(dir);
        Map<Path, Target> targets = new LinkedHashMap<>();
        for (String name : FILES) {
            Path named = dir.resolve(name);
            Path real = named;
            if (Files.isSymbolicLink(named)) {
                real = linkTarget(named);
                if (!real.startsWith(project)) {
                    throw CliException.error(named + " is a symbolic link out of the project (to " + real + "); Ralon"
                            + " does not write through it, and nothing was written (write the section there yourself,"
                            + " or replace the link with a file)");
                }
                // a link is followed only to one of these files beside it (CLAUDE.md -> AGENTS.md): an agent that
                // planted AGENTS.md -> deploy.sh or -> .git/config would have the user write into a script or git's
                // configuration, protected or not, the next time they refresh the section
                Path beside = realDirectory(dir);
                Path targetName = real.getFileName();
                if (!beside.equals(real.getParent()) || targetName == null || !FILES.contains(targetName.toString())
                        || Files.isSymbolicLink(real)) {
                    throw CliException.error(named + " is a symbolic link to " + real + "; Ralon writes through a link"
                            + " only to " + String.join(", ", FILES) + " beside it, and nothing was written (replace"
                            + " the link with a file)");
                }
            }
            if (Files.exists(real) && !Files.isRegularFile(real)) {
                throw CliException.error(named + " is not a regular file; nothing was written");
            }
            if (targets.containsKey(real)) {
                targets.put(named, new Target(named, real, null, true)); // another name of a file already listed
                continue;
            }
            byte[] now = null;
            if (Files.exists(real)) {
                try {
                    now = Files.readAllBytes(real);
                    find(now);
                } catch (IOException e) {
                    throw CliException.error("cannot read " + named + ": " + e.getMessage() + "; nothing was written");
                } catch (Broken e) {
                    throw CliException.error(named + ": " + e.getMessage() + " (fix or remove them); nothing was"
                            + " written");
                }
            }
            targets.put(real, new Target(named, real, now, false));
        }
        return List.copyOf(targets.values());
    }

    /** Writes {@code bytes} to {@code file} through a temporary file beside it and a rename, keeping its permissions. */
    private static void replace(Path file, byte[] bytes) {
        Path tmp = null;
        try {
            long nonce = java.util.concurrent.ThreadLocalRandom.current().nextLong();
            tmp = file.resolveSibling("." + file.getFileName() + "." + Long.toUnsignedString(nonce, 36) + ".tmp");
            Files.write(tmp, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS));
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            tmp = null;
        } catch (java.nio.file.AccessDeniedException e) {
            throw CliException.error("cannot write " + file + ": permission denied");
        } catch (IOException | UnsupportedOperationException e) {
            throw CliException.error("cannot write " + file + ": " + e.getMessage());
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }
    }

    /**
     * For {@code ralon check}: one line per instructions file, in each directory holding an agent.lock of {@code set},
     * whose section says something other than {@link #section} would now (or whose markers are broken); files without
     * a section are not looked at further (the section is opt-in). Empty for an explicit set ({@code --policy}), which
     * is not what {@code init --agents} wrote from.
     */
    static List<String> staleLines(PolicySet set, Path cwd) {
        List<String> out = new ArrayList<>();
        if (set.isExplicit()) {
            return out;
        }
        Set<Path> seen = new LinkedHashSet<>();
        for (Policy p : set.policies()) {
            Path dir = p.root().toAbsolutePath().normalize();
            for (String name : FILES) {
                Path f = dir.resolve(name);
                if (!Files.isRegularFile(f)) {
                    continue;
                }
                try {
                    if (!seen.add(f.toRealPath())) {
                        continue;
                    }
                    byte[] bytes = Files.readAllBytes(f);
                    Span span = find(bytes);
                    if (span == null) {
                        continue;
                    }
                    byte[] now = Arrays.copyOfRange(bytes, span.start(), span.end());
                    byte[] expected = section(set, dir).getBytes(StandardCharsets.UTF_8);
                    // an end marker on the file's last line, without a line break, is the same section
                    boolean same = Arrays.equals(now, expected) || Arrays.equals(concat(now,
                            new byte[] {'\n'}), expected);
                    if (!same) {
                        out.add(Check.display(cwd, f) + ": its agent.lock section is out of date with agent.lock"
                                + " (refresh it: ralon init --agents " + shownDir(cwd, dir) + ")");
                    }
                } catch (Broken e) {
                    out.add(Check.display(cwd, f) + ": " + e.getMessage() + " (fix them, then: ralon init --agents "
                            + shownDir(cwd, dir) + ")");
                } catch (IOException | SecurityException e) {
                    out.add(Check.display(cwd, f) + ": cannot read it to check its agent.lock section ("
                            + e.getMessage() + ")");
                }
            }
        }
        return out;
    }

    private static String shownDir(Path cwd, Path dir) {
        return dir.equals(cwd) ? "." : Check.display(cwd, dir);
    }

    /**
     * {@code ralon check}'s hook-in: prints {@link #staleLines} on {@code err} ({@code ralon: } each) and returns
     * {@link ExitCodes#PROTECTED} when there are any, else {@code code} unchanged.
     */
    static int reportStale(PolicySet set, PrintWriter err, int code) {
        List<String> lines = staleLines(set, Path.of("").toAbsolutePath());
        for (String l : lines) {
            err.println("ralon: " + l);
        }
        err.flush();
        return lines.isEmpty() ? code : ExitCodes.PROTECTED;
    }

    /** Loads the policies in force at {@code dir} and below it in its tree, or fails with one line and exit 2. */
    static PolicySet inForce(Path dir) {
        try {
            WalkReader.install();
            return PolicySet.inTree(dir);
        } catch (PolicyException e) {
            throw CliException.policy(e);
        }
    }
}
