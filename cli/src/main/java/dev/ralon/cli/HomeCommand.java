package dev.ralon.cli;

import dev.ralon.host.HomeCopy;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ralon home}: the copy of the home directory the project's sessions write into under the mount backend
 * ({@link HomeCopy}; README, "What changes inside a session"): what they changed, as paths, and its size; {@code --keep
 * PATH} copies one file out to the real home directory on purpose, {@code --drop} removes the copy, {@code --all} lists
 * every project's copy. Reads the store from outside a session (inside one the stores are hidden).
 */
@Command(name = "home", mixinStandardHelpOptions = true,
        description = {"Show what this project's sessions wrote into their copy of your home directory.",
                "Under the mount backend ~ is a copy for the session: its writes land in",
                "~/.local/state/ralon/homes/<project>/, never in ~. Listed here as paths (new, changed, removed)",
                "with the copy's size; --keep copies one file out to ~ on purpose, --drop removes the copy,",
                "--all lists every project's copy."})
final class HomeCommand implements Callable<Integer> {
    /** How many changed paths are listed before the rest are counted. */
    static final int LISTED = 100;

    @Mixin
    PolicyOption policyOption;

    @Option(names = "--all", description = "List every project's copy: its size, last change and project.")
    boolean all;

    @Option(names = "--drop", description = "Remove this project's copy (what its sessions wrote into ~ is lost).")
    boolean drop;

    @Option(names = "--keep", paramLabel = "PATH", description = "Copy PATH (relative to ~, a file of the copy) out to"
            + " your home directory; repeatable.")
    List<String> keep;

    @Option(names = "--replace", description = "With --keep: replace a file ~ already has.")
    boolean replace;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try {
            return show(spec.commandLine().getOut());
        } catch (IOException | java.io.UncheckedIOException e) {
            throw CliException.error("home: " + e.getMessage());
        }
    }

    private int show(PrintWriter out) throws IOException {
        Path home = WritableReport.home();
        if (home == null) {
            throw CliException.error("home: $HOME is not set to an absolute path");
        }
        if (all) {
            List<HomeCopy.Store> stores = HomeCopy.stores(home);
            if (stores.isEmpty()) {
                out.println("no copy of ~ (none made yet: the mount backend makes one at a project's first run)");
            }
            for (HomeCopy.Store s : stores) {
                out.println(String.format("%-10s %s  %s  %s", size(s.bytes()),
                        s.changed().truncatedTo(java.time.temporal.ChronoUnit.SECONDS), shown(home, s.path()), s.project()));
            }
            out.flush();
            return ExitCodes.OK;
        }
        Path project = PolicyOption.load(policyOption.policy).nearest().root();
        Path store = HomeCopy.store(home, project);
        if (!Files.isDirectory(store, LinkOption.NOFOLLOW_LINKS)) {
            out.println("no copy of ~ for " + project + " (made by its first `ralon run` under the mount backend)");
            out.flush();
            return ExitCodes.OK;
        }
        if (drop) {
            HomeCopy.drop(home, store);
            out.println("removed " + shown(home, store) + ": the next session of " + project + " starts from ~ as it is");
            out.flush();
            return ExitCodes.OK;
        }
        if (keep != null && !keep.isEmpty()) {
            for (String k : keep) {
                try {
                    Path to = HomeCopy.keep(home, store, Path.of(k.startsWith("~/") ? k.substring(2) : k), replace);
                    out.println("kept " + shown(home, to));
                } catch (IOException e) {
                    throw CliException.error("home: --keep " + e.getMessage());
                }
            }
            out.flush();
            return ExitCodes.OK;
        }
        List<HomeCopy.Changed> changes = HomeCopy.changes(home, store);
        long bytes = HomeCopy.describe(store).bytes(); // this store only: not every project's
        out.println("copy of ~ for " + project + ": " + shown(home, store) + "/ (" + size(bytes) + ", "
                + changes.size() + (changes.size() == 1 ? " path" : " paths") + " changed)");
        for (int i = 0; i < Math.min(changes.size(), LISTED); i++) {
            HomeCopy.Changed c = changes.get(i);
            out.println(String.format("  %-8s ~/%s", c.change().name().toLowerCase(java.util.Locale.ROOT), c.path()));
        }
        if (changes.size() > LISTED) {
            out.println("  and " + (changes.size() - LISTED) + " more (under " + shown(home, store) + "/upper/)");
        }
        if (Files.isDirectory(store.resolve("caches"), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            out.println("  tool caches of the sessions without a copy (landlock): " + shown(home, store) + "/caches/");
        }
        out.flush();
        return ExitCodes.OK;
    }

    private static String shown(Path home, Path p) {
        return p.startsWith(home) ? "~/" + home.relativize(p) : p.toString();
    }

    private static String size(long bytes) {
        return bytes < 1024 ? bytes + " B" : bytes < 1024 * 1024 ? (bytes / 1024) + " KiB" : (bytes / (1024 * 1024)) + " MiB";
    }
}
