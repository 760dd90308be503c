package dev.ralon.enforcer.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The command the sandbox runs.
 *
 * @param executable absolute path of the program, already resolved against PATH by the host and checked to be an
 *                   executable regular file
 * @param argv       the arguments as the user gave them, {@code argv[0]} included
 * @param env        the environment to pass on: the user's own, plus {@code RALON_BACKEND} and {@code RALON_POLICY}
 * @param cwd        the working directory the command starts in
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public record Command(Path executable, List<String> argv, Map<String, String> env, Path cwd) {
    public Command {
        Objects.requireNonNull(executable, "executable");
        Objects.requireNonNull(cwd, "cwd");
        argv = List.copyOf(argv);
        env = Map.copyOf(env);
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("argv must hold at least argv[0]");
        }
    }
}
