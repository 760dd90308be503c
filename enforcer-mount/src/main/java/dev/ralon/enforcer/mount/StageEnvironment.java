package dev.ralon.enforcer.mount;

import dev.ralon.linux.Exec;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The environment across the stage JVM, both directions: the host ({@link MountLaunch}) hides the variables a
 * {@code java} launcher reads so they reach the command and not the stage JVM, and the stage ({@link MountStage})
 * puts them back for the command.
 */
final class StageEnvironment {
    /** Environment variables that would change the stage JVM are renamed with this prefix, then restored for CMD. */
    static final String STASH_PREFIX = "RALON_STASHED_";
    /**
     * Environment variables a {@code java} launcher reads: they must not reach the stage JVM, only the command. LC_ALL
     * is among them: the stage JVM runs under {@link #STAGE_LC_ALL} (it decodes the command's arguments and encodes
     * the paths it mounts with the locale's file-name encoding, ASCII under C or no locale), the command gets the
     * user's LC_ALL back, set or unset.
     */
    static final List<String> JVM_ENV = List.of("JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "LC_ALL");
    /** The stage JVM's LC_ALL: file names and arguments as UTF-8, as the ralon launcher does for the first JVM. */
    static final String STAGE_LC_ALL = "C.UTF-8";

    private StageEnvironment() {
    }

    /**
     * Host side: the stage JVM's environment, the command's with {@link #JVM_ENV} stashed, LC_ALL=C.UTF-8 for the
     * stage, and the launcher's record of RLIMIT_NOFILE kept for {@link Exec}.
     */
    static Map<String, String> forStage(Map<String, String> commandEnv, String origNofile) {
        Map<String, String> env = new HashMap<>(commandEnv);
        for (String name : JVM_ENV) {
            String v = env.remove(name);
            if (v != null) {
                env.put(STASH_PREFIX + name, v);
            }
        }
        env.put("LC_ALL", STAGE_LC_ALL); // stashed above; forCommand gives it back
        if (origNofile != null && !env.containsKey(Exec.ORIG_NOFILE_ENV)) {
            env.put(Exec.ORIG_NOFILE_ENV, origNofile);
        }
        return env;
    }

    /** Stage side: the environment for the command, the stage's own with the stashed JVM variables put back. */
    static Map<String, String> forCommand(Map<String, String> stageEnv) {
        Map<String, String> env = new HashMap<>(stageEnv);
        for (String name : JVM_ENV) {
            env.remove(name);
            String v = env.remove(STASH_PREFIX + name);
            if (v != null) {
                env.put(name, v);
            }
        }
        return env;
    }
}
