package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The project reached through another mount of its file system (docs/security.md, "Another mount of the project"): a
 * bind mount of the project two levels below a sibling of the project, and a bind of a part of a protected directory
 * elsewhere, made before the run (as a container volume or a user's bind would be). Under landlock the sibling gets a
 * full-access rule, and before aliases were planned the protected files were writable through the deep bind; the
 * mount backend found the first from mountinfo but not the second. Each case makes the binds as root in a private
 * mount namespace, then runs {@code ralon run} there as root or as uid 65534; the files are read from outside
 * afterwards. Control: an unprotected file written through the same alias changes, so the alias is real.
 */
class MountAliasesE2ETest {
    static final String POLICY = "version: 1\nprotect:\n  - secret.txt\n  - keys/\n";

    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    static Stream<Arguments> cases() {
        return AsUser.matrix(List.<String[]>of(new String[0]));
    }

    @ParameterizedTest(name = "{0}, uid {1}")
    @MethodSource("cases")
    void protectedFilesCannotBeWrittenThroughAnotherMount(String backend, int uid) throws Exception {
        AsUser.assumeRoot();
        try (AsUser u = new AsUser(uid)) {
            Path p = Files.createDirectories(u.base.resolve("proj"));
            Files.writeString(p.resolve("agent.lock"), POLICY);
            Files.writeString(p.resolve("secret.txt"), "original\n");
            Files.writeString(p.resolve("free.txt"), "free\n");
            Files.createDirectories(p.resolve("keys/sub"));
            Files.writeString(p.resolve("keys/a.key"), "a\n");
            Files.writeString(p.resolve("keys/sub/b.key"), "b\n");
            Path deep = Files.createDirectories(u.base.resolve("side/x/y/alias"));
            Path part = Files.createDirectories(u.base.resolve("other/subalias"));
            u.handOver();
            u.assumeBackend(p, backend);

            String attack = "echo pwned >> " + deep + "/secret.txt; echo \"deep $?\"; echo pwned >> " + deep
                    + "/keys/a.key; echo \"deepdir $?\"; echo pwned >> " + part + "/b.key; echo \"part $?\"; echo ok >> "
                    + deep + "/free.txt; echo \"control $?\"";
            String who = uid == 0 ? "" : "setpriv --reuid=" + uid + " --regid=" + uid + " --clear-groups ";
            String script = "mount --bind \"$1\" \"$2\" && mount --bind \"$1/keys/sub\" \"$3\" && cd \"$1\" && exec "
                    + who + "\"$4\" run --verbose --backend " + backend + " -- sh -c '" + attack + "'";
            ProcessResult r = CliE2ETest.exec(p, null, u.env(Map.of()), "unshare", "--mount", "--propagation",
                    "private", "sh", "-c", script, "sh", p.toString(), deep.toString(), part.toString(),
                    u.exe.toString());
            assertTrue(r.out().contains("control 0"), "the alias is real: an unprotected file is written through it: "
                    + r);
            assertEquals("free\nok\n", Files.readString(p.resolve("free.txt")), r.toString());
            assertEquals("original\n", Files.readString(p.resolve("secret.txt")), "through the deep bind: " + r);
            assertEquals("a\n", Files.readString(p.resolve("keys/a.key")), "a protected directory through the deep bind: "
                    + r);
            assertEquals("b\n", Files.readString(p.resolve("keys/sub/b.key")), "part of a protected directory bound"
                    + " elsewhere: " + r);
            assertTrue(r.out().contains("deep 1") || r.out().contains("deep 2"), r.toString());
            if (backend.equals("landlock")) {
                assertTrue(r.err().contains("is also reachable at " + deep + "/secret.txt"), "named at start: " + r);
            }
        }
    }
}
