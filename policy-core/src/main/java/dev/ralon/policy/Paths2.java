package dev.ralon.policy;

import java.nio.file.Path;

/**
 * Path helpers shared by policy-core's packages (the model, the loader, the walk, git); public for them only, not
 * for other modules.
 */
public final class Paths2 {
    private Paths2() {
    }

    /** The path relative to the working directory when beneath it, else as given. */
    public static String display(Path file) {
        if (file == null) {
            return "agent.lock";
        }
        try {
            Path cwd = Path.of("").toAbsolutePath();
            Path abs = file.toAbsolutePath().normalize();
            if (abs.startsWith(cwd) && !abs.equals(cwd)) {
                return cwd.relativize(abs).toString();
            }
            return abs.toString();
        } catch (RuntimeException e) {
            return file.toString();
        }
    }

    /** '/'-separated relative form of {@code path} beneath {@code root}, or null when not strictly beneath it. */
    public static String relativeBeneath(Path root, Path path) {
        if (!path.startsWith(root) || path.equals(root)) {
            return null;
        }
        Path rel = root.relativize(path);
        StringBuilder sb = new StringBuilder();
        for (Path part : rel) {
            if (sb.length() > 0) {
                sb.append('/');
            }
            sb.append(part);
        }
        return sb.toString();
    }
}
