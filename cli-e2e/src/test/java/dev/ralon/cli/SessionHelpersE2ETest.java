package dev.ralon.cli;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.Requirements;
import dev.ralon.testsupport.TestProcess;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The user's helpers outside the session do not act for the command (docs/security.md, "The session: helpers,
 * signals and debuggers outside"): a real tmux server, an abstract Unix socket listener, a D-Bus session bus, a
 * {@code sleep} to signal and a JVM to attach to or read, all started OUTSIDE as the same uid as the command, under
 * both backends, as root and as uid 65534. Each attack's control (the same client without {@code ralon run}) must get
 * through first, so the attack is real; the verdict is read from outside after the run. And what must keep working
 * inside: git, a pipeline, node spawning a child (socketpair), java.
 */
class SessionHelpersE2ETest {
    static final String SECRET = "s3cret\n";

    @BeforeAll
    static void executable() {
        CliE2ETest.executable();
    }

    static Stream<Arguments> matrix() {
        List<Arguments> out = new ArrayList<>();
        for (String backend : List.of("mount", "landlock")) {
            for (int uid : new int[] {0, TestProcess.NOBODY}) {
                out.add(Arguments.of(backend, uid));
            }
        }
        return out.stream();
    }

    /** A user, a project with secret.txt protected, the backend checked; everything handed to the user. */
    static final class Session implements AutoCloseable {
        final AsUser user;
        final Path project;
        final String backend;

        Session(String backend, int uid) throws Exception {
            AsUser.assumeRoot();
            user = new AsUser(uid);
            this.backend = backend;
            project = Files.createDirectory(user.base.resolve("project"));
            Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - secret.txt\n");
            Files.writeString(project.resolve("secret.txt"), SECRET);
            user.handOver();
            user.assumeBackend(project, backend);
        }

        /** {@code sh -c script} as the user, outside; {@code $R} is ralon, {@code $B} the backend, {@code $P} the project. */
        ProcessResult sh(String script) throws Exception {
            return user.sh(project, "R='" + user.exe + "'; B=" + backend + "; P='" + project + "'; export TERM=xterm\n"
                    + script);
        }

        String secret() throws Exception {
            return Files.readString(project.resolve("secret.txt"));
        }

        @Override
        public void close() throws Exception {
            user.close();
        }
    }

    static void require(String tool) throws Exception {
        ProcessResult r = TestProcess.of("sh", "-c", "command -v " + tool).stdin("").run();
        Requirements.require(r.code() == 0, tool + " is not installed");
    }

    @ParameterizedTest(name = "{0} as uid {1}")
    @MethodSource("matrix")
    void theUsersTmuxServerDoesNotRunCommandsForTheSession(String backend, int uid) throws Exception {
        require("tmux");
        try (Session s = new Session(backend, uid)) {
            // a server per run, on its own socket (a new server on the socket of one being killed may exit at once);
            // in $TMPDIR, which stays live: a socket in ~ itself is not reachable through the session's copy of ~
            // (overlayfs: the copy's inode is not the one the server bound)
            String start = "S=\"$TMPDIR/tm-$1\"; tmux -S \"$S\" new-session -d 'sleep 300' || exit 9\n";
            ProcessResult control = s.sh("set -- control\n" + start + "tmux -S \"$S\" run-shell \"echo CONTROL > $P/secret.txt\"; sleep 0.5;"
                    + " tmux -S \"$S\" kill-server");
            assertEquals("CONTROL\n", s.secret(), "control: the tmux server outside must run it: " + control);
            Files.writeString(s.project.resolve("secret.txt"), SECRET);

            ProcessResult attack = s.sh("set -- attack\n" + start + "\"$R\" run --backend $B -- tmux -S \"$S\" run-shell"
                    + " \"echo PWNED > $P/secret.txt\"; echo \"attack exit $?\"; sleep 1;"
                    + " \"$R\" run --backend $B --allow-unix-sockets -- tmux -S \"$S\" run-shell"
                    + " \"echo OPTIN > $P/optin.txt\"; echo \"optin exit $?\"; sleep 0.5; tmux -S \"$S\" kill-server");
            assertEquals(SECRET, s.secret(), "the tmux server outside wrote the protected file: " + attack);
            assertFalse(attack.out().contains("attack exit 0"), attack.toString());
            assertTrue(attack.err().contains("Operation not permitted"), "the client says why: " + attack);
            assertTrue(attack.out().contains("optin exit 0"), attack.toString());
            assertEquals("OPTIN\n", Files.readString(s.project.resolve("optin.txt")),
                    "--allow-unix-sockets lets the tmux client through: " + attack);
            assertTrue(attack.err().contains("not refused towards processes outside: unix-sockets"
                    + " (--allow-unix-sockets)"), "the start line names the opt-in: " + attack);
        }
    }

