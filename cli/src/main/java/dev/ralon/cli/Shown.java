package dev.ralon.cli;

import java.nio.file.Path;

/**
 * Paths as messages show them, relative to where the user stands: a path beneath the working directory relative to
 * it ({@code secrets/server.pem}, {@code sub/agent.lock}), the working directory itself as {@code .}, a path beneath
 * {@code $HOME} as {@code ~/…}, any other path absolute. JSON output keeps absolute paths (docs/json.md).
 */
final class Shown {
    private Shown() {
    }

    /** {@code p} (absolute) as the user standing in the working directory reads it best. */
    static String path(Path p) {
        return path(p, Path.of("").toAbsolutePath(), WritableReport.home());
    }

    /** {@code p} relative to {@code cwd} when beneath it, else {@code ~/…} beneath {@code home} (may be null), else as is. */
    static String path(Path p, Path cwd, Path home) {
        if (!p.isAbsolute()) {
            return p.toString();
        }
        Path n = p.normalize();
        if (n.equals(cwd)) {
            return ".";
        }
        if (n.startsWith(cwd)) {
            return cwd.relativize(n).toString();
        }
        if (home != null && n.startsWith(home) && !n.equals(home)) {
            return "~/" + home.relativize(n);
        }
        return n.toString();
    }
}
