package dev.ralon.conformance;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import dev.ralon.testsupport.ProcessResult;
import dev.ralon.testsupport.TestProcess;

/**
 * What makes the kit's short-lived JVMs (each attack program, each {@code ralon run} the kit starts, the helpers) start
 * cheaply: a class-data-sharing archive of the kit's class path and JNA's native library unpacked once, both in the
 * directory of the class path's readable copy ({@link KitHost#readableClasspath}). A kit execution starts hundreds of
 * such JVMs; without the archive each one reads and verifies JNA's, the kit's and ralon's classes from the jars, and
 * JNA unpacks its library into the run's temporary directory at every start (measured: an attack program's JVM 0.148 s
 * of CPU, 0.087 s with both; docs/performance.md, "The test suite").
 *
 * <p>Contract: {@link #options} is empty when either could not be made (the JVMs then start as before: the archive is
 * a speed-up, never a condition of a verdict); the reason is printed on the console once. What an attack does, and
 * how its result is judged, does not depend on where its classes come from.
 *
 * <p>JVM facts relied on: {@code -Xshare:dump} archives only classes loaded from jar files, so the class path's
 * directories are copied as jars ({@link #jarOf}); with {@code -Xshare:auto} a JVM whose class path does not start with
 * the archive's, or whose jars changed since, ignores the archive and loads from the jars (the JDK's CDS documentation,
 * "Application Class-Data Sharing"); {@code -Xlog:cds*=off} keeps the JDK's report of such a mismatch off stdout, which
 * the kit reads. JNA looks for {@code libjnidispatch.so} in {@code jna.boot.library.path} before unpacking its own
 * (com.sun.jna.Native#loadNativeDispatchLibrary).
 */
final class KitJvms {
    private KitJvms() {
    }

    /** How long each JVM of the archive's making may take. */
    static final int MAKE_SECONDS = 120;