    /** Node: an abstract listener that writes {@code $P/connected.txt} when a client connects, and its client. */
    static final String LISTENER = "node -e \"const fs=require('fs');require('net').createServer(c=>{"
            + "fs.writeFileSync(process.argv[2],'CONNECTED\\n');c.end()}).listen('\\0'+process.argv[1],()=>"
            + "fs.writeFileSync(process.argv[2]+'.up','')); setTimeout(()=>process.exit(0),60000)\"";
    static final String CLIENT = "node -e \"const c=require('net').connect('\\0'+process.argv[1]);"
            + "c.on('connect',()=>{console.log('CLIENT CONNECTED');c.end()});"
            + "c.on('error',e=>{console.log('CLIENT ERROR '+e.code);process.exit(3)})\"";

    @ParameterizedTest(name = "{0} as uid {1}")
    @MethodSource("matrix")
    void anAbstractUnixSocketOutsideIsUnreachableEvenWithTheOptIn(String backend, int uid) throws Exception {
        require("node");
        try (Session s = new Session(backend, uid)) {
            String name = "ralon-e2e-abstract-" + ProcessHandle.current().pid() + "-" + uid + "-" + backend;
            String listen = LISTENER + " " + name + " \"$HOME/$1\" & L=$!; i=0; while [ ! -e \"$HOME/$1.up\" ]"
                    + " && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done\n";
            ProcessResult control = s.sh("set -- control.txt\n" + listen + CLIENT + " " + name + "; kill $L");
            assertTrue(control.out().contains("CLIENT CONNECTED"), "control: " + control);
            assertEquals("CONNECTED\n", Files.readString(s.user.home.resolve("control.txt")), control.toString());

            ProcessResult attack = s.sh("set -- attack.txt\n" + listen
                    + "\"$R\" run --backend $B -- " + CLIENT + " " + name + "; echo \"attack exit $?\";"
                    + "\"$R\" run --backend $B --allow-unix-sockets -- " + CLIENT + " " + name + ";"
                    + " echo \"optin exit $?\"; sleep 0.5; kill $L");
            assertFalse(Files.exists(s.user.home.resolve("attack.txt")), "the listener outside was reached: " + attack);
            assertFalse(attack.out().contains("CLIENT CONNECTED"), attack.toString());
            // without the opt-in the socket cannot be created (seccomp); with it, Landlock's abstract scope refuses
            assertTrue(attack.out().contains("CLIENT ERROR EPERM"), attack.toString());
            assertTrue(attack.out().contains("optin exit 3"), attack.toString());
        }
    }

    @ParameterizedTest(name = "{0} as uid {1}")
    @MethodSource("matrix")
    void theUsersDbusSessionBusIsUnreachable(String backend, int uid) throws Exception {
        require("dbus-daemon");
        require("dbus-send");
        try (Session s = new Session(backend, uid)) {
            Files.writeString(s.user.home.resolve("bus.conf"), """
                    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
                     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
                    <busconfig>
                      <type>session</type>
                      <listen>unix:dir=%s</listen>
                      <auth>EXTERNAL</auth>
                      <policy context="default">
                        <allow send_destination="*" eavesdrop="true"/>
                        <allow eavesdrop="true"/>
                        <allow own="*"/>
                      </policy>
                    </busconfig>
                    """.formatted(s.user.home));
            s.user.handOver();
            String start = "eval \"$(dbus-daemon --config-file=\"$HOME/bus.conf\" --fork --print-address=1"
                    + " --print-pid=1 | { read a; read p; echo \"A='$a'; D=$p\"; })\"; [ -n \"$A\" ] || exit 9\n"
                    + "send() { dbus-send --bus=\"$A\" --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus"
                    + " org.freedesktop.DBus.ListNames; }\n";
            ProcessResult control = s.sh(start + "send; echo \"control exit $?\"; kill $D");
            assertTrue(control.out().contains("control exit 0") && control.out().contains("org.freedesktop.DBus"),
                    "control: " + control);

            ProcessResult attack = s.sh(start + "\"$R\" run --backend $B -- dbus-send --bus=\"$A\" --print-reply"
                    + " --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.ListNames;"
                    + " echo \"attack exit $?\"; kill $D");
            assertTrue(attack.out().contains("attack exit ") && !attack.out().contains("attack exit 0"),
                    attack.toString());
            assertFalse(attack.out().contains("org.freedesktop.DBus\""), "the bus answered: " + attack);
            assertTrue(attack.err().contains("Operation not permitted"), attack.toString());
        }
    }

    @ParameterizedTest(name = "{0} as uid {1}")
    @MethodSource("matrix")
    void aProcessOutsideCannotBeSignalled(String backend, int uid) throws Exception {
        try (Session s = new Session(backend, uid)) {
            ProcessResult control = s.sh("sleep 1000 & V=$!; kill -TERM $V; echo \"control exit $?\"; wait $V;"
                    + " echo \"status $?\"");
            assertTrue(control.out().contains("control exit 0") && control.out().contains("status 143"),
                    "control: " + control);

            ProcessResult attack = s.sh("sleep 1000 & V=$!; \"$R\" run --backend $B -- kill -TERM $V;"
                    + " echo \"attack exit $?\"; sleep 0.3; kill -0 $V && echo ALIVE; kill -KILL $V");
            assertTrue(attack.out().contains("ALIVE"), "the process outside was killed: " + attack);
            assertFalse(attack.out().contains("attack exit 0"), attack.toString());
            // both backends: the session's own PID namespace does not even hold the process (ESRCH), and Landlock's
            // signal scope stands behind it (EPERM for a pid the session could name)
            assertTrue(attack.err().contains("No such process"), attack.toString());
        }
    }

