package dev.ralon.enforcer.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the host must {@code execve} once {@link Enforcer#prepare} has returned: the user's command itself (when the
 * enforcer restricted the calling thread, as Landlock does), or a stage of the enforcer's own that will set up the
 * sandbox and exec the command in turn (as the mount backend's namespace chain does).
 *
 * @param executable absolute path to exec
 * @param argv       its argument vector, argv[0] included
 * @param env        its complete environment
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public record Launch(Path executable, List<String> argv, Map<String, String> env) {
    public Launch {
        Objects.requireNonNull(executable, "executable");
        argv = List.copyOf(argv);
        env = Map.copyOf(env);
    }

    /** The command as it is: nothing to chain through. */
    public static Launch of(Command command) {
        return new Launch(command.executable(), command.argv(), command.env());
    }
}
