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
 * <p>Built by the host through {@link #of(Path, List, Map)}: a final class, not a record, so that a later version can add a
 * component (with a further factory or an accessor with a default) without breaking a backend compiled against this
 * one. Equality is by value.
 *
 * @since 0.1.0
 */
@Stable(since = "0.1.0")
public final class Launch {
    private final Path executable;
    private final List<String> argv;
    private final Map<String, String> env;

    private Launch(Path executable, List<String> argv, Map<String, String> env) {
        this.executable = Objects.requireNonNull(executable, "executable");
        this.argv = List.copyOf(argv);
        this.env = Map.copyOf(env);
    }

    /**
     * A launch.
     *
     * @param executable absolute path to exec
     * @param argv       its argument vector, argv[0] included
     * @param env        its complete environment
     * @return the launch; argv and env are copied
     */
    public static Launch of(Path executable, List<String> argv, Map<String, String> env) {
        return new Launch(executable, argv, env);
    }

    /** The command as it is: nothing to chain through. */
    public static Launch of(Command command) {
        return new Launch(command.executable(), command.argv(), command.env());
    }

    /** Absolute path to exec. */
    public Path executable() {
        return executable;
    }

    /** Its argument vector, argv[0] included; unmodifiable. */
    public List<String> argv() {
        return argv;
    }

    /** Its complete environment; unmodifiable. */
    public Map<String, String> env() {
        return env;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Launch l && executable.equals(l.executable) && argv.equals(l.argv) && env.equals(l.env);
    }

    @Override
    public int hashCode() {
        return Objects.hash(executable, argv, env);
    }

    @Override
    public String toString() {
        // the environment can hold secrets: its names only
        return "Launch[executable=" + executable + ", argv=" + argv + ", env=" + new java.util.TreeSet<>(env.keySet())
                + "]";
    }
}