    @ParameterizedTest(name = "{0} as uid {1}")
    @MethodSource("matrix")
    void aJvmOutsideCannotBeAttachedToNorItsMemoryRead(String backend, int uid) throws Exception {
        try (Session s = new Session(backend, uid)) {
            Files.writeString(s.user.home.resolve("Keep.java"),
                    "public class Keep { public static void main(String[] a) throws Exception {"
                            + " Thread.sleep(60_000); } }\n");
            s.user.handOver();
            String java = TestProcess.java();
            String jcmd = Path.of(java).resolveSibling("jcmd").toString();
            // the JVM outside, in its own directory (the attach file goes to its working directory)
            ProcessResult r = s.sh("cd \"$HOME\" && '" + java + "' Keep.java & J=$!; sleep 4\n"
                    + "\"$R\" run --backend $B -- '" + jcmd + "' $J VM.version; echo \"attach exit $?\"\n"
                    + "\"$R\" run --backend $B -- cat /proc/$J/environ; echo \"environ exit $?\"\n"
                    + "\"$R\" run --backend $B -- dd if=/proc/$J/mem bs=1 count=1 skip=4194304; echo \"mem exit $?\"\n"
                    // the controls, after the attacks so that the attach listener was not started for them
                    + "'" + jcmd + "' $J VM.version; echo \"control attach exit $?\"\n"
                    + "cat /proc/$J/environ >/dev/null; echo \"control environ exit $?\"\n"
                    + "kill $J");
            assertTrue(r.out().contains("control attach exit 0") && r.out().contains("control environ exit 0"),
                    "control: the JVM outside is attachable and readable: " + r);
            assertFalse(r.out().contains("\nattach exit 0"), r.toString());
            assertTrue(r.out().contains("environ exit 1"), r.toString());
            assertFalse(r.out().contains("\nmem exit 0"), r.toString());
            // the session's /proc shows only its own PID namespace, so the process outside is not there; under
            // landlock jcmd's attach file (/tmp/.attach_pidN, made through the broker where /tmp is on the way) is no
            // help: its signal to the JVM outside is refused (Landlock's signal scope), or the file itself is
            assertTrue(r.err().contains("/proc/") && (r.err().contains("No such file or directory")
                    || (!backend.equals("mount") && r.err().contains("Permission denied"))), r.toString());
        }
    }

    @ParameterizedTest(name = "{0} as uid {1}")
    @MethodSource("matrix")
    void gitAPipelineNodeAndJavaKeepWorkingInside(String backend, int uid) throws Exception {
        require("node");
        require("git");
        try (Session s = new Session(backend, uid)) {
            String java = TestProcess.java();
            // work/ exists before the run: under landlock nothing can be created beside the protected secret.txt
            ProcessResult r = s.sh("mkdir work && \"$R\" run --backend $B -- sh -c '"
                    + "cd work && git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m one"
                    + " && git log --oneline | wc -l && cd .."
                    + " && echo abc | tr a x | grep -c xbc"
                    + " && node -e \"console.log(require(\\\"child_process\\\").execFileSync(\\\"echo\\\","
                    + " [\\\"child\\\"]).toString().trim())\""
                    + " && \"" + java + "\" -version 2>&1 | grep -c version"
                    + "'");
            assertEquals(0, r.code(), r.toString());
            assertEquals(List.of("1", "1", "child", "1"), r.out().lines().toList(), r.toString());
        }
    }

    @org.junit.jupiter.api.Test
    void dryRunAndStatusSayWhatHoldsAndNameTheOptIn() throws Exception {
        try (Session s = new Session("landlock", TestProcess.currentUid())) {
            ProcessResult json = s.user.ralon(s.project, "run", "--dry-run", "--json", "--allow-unix-sockets", "--", "true");
            assertEquals(0, json.code(), json.toString());
            String doc = json.out().replaceAll("\\s", "");
            assertTrue(doc.contains("\"session\":{\"held\":[\"signals\",\"ptrace\"],\"notHeld\":[{\"id\":\"unix-sockets\""),
                    json.out());
            assertTrue(doc.contains("\"allowUnixSockets\":true"), json.out());
            ProcessResult text = s.user.ralon(s.project, "run", "--dry-run", "--", "true");
            assertTrue(text.out().contains("session (every backend): refused towards processes outside: unix-sockets,"
                    + " signals, ptrace"), text.toString());
            ProcessResult status = s.user.ralon(s.project, "status");
            assertTrue(status.out().contains("session (every backend): refused towards processes outside:"
                    + " unix-sockets, signals, ptrace"), status.toString());
        }
    }
}