    /**
     * The options for the kit's JVMs on {@code classpath} (the copied jars), with the archive and JNA's library made in
     * {@code dir}; empty when they cannot be made.
     */
    static List<String> options(Path dir, String classpath) {
        try {
            unpackJna(dir, classpath);
            Path archive = archive(dir, classpath);
            System.out.println("[kit] the kit's JVMs start from a class-data archive (" + archive + ")");
            return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off",
                    "-Djna.boot.library.path=" + dir.resolve("jna"));
        } catch (IOException | RuntimeException | AssertionError e) {
            // AssertionError: test-support's bound on a child process (it fails the test it serves): here it only
            // means no archive
            System.out.println("[kit] the kit's JVMs start without a class-data archive: " + e.getMessage());
            return List.of();
        }
    }

    /** A jar at {@code jar} holding the files of {@code dir} (its resources and classes, paths relative to it). */
    static void jarOf(Path dir, Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar);
             JarOutputStream j = new JarOutputStream(out);
             Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                if (f.equals(dir)) {
                    continue;
                }
                String name = dir.relativize(f).toString().replace('\\', '/');
                boolean directory = Files.isDirectory(f);
                j.putNextEntry(new JarEntry(directory ? name + "/" : name));
                if (!directory) {
                    Files.copy(f, j);
                }
                j.closeEntry();
            }
        }
    }

    /** JNA's library for this platform, copied out of the JNA jar on {@code classpath}. */
    private static void unpackJna(Path dir, String classpath) throws IOException {
        String entry = "com/sun/jna/" + com.sun.jna.Platform.RESOURCE_PREFIX + "/libjnidispatch.so";
        for (String e : classpath.split(java.io.File.pathSeparator)) {
            if (!e.endsWith(".jar")) {
                continue;
            }
            try (JarFile jar = new JarFile(e)) {
                JarEntry lib = jar.getJarEntry(entry);
                if (lib == null) {
                    continue;
                }
                Path libDir = Files.createDirectories(dir.resolve("jna"));
                Path out = libDir.resolve("libjnidispatch.so");
                try (InputStream in = jar.getInputStream(lib)) {
                    Files.copy(in, out);
                }
                return;
            }
        }
        throw new IOException("no " + entry + " on the kit's class path");
    }

    /**
     * The archive: the classes an attack program and ralon's run load (three runs with
     * {@code -XX:DumpLoadedClassList}), dumped with {@code -Xshare:dump}. The runs that
     * list ralon's classes end without an exec (a JVM that execs never writes its list): a dry run, and a run whose
     * command does not exist, which goes through the policy, discovery, the probes and the plan first.
     */
    private static Path archive(Path dir, String classpath) throws IOException {
        Path work = Files.createDirectories(dir.resolve("archive-work"));
        Path project = Files.createDirectories(work.resolve("project"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - target.txt\n");
        Files.writeString(project.resolve("target.txt"), "kept\n");
        Path file = work.resolve("file.txt");
        Files.writeString(file, "x\n");
        Set<String> classes = new LinkedHashSet<>();
        // an attack program: JNA, the library interface, a system call (open O_RDONLY|O_TRUNC of a file of its own)
        listed(classpath, work, project, classes, "dev.ralon.conformance.attack.AttackProgram", "otrunc", "archive",
                file.toString(), work.resolve("other").toString());
        listed(classpath, work, project, classes, KitRun.MAIN, "run", "--write-anywhere", "--backend", "noop",
                "--dry-run", "--", "/bin/true");
        listed(classpath, work, project, classes, KitRun.MAIN, "run", "--write-anywhere", "--backend", "noop", "--",
                work.resolve("no-such-command").toString());
        Path list = work.resolve("classes.txt");
        Files.write(list, classes, StandardCharsets.UTF_8);
        Path archive = dir.resolve("kit.jsa");
        ProcessResult dump = TestProcess.of(TestProcess.java(), "-XX:+UseSerialGC", "-Xshare:dump",
                "-XX:SharedClassListFile=" + list, "-XX:SharedArchiveFile=" + archive, "-cp", classpath)
                .mergeStderr().stdin("").timeout(MAKE_SECONDS).run();
        KitHost.run(List.of("rm", "-rf", "--one-file-system", work.toString()), 60);
        if (dump.code() != 0 || !Files.isRegularFile(archive)) {
            throw new IOException("-Xshare:dump exited with " + dump.code() + ": " + lastLine(dump.out()));
        }
        return archive;
    }

    /** Runs {@code main args} on {@code classpath} in {@code cwd}, adding the classes it loaded to {@code classes}. */
    private static void listed(String classpath, Path work, Path cwd, Set<String> classes, String main, String... args)
            throws IOException {
        Path list = work.resolve("list.txt");
        Files.createDirectories(work.resolve("tmp"));
        // the kit's own JVM command (AttackScript.javaCommand: its options, temporary directories under work/tmp), so
        // that the list is what the kit's JVMs load
        List<String> cmd = new ArrayList<>(AttackScript.javaCommand(work, main));
        cmd.set(cmd.indexOf("@CP@"), classpath);
        cmd.add(1, "-XX:DumpLoadedClassList=" + list);
        cmd.addAll(List.of(args));
        // its exit status is not asked: a run refused or failing after loading its classes serves as well
        ProcessResult r = TestProcess.of(cmd).in(cwd).env("GIT_CONFIG_NOSYSTEM", "1").mergeStderr().stdin("")
                .timeout(MAKE_SECONDS).run();
        // the list names each class by its internal name (JDK 17), then " id: N" (JDK 25; DumpLoadedClassList); a
        // JVM that could not load main lists only the JDK's classes
        String mainName = main.replace('.', '/');
        List<String> lines = Files.isRegularFile(list) ? Files.readAllLines(list, StandardCharsets.UTF_8) : List.of();
        if (lines.stream().noneMatch(l -> l.equals(mainName) || l.startsWith(mainName + " "))) {
            throw new IOException("listing the classes of " + main + " did not load it (exit " + r.code() + ": "
                    + lastLine(r.out()) + ")");
        }
        // merged lists keep each class's name only: JDK 25 numbers the classes of a list ("NAME id: N"), and the
        // numbers of two lists clash ("class list format error"); the "@" lines (lambda proxies, constant-pool
        // hints) name classes, not numbers, and are kept as they are; "#" lines are comments
        for (String l : lines) {
            if (!l.isEmpty() && !l.startsWith("#")) {
                classes.add(l.startsWith("@") ? l : l.split(" ", 2)[0]);
            }
        }
        Files.deleteIfExists(list);
    }

    private static String lastLine(String text) {
        String t = text.strip();
        return t.substring(t.lastIndexOf('\n') + 1);
    }
}
