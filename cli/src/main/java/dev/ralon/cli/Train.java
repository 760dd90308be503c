package dev.ralon.cli;

import dev.ralon.host.BuiltInBackends;
import dev.ralon.policy.walk.PolicyDiscovery;
import dev.ralon.policy.walk.PolicySet;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Training run for the class-data-sharing archive the launcher builds in the background (cli/src/main/launcher/ralon.sh,
 * docs/performance.md): runs the common commands once on a throw-away project, output discarded, so that the JVM's
 * class list ({@code -XX:DumpLoadedClassList}) holds the classes a real start needs. Starts no command, changes
 * nothing outside its temporary directory and the JNA directory it is given. Exits 0, or non-zero when that
 * directory's parent is gone ({@link #extractJnaLibrary}).
 */
final class Train {
    private Train() {
    }

    /**
     * {@code Train [JNA_DIR]}: with JNA_DIR, also writes JNA's native library for this platform there (created;
     * the launcher renames it into place and passes it as {@code jna.boot.library.path}, so JNA loads it instead of
     * unpacking a fresh copy into the user's cache directory at every start).
     */
    public static void main(String[] args) throws IOException, dev.ralon.policy.PolicyException {
        if (args.length == 1 && extractJnaLibrary(Path.of(args[0]))) {
            // JNA loads the copy just made and unpacks nothing: with jna.nounpack it neither makes nor clears its
            // temporary directory (com.sun.jna.Native.loadNativeDispatchLibrary), which it would make with mkdirs,
            // parents and all, even where the builder's directory has been removed meanwhile. Set before any native
            // call (Native's class initializer reads them); the starts give JNA the same two properties (ralon.sh).
            System.setProperty("jna.boot.library.path", args[0]);
            System.setProperty("jna.nounpack", "true");
        }
        // Ralon's own classes only: a plugin installed now must not end up in the archive
        System.setProperty(dev.ralon.host.PluginDirectory.IGNORED_PROPERTY, "true");
        Path dir = Files.createTempDirectory("ralon-train");
        try {
            Files.writeString(dir.resolve(PolicyDiscovery.FILE_NAME),
                    "version: 1\nprotect:\n  - \"**/*.json\"\n  - pom.xml\n  - config/\n  - \"*.pem\"\n");
            Files.createDirectories(dir.resolve("config"));
            Files.createDirectories(dir.resolve("src/a"));
            Files.writeString(dir.resolve("pom.xml"), "x");
            Files.writeString(dir.resolve("src/a/b.json"), "{}");
            Files.writeString(dir.resolve("src/a/c.java"), "x");
            PrintWriter none = new PrintWriter(OutputStream.nullOutputStream());
            Path lock = dir.resolve(PolicyDiscovery.FILE_NAME);
            PolicySet policy = PolicySet.inForceAt(dir);
            FastParser.parse(new String[] {"check", "x"});
            try {
                new PolicyOption().load(); // discovery from the working directory (links its lambda); read-only
            } catch (CliException e) {
                // no policy there: the classes are loaded all the same
            }
            Check.checkPaths(policy, List.of(dir.resolve("pom.xml").toString(), dir.resolve("src/a/c.java").toString()),
                    none, false, false, false);
            // the agents' pre-write hook (FastParser's form): an allowed and a refused Write, as Claude Code sends them
            for (String target : List.of("src/a/c.java", "pom.xml")) {
                String payload = "{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"" + dir + "\",\"tool_name\":\"Write\","
                        + "\"tool_input\":{\"file_path\":\"" + target + "\",\"content\":\"x\"}}";
                Main.execute(FastParser.parse(new String[] {"hook", "claude-code"}),
                        new java.io.ByteArrayInputStream(payload.getBytes(java.nio.charset.StandardCharsets.UTF_8)), none, none);
            }
            String p = lock.toString();
            // `ralon status` (FastParser's form, text and JSON): the policy, the walk, every backend's probe and plan
            for (boolean json : new boolean[] {false, true}) {
                Main.execute(new StatusRequest(lock, json, false), java.io.InputStream.nullInputStream(), none, none);
            }
            // the session notes as `run` writes them (a new file prunes the directory: SessionNotes.prune), into this
            // training's own directory
            for (String text : List.of("training notes 1", "training notes 2")) {
                dev.ralon.host.SessionNotes.putEnv(new java.util.HashMap<>(java.util.Map.of("XDG_CACHE_HOME",
                        dir.toString())), text);
            }
            // Classes a real start loads that the commands above cannot reach (they end in execve, or are the entry
            // point): loaded, not initialised, so that they are archived too. CdsE2ETest checks that `check` and
            // `run` then load nothing from the jar.
            for (String c : List.of("dev.ralon.cli.Boot", "dev.ralon.cli.Main", "dev.ralon.cli.Getdents64Reader",
                    "dev.ralon.host.AgentsUnderLandlock", "dev.ralon.host.SessionNotes",
                    "dev.ralon.cli.Run$Executables", "dev.ralon.cli.StartLines",
                    "dev.ralon.enforcer.spi.Command", "dev.ralon.enforcer.spi.Launch", "dev.ralon.linux.Exec",
                    "dev.ralon.linux.LibC", "dev.ralon.linux.TerminalGuard",
                    "dev.ralon.linux.SessionGuard", "dev.ralon.linux.SessionGuard$Options",
                    "dev.ralon.enforcer.spi.SessionGuarantee",
                    "dev.ralon.linux.LinuxAbi", "dev.ralon.linux.Errno",
                    "dev.ralon.enforcer.spi.KernelInterfaces",
                    "dev.ralon.linux.LauncherNamespace", "dev.ralon.linux.LauncherNamespace$Ids",
                    "dev.ralon.enforcer.mount.StandardDescriptors", "dev.ralon.enforcer.landlock.LandlockApplier",
                    "dev.ralon.linux.Binds", "dev.ralon.linux.Binds$Entry",
                    "dev.ralon.enforcer.landlock.ContainedBinds", "dev.ralon.enforcer.landlock.ContainedBinds$Result",
                    "dev.ralon.enforcer.landlock.Broker", "dev.ralon.enforcer.landlock.BrokerProcess",
                    "dev.ralon.linux.SeccompNotify", "dev.ralon.linux.SeccompNotify$Notified",
                    "dev.ralon.linux.DescriptorChannel", "dev.ralon.linux.Poll", "dev.ralon.linux.Poll$Readiness",
                    "dev.ralon.linux.OwnJvm",
                    "com.sun.jna.StringArray", "com.sun.jna.NativeString", "com.sun.jna.NativeString$StringMemory",
                    "com.sun.jna.Function$PostCallRead", "com.sun.jna.LastErrorException",
                    "dev.ralon.linux.Sha256", "dev.ralon.enforcer.mount.MountStage",
                    "dev.ralon.enforcer.mount.PlanFile", "dev.ralon.enforcer.mount.PlanFile$StagePlan",
                    "dev.ralon.enforcer.mount.PlanFile$Entry", "dev.ralon.enforcer.mount.PlanFile$Op",
                    "dev.ralon.enforcer.mount.Mounts", "dev.ralon.enforcer.mount.StageEnvironment",
                    "dev.ralon.enforcer.mount.StageException", "dev.ralon.enforcer.mount.MountLaunch")) {
                loadOnly(c);
            }
            for (List<String> a : List.of(
                    List.of("check", "--policy", p),
                    List.of("check", "--explain", "--policy", p, dir.resolve("pom.xml").toString()),
                    List.of("status", "--policy", p),
                    List.of("run", "--dry-run", "--backend", BuiltInBackends.LANDLOCK, "--policy", p, "--", "true"),
                    List.of("run", "--dry-run", "--backend", BuiltInBackends.MOUNT, "--policy", p, "--", "true"),
                    List.of("run", "--dry-run", "--policy", p, "--", "true"),
                    List.of("--help"))) {
                try {
                    Ralon.execute(a.toArray(String[]::new), none, none);
                } catch (RuntimeException e) {
                    // training only: a command that fails here still loaded its classes
                }
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        awaitOwnThreads();
        System.exit(0);
    }

    /**
     * Waits (at most 20 s in all) for the threads the commands above left running (BackendSurvey's daemon threads,
     * named {@code ralon-*}: a command does not wait for the surveys it did not need). Without this, which of their
     * classes and lambdas a training run records depended on how far they got before the exit, so two runs gave two
     * class lists; the release build needs one (its archive is reproducible: dist/).
     */
    private static void awaitOwnThreads() {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            long left = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (t != Thread.currentThread() && t.getName().startsWith("ralon-") && left > 0) {
                try {
                    t.join(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static void loadOnly(String className) {
        try {
            Class.forName(className, false, Train.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            // a build without that backend: nothing to load
        }
    }

    /**
     * Copies JNA's dispatch library for this platform (the one JNA would unpack: {@code com/sun/jna/PREFIX/} in the
     * jar) into {@code dir}, which it creates; {@code dir}'s parent must exist. The launcher trusts it as it trusts
     * the executable beside it (docs/security.md).
     *
     * <p>Guaranteed: creates {@code dir} alone, never a parent. The builder runs in the background and can outlive
     * its directory (the user removes the install, a test its temporary directory); a parent missing means exactly
     * that, and then this throws (Train exits non-zero, the builder gives up) rather than bring the tree back.
     *
     * @return whether the library was copied (false: JNA has none for this platform in the jar, and looks elsewhere)
     */
    static boolean extractJnaLibrary(Path dir) throws IOException {
        String name = System.mapLibraryName("jnidispatch");
        String resource = "/com/sun/jna/" + com.sun.jna.Platform.RESOURCE_PREFIX + "/" + name;
        try (java.io.InputStream in = com.sun.jna.Platform.class.getResourceAsStream(resource)) {
            if (in == null) {
                return false;
            }
            Files.createDirectory(dir);
            Files.copy(in, dir.resolve(name));
            return true;
        }
    }
}
