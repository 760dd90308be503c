package dev.ralon.enforcer.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The command the sandbox runs.
 *
 * <p>Built by the host through {@link #of}: a final class, not a record, so that a later version can add a
 * component (with a further factory or an accessor with a default) without breaking a backend compiled against this
 * one. Equality is by value.
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public final class Command {
    private final Path executable;
    private final List<String> argv;
    private final Map<String, String> env;
    private final Path cwd;

    private Command(Path executable, List<String> argv, Map<String, String> env, Path cwd) {
        this.executable = Objects.requireNonNull(executable, "executable");
        this.cwd = Objects.requireNonNull(cwd, "cwd");
        this.argv = List.copyOf(argv);
        this.env = Map.copyOf(env);
        if (this.argv.isEmpty()) {
            throw new IllegalArgumentException("argv must hold at least argv[0]");
        }
    }

    /**
     * A command.
     *
     * @param executable absolute path of the program, already resolved against PATH by the host and checked to be an
     *                   executable regular file
     * @param argv       the arguments as the user gave them, {@code argv[0]} included
     * @param env        the environment to pass on: the user's own, plus {@code RALON_BACKEND} and
     *                   {@code RALON_POLICY}
     * @param cwd        the working directory the command starts in
     * @return the command; argv and env are copied
     * @throws IllegalArgumentException when argv is empty
     */
    public static Command of(Path executable, List<String> argv, Map<String, String> env, Path cwd) {
        return new Command(executable, argv, env, cwd);
    }

    /** Absolute path of the program, resolved against PATH and checked to be an executable regular file. */
    public Path executable() {
        return executable;
    }

    /** The arguments as the user gave them, {@code argv[0]} included; unmodifiable. */
    public List<String> argv() {
        return argv;
    }

    /** The environment to pass on; unmodifiable. */
    public Map<String, String> env() {
        return env;
    }

    /** The working directory the command starts in. */
    public Path cwd() {
        return cwd;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Command c && executable.equals(c.executable) && argv.equals(c.argv) && env.equals(c.env)
                && cwd.equals(c.cwd);
    }

    @Override
    public int hashCode() {
        return Objects.hash(executable, argv, env, cwd);
    }

    @Override
    public String toString() {
        // the environment can hold secrets: its names only
        return "Command[executable=" + executable + ", argv=" + argv + ", env=" + new java.util.TreeSet<>(env.keySet())
                + ", cwd=" + cwd + "]";
    }
}
