package dev.ralon.host;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@link GitConfig}: the syntax read as git reads it, checked against real git ({@code git config --file F --list}),
 * and the includes followed as git follows them (relative to the including file, {@code ~/}, any includeIf condition,
 * depth 10).
 */
class GitConfigTest {
    @TempDir
    Path tmp;

    static String list(List<GitConfig.Entry> entries) {
        StringBuilder s = new StringBuilder();
        for (GitConfig.Entry e : entries) {
            s.append(e.key()).append('=').append(e.value() == null ? "true" : e.value()).append('\n');
        }
        return s.toString();
    }

    /** What git itself lists for the file (-z: "key\nvalue\0", a bare key "key\0", shown here as "true"). */
    static String gitList(Path f) throws Exception {
        ProcessResult r = TestProcess.of(List.of("git", "config", "--file", f.toString(), "--no-includes", "--list",
                "-z")).in(f.getParent()).env("GIT_CONFIG_NOSYSTEM", "1").run();
        assertEquals(0, r.code(), r.toString());
        StringBuilder s = new StringBuilder();
        for (String l : r.out().split("\0")) {
            if (!l.isEmpty()) {
                int nl = l.indexOf('\n');
                s.append(nl < 0 ? l + "=true" : l.substring(0, nl) + "=" + l.substring(nl + 1)).append('\n');
            }
        }
        return s.toString();
    }

    @Test
    void theSyntaxAsGitReadsIt() throws Exception {
        String text = "\ufeff# comment\n; another\n[core]\n\thooksPath = .husky ; trailing comment\n"
                + "\tfsmonitor = \"a \\\"quoted\\\" # not a comment\"\n"
                + "  excludesFile=~/x\\\n  y\n"
                + "[Include]path=one.config\n"
                + "[includeIf \"gitdir:~/w\\\\o\\\"rk/\"]\n  path = two.config\n"
                + "[section.Sub] Key\n"
                + "[alias]\n\tst = status   -s  \t\n\tesc = a\\tb\\nc\\\\d\r\n";
        Path f = tmp.resolve("c");
        Files.writeString(f, text);
        String mine = list(GitConfig.parse(Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1), f));
        assertEquals(gitList(f), mine);
        assertEquals("core.hookspath=.husky\n" + "core.fsmonitor=a \"quoted\" # not a comment\n"
                + "core.excludesfile=~/x  y\n" + "include.path=one.config\n"
                + "includeif.gitdir:~/w\\o\"rk/.path=two.config\n" + "section.sub.key=true\n"
                + "alias.st=status   -s\n" + "alias.esc=a\tb\nc\\d\n", mine);
    }

    @Test
    void aBadLineEndsTheFileAsItStopsGit() throws Exception {
        List<GitConfig.Entry> e = GitConfig.parse("[core]\nhooksPath = a\n!bad\n[core]\nhooksPath = b\n", tmp);
        assertEquals("core.hookspath=a\n", list(e));
        assertEquals("", list(GitConfig.parse("[core\nhooksPath = a\n", tmp)));
        assertEquals("", list(GitConfig.parse("[core]\nhooksPath = \"open\n", tmp)));
        assertEquals("", list(GitConfig.parse("[core]\nhooksPath = bad \\q escape\n", tmp)));
    }

    @Test
    void includesFollowedRecursivelyRelativeAndHome() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path repo = Files.createDirectories(tmp.resolve("repo/.git"));
        Files.createDirectories(home.resolve("inc"));
        Files.writeString(repo.resolve("config"), "[include]\n\tpath = ~/inc/a.config\n"
                + "[includeIf \"onbranch:never\"]\n\tpath = ../../side.config\n");
        Files.writeString(home.resolve("inc/a.config"), "[include]\n\tpath = b.config\n"); // relative to inc/
        Files.writeString(home.resolve("inc/b.config"), "[core]\n\thooksPath = /h\n[include]\n\tpath = a.config\n");
        Files.writeString(tmp.resolve("side.config"), "[core]\n\tattributesFile = x\n");
        GitConfig.Result r = GitConfig.read(List.of(repo.resolve("config"), home.resolve("absent")), home);
        assertEquals(List.of(home.resolve("inc/a.config"), home.resolve("inc/b.config"), tmp.resolve("side.config")),
                r.includes());
        List<String> keys = new ArrayList<>();
        for (GitConfig.Entry e : r.entries()) {
            keys.add(e.key());
        }
        assertEquals(true, keys.contains("core.hookspath") && keys.contains("core.attributesfile"), keys.toString());

        // a chain deeper than git's limit of 10 is followed to depth 10 only
        Path d = Files.createDirectories(tmp.resolve("chain"));
        for (int i = 0; i < 14; i++) {
            Files.writeString(d.resolve("c" + i), "[include]\n\tpath = c" + (i + 1) + "\n");
        }
        Files.writeString(d.resolve("c14"), "");
        assertEquals(10, GitConfig.read(List.of(d.resolve("c0")), home).includes().size());
    }

    @Test
    void pathValues() {
        Path base = Path.of("/b");
        Path home = Path.of("/h");
        assertEquals(Path.of("/h/x"), GitConfig.path("~/x", base, home));
        assertEquals(Path.of("/b/x"), GitConfig.path("x", base, home));
        assertEquals(Path.of("/x"), GitConfig.path(":(optional)/x", base, home));
        assertNull(GitConfig.path("~other/x", base, home));
        assertNull(GitConfig.path("", base, home));
        assertNull(GitConfig.path("x", null, home));
    }
}
