package dev.ralon.cli;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.testsupport.ProcessResult;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The launcher's class-data-sharing archive (ralon.sh): made in the background on first use, mapped afterwards, and a
 * corrupt or foreign archive never changes a run's output or exit code and is replaced.
 */
class CdsE2ETest {
    @TempDir
    Path dir;

    /**
     * A copy of the executable in its own directory: the archive lives beside the executable, in
     * {@code <dir>/.ralon-cds}, never in the user's cache (which a sandboxed agent can usually write).
     */
    Path installed(String binDir) throws Exception {
        String exe = System.getProperty("ralon.executable");
        if (exe == null) {
            fail("system property ralon.executable is not set: run through Maven (mvn verify)");
        }
        Path bin = Files.createDirectories(dir.resolve(binDir));
        Path copy = bin.resolve("ralon");
        if (!Files.exists(copy)) {
            Files.copy(Path.of(exe), copy);
        }
        return copy;
    }

    /** The exit status and both outputs, whatever the pid. */
    static void assertResult(int code, String out, String err, ProcessResult r) {
        assertEquals(new ProcessResult(code, out, err, 0), r.answer());
    }

    ProcessResult ralon(Map<String, String> env, String... args) throws Exception {
        return ralonAt(installed("bin"), env, args);
    }

    ProcessResult ralonAt(Path exe, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(exe.toString()));
        cmd.addAll(List.of(args));
        return TestProcess.of(cmd).in(dir.resolve("p")).without("RALON_CDS").env(env).stdin("").run();
    }

    /** The archive (JDK 17) or AOT cache (25+) the launcher made under {@code cache}, once it is in place. */
    static Optional<Path> archive(Path cache) throws IOException {
        if (!Files.isDirectory(cache)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.walk(cache)) {
            return s.filter(f -> (f.toString().endsWith(".jsa") || f.toString().endsWith(".aot")) && Files.isRegularFile(f)).findFirst();
        } catch (java.io.UncheckedIOException e) { // the builder renamed a temporary directory during the walk: ask again
            return Optional.empty();
        }
    }

    /** {@link #archive(Path)}, waited for up to 180 s; fails the test when none is made. */
    static Path awaitArchive(Path cache) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < end) {
            Optional<Path> a = archive(cache);
            if (a.isPresent()) {
                return a.get();
            }
            Thread.sleep(200);
        }
        return fail("no archive was made under " + cache + " within 180 s");
    }

    @Test
    void archiveIsMadeUsedAndACorruptOneNeverChangesARun() throws Exception {
        Path project = Files.createDirectories(dir.resolve("p"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n");
        Path cache = dir.resolve("bin/.ralon-cds");
        Path userCache = dir.resolve("user-cache");
        Map<String, String> env = Map.of("XDG_CACHE_HOME", userCache.toString());
        ProcessResult first = ralon(env, "check", "pom.xml");
        assertResult(1, "pom.xml\n", "", first);
        Path a = awaitArchive(cache);
        assertTrue(a.startsWith(cache.resolve("cds")), a.toString());
        assertTrue(archive(userCache).isEmpty(), "no archive where a sandboxed agent could plant one (the user's cache)");

        Map<String, String> logged = Map.of("XDG_CACHE_HOME", userCache.toString(),
                "RALON_JAVA_OPTS", "-Xlog:class+load=info:stderr -Xlog:cds=info:stderr -Xlog:class+path=info:stderr");
        ProcessResult shared = ralon(logged, "check", "pom.xml");
        assertEquals(1, shared.code());
        assertTrue(shared.err().contains("dev.ralon.cli.FastParser source: shared objects file"),
                "the archive is not used: " + shared.err().lines().filter(l -> !l.contains("class,load")).toList());

        // everything the start-up paths load comes from the archive (the training run reaches them all): a class
        // read from the jar would mean opening and searching it at every start
        for (List<String> args : List.of(List.of("check", "pom.xml"), List.of("run", "--backend", "noop", "--", "true"),
                List.of("run", "--backend", "landlock", "--", "true"), List.of("run", "--backend", "mount", "--", "true"))) {
            ProcessResult r = ralon(Map.of("XDG_CACHE_HOME", userCache.toString(), "RALON_JAVA_OPTS",
                    "-Xlog:class+load=info:stderr"), args.toArray(String[]::new));
            if ((args.contains("landlock") || args.contains("mount")) && r.code() == 2) {
                continue; // backend unavailable here: its own tests say so loudly; this is about class loading
            }
            // One exception, on a JDK 25+ AOT cache only: picocli's classes are class-file version 49, which the AOT
            // cache's class linking cannot store (the JVM skips them at dump: "Old class has been linked" / "Unlinked
            // class not supported by AOTClassLinking"). The start paths still meet two of them while verifying
            // Ralon's methods that throw them; a CDS archive (JDK 17) holds them, and that case stays strict.
            boolean aot = a.toString().endsWith(".aot");
            List<String> fromJar = r.err().lines().filter(l -> l.contains("source: file:"))
                    .filter(l -> !(aot && (l.contains("] picocli.CommandLine$PicocliException source:")
                            || l.contains("] picocli.CommandLine$ParameterException source:"))))
                    .toList();
            assertEquals(List.of(), fromJar, args + " loaded classes from the jar, not the archive");
        }

        // the JVM writes the archive read-only (0444): only root could write it as it is
        Files.setPosixFilePermissions(a, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Files.write(a, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}); // corrupt: not a CDS archive
        assertResult(1, "pom.xml\n", "", ralon(env, "check", "pom.xml"));
        assertFalse(Files.exists(a), "a rejected archive must be deleted so that a new one is made");
        assertResult(0, "", "", ralon(env, "check", "src/x.java"));
        awaitArchive(cache);

        ProcessResult off = ralonAt(installed("bin-off"), Map.of("RALON_CDS", "0"), "check", "pom.xml");
        assertResult(1, "pom.xml\n", "", off);
        Thread.sleep(500);
        assertFalse(Files.exists(dir.resolve("bin-off/.ralon-cds")), "RALON_CDS=0 must not make an archive");
    }

    /**
     * JNA's native library: copied beside the archive by the same builder and loaded from there, so a run writes no
     * native code into the user's cache (which a sandboxed agent could replace before the next ralon loads it). Without
     * the archive directory (RALON_CDS=0) JNA unpacks it there as before: that is what the first half shows.
     */
    @Test
    void jnaLoadsItsLibraryFromBesideTheExecutableNotFromTheUsersCache() throws Exception {
        Path project = Files.createDirectories(dir.resolve("p"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n");
        Path before = dir.resolve("cache-without");
        ProcessResult unpacked = ralonAt(installed("bin-off"), Map.of("RALON_CDS", "0", "XDG_CACHE_HOME", before.toString(),
                "RALON_JAVA_OPTS", "-Djna.debug_load.jna=true"), "run", "--backend", "noop", "--", "true");
        assertEquals(0, unpacked.code(), unpacked.err());
        // (JNA unlinks the unpacked file once loaded, so its log is what shows it)
        assertTrue(unpacked.err().contains("Extracting library to " + before.resolve("JNA")), "control: without the "
                + "directory beside the executable, JNA unpacks its library into XDG_CACHE_HOME/JNA (else this test "
                + "proves nothing): " + unpacked.err());

        Path cache = dir.resolve("bin/.ralon-cds");
        ralon(Map.of(), "check", "pom.xml");
        Path a = awaitArchive(cache);
        Path lib = Path.of(a + ".jna", System.mapLibraryName("jnidispatch"));
        assertTrue(Files.isRegularFile(lib), "the builder must copy JNA's library beside the archive: " + lib);
        Path after = dir.resolve("cache-with");
        ProcessResult r = ralon(Map.of("XDG_CACHE_HOME", after.toString(), "RALON_JAVA_OPTS", "-Djna.debug_load.jna=true"),
                "run", "--backend", "noop", "--", "true");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("Found jnidispatch at " + lib), r.err());
        assertFalse(r.err().contains("Extracting library"), r.err());
        // (JNA still makes its temp directory there, to clean up files of earlier versions: it writes nothing into it)
        try (Stream<Path> files = Files.exists(after) ? Files.walk(after) : Stream.empty()) {
            // (ralon/sessions/ holds the run's RALON_NOTES file, Ralon's own: not JNA's)
            assertEquals(List.of(), files.filter(Files::isRegularFile)
                    .filter(f -> !f.startsWith(after.resolve("ralon/sessions"))).toList(),
                    "JNA must not unpack anything into the user's cache");
        }
    }

    /**
     * JNA makes its directory under {@code user.home} when XDG_CACHE_HOME is unset (com.sun.jna.Native.getTempDir),
     * and the JVM takes {@code user.home} from the password file, not from $HOME: a run with HOME elsewhere wrote into
     * the password file's home (seen: ~root/.cache/JNA/temp left by the suite on JDK 25, where LocaleE2ETest's
     * {@code env -i HOME=...} was the first start on /usr/bin/java and ran the archive builder). The launcher now gives
     * the JVM {@code user.home} from $HOME; the builder's training loads the JNA library it copies beside the archive
     * (unpacking nothing), and its fallback JNA directory there is removed with its other files.
     */
    @Test
    void nothingIsWrittenIntoAHomeOtherThanHome() throws Exception {
        Path project = Files.createDirectories(dir.resolve("p"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n");
        // a start without the archive (RALON_CDS=0): JNA unpacks its library into $HOME/.cache/JNA
        Path home = Files.createDirectories(dir.resolve("home"));
        ProcessResult unpacked = TestProcess.of(installed("bin-off").toString(), "run", "--backend", "noop", "--", "true")
                .in(project).without("XDG_CACHE_HOME").env(Map.of("HOME", home.toString(), "RALON_CDS", "0",
                        "RALON_JAVA_OPTS", "-Djna.debug_load.jna=true")).stdin("").run();
        assertEquals(0, unpacked.code(), unpacked.err());
        assertTrue(unpacked.err().contains("Extracting library to " + home.resolve(".cache/JNA/temp")),
                "JNA must unpack into $HOME's cache, not the password file's home: " + unpacked.err());

        // the builder, started by a start that loads no native code (check): its training leaves nothing in the
        // user's cache, and nothing of its own beside the archive once it is done
        Path xdg = dir.resolve("xdg-builder");
        Path exe = installed("bin-builder");
        ProcessResult check = ralonAt(exe, Map.of("XDG_CACHE_HOME", xdg.toString()), "check", "pom.xml");
        assertResult(1, "pom.xml\n", "", check);
        Path cache = dir.resolve("bin-builder/.ralon-cds");
        awaitArchive(cache);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!locks(cache).isEmpty()) {
            if (System.nanoTime() > end) {
                fail("the builder did not end within 120 s after its archive appeared");
            }
            Thread.sleep(200);
        }
        assertFalse(Files.exists(xdg.resolve("JNA")), "the builder's training unpacked JNA into the user's cache");
        try (Stream<Path> s = Files.walk(cache)) {
            assertEquals(List.of(), s.filter(f -> f.getFileName().toString().contains("jnatmp")).toList(),
                    "the training's JNA directory is removed");
        }
    }

    /**
     * A .ralon-cds that another user could have planted or could change is never used (nor changed): one that belongs
     * to another user; one with a directory on the way that group or others can write; one that is a symbolic link
     * (whose owner could retarget it after the check: found by an attacker's review). After each, the same directory
     * as its owner left it is used again: the control.
     */
    @Test
    void aRalonCdsDirectoryOthersCouldChangeIsIgnored() throws Exception {
        dev.ralon.testsupport.Requirements.requireRoot("this test gives the directory to uid 65534 with chown");
        Path project = Files.createDirectories(dir.resolve("p"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n");
        Path exe = installed("bin-shared");
        ralonAt(exe, Map.of(), "check", "pom.xml");
        Path cache = dir.resolve("bin-shared/.ralon-cds");
        Path a = awaitArchive(cache);
        Path moved = dir.resolve("elsewhere");
        Map<String, String> logged = Map.of("XDG_CACHE_HOME", dir.resolve("xc").toString(),
                "RALON_JAVA_OPTS", "-Xlog:class+load=info:stderr -Djna.debug_load.jna=true");
        List<List<String>> spoil = List.of(
                List.of("chown", "-R", "65534:65534", cache.toString()),
                List.of("chmod", "g+w", cache.resolve("cds").toString()),
                List.of("sh", "-c", "mv \"$0\" \"$1\" && ln -s \"$1\" \"$0\"", cache.toString(), moved.toString()));
        List<List<String>> restore = List.of(
                List.of("chown", "-R", "0:0", cache.toString()),
                List.of("chmod", "g-w", cache.resolve("cds").toString()),
                List.of("sh", "-c", "rm \"$0\" && mv \"$1\" \"$0\"", cache.toString(), moved.toString()));
        for (int i = 0; i < spoil.size(); i++) {
            for (boolean spoiled : List.of(true, false)) {
                List<String> cmd = spoiled ? spoil.get(i) : restore.get(i);
                ProcessResult step = TestProcess.of(cmd).mergeStderr().stdin("").timeout(30).run();
                assertEquals(0, step.code(), cmd + ": " + step.out());
                ProcessResult r = ralonAt(exe, logged, "run", "--backend", "noop", "--", "true");
                assertEquals(0, r.code(), r.err());
                String what = spoiled ? "after " + cmd + " it must not be used" : "control: after " + cmd + " it is used";
                assertEquals(!spoiled, r.err().contains("dev.ralon.cli.FastParser source: shared objects file"),
                        "archive, " + what);
                assertEquals(!spoiled, r.err().contains("Found jnidispatch at " + a + ".jna"), "library, " + what);
                assertTrue(Files.isRegularFile(spoiled && i == 2 ? moved.resolve(cache.relativize(a)) : a),
                        "the directory is left as it is");
            }
        }
    }

    @Test
    void foreignArchiveIsIgnoredSilentlyAndReplaced() throws Exception {
        Path project = Files.createDirectories(dir.resolve("p"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n");
        Path cache = dir.resolve("bin/.ralon-cds");
        Map<String, String> env = Map.of();
        ralon(env, "check", "pom.xml");
        Path a = awaitArchive(cache);
        // a valid archive of the same JDK that records another class path (a copy of the executable elsewhere):
        // HotSpot must refuse it for this executable
        Path copy = Files.copy(Path.of(System.getProperty("ralon.executable")), dir.resolve("other-ralon"));
        Files.delete(a);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path list = dir.resolve("classes.lst");
        for (List<String> step : List.of(
                List.of(java, "-Xshare:off", "-XX:DumpLoadedClassList=" + list, "-cp", copy.toString(), "dev.ralon.cli.Train"),
                List.of(java, "-Xshare:dump", "-XX:SharedClassListFile=" + list, "-XX:SharedArchiveFile=" + a,
                        "-cp", copy.toString()))) {
            ProcessResult dump = TestProcess.of(step).mergeStderr().stdin("").timeout(120).run();
            assertEquals(0, dump.code(), dump.out());
        }
        assertTrue(Files.size(a) > 1_000_000, "dump made no archive");
        assertResult(1, "pom.xml\n", "", ralon(env, "check", "pom.xml"));
        assertFalse(Files.exists(a), "a foreign archive must be deleted so that a new one is made");
        assertResult(0, "", "", ralon(env, "check", "x.java"));
        awaitArchive(cache);
    }

    /**
     * The builder works in its cache directory, not in the caller's: a JVM that crashes there writes
     * hs_err_pid&lt;pid&gt;.log (and a core file) into its working directory, as Temurin 25.0.3's AOT assembly was seen to.
     * The builder's java is a stand-in that does just that for both routes (the AOT cache, then the CDS class list);
     * the project the command ran in gets nothing, the command's own answer is unchanged, and no archive is made.
     */
    @Test
    void aCrashingArchiveBuilderLeavesNothingInTheProject() throws Exception {
        Path project = Files.createDirectories(dir.resolve("p"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n");
        Path java = Files.createDirectories(dir.resolve("jdk/bin")).resolve("java");
        Path ran = dir.resolve("builder-ran");
        String real = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(java, "#!/bin/sh\n"
                + "case \"$*\" in *AOTCacheOutput*|*DumpLoadedClassList*)\n"
                + "  pwd >> '" + ran + "'\n"
                + "  echo '# A fatal error has been detected by the Java Runtime Environment' > hs_err_pid$$.log\n"
                + "  exit 134 ;;\n"
                + "esac\n"
                + "exec '" + real + "' \"$@\"\n");
        assertTrue(java.toFile().setExecutable(true));
        ProcessResult r = ralon(Map.of("RALON_JAVA", java.toString()), "check", "pom.xml");
        assertResult(1, "pom.xml\n", "", r);
        Path cache = dir.resolve("bin/.ralon-cds");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(ran) && Files.readAllLines(ran).size() == 2 && locks(cache).isEmpty())) {
            if (System.nanoTime() > end) {
                fail("the builder did not try both routes and finish within 60 s: " + (Files.exists(ran)
                        ? Files.readAllLines(ran) : "never started") + ", locks " + locks(cache));
            }
            Thread.sleep(100);
        }
        try (Stream<Path> s = Files.list(project)) {
            assertEquals(List.of(project.resolve("agent.lock")), s.toList(), "the builder wrote into the project");
        }
        for (String where : Files.readAllLines(ran)) {
            assertTrue(Path.of(where).startsWith(cache.toRealPath()), "the builder ran in " + where);
        }
        assertFalse(archive(cache).isPresent(), "no archive was to be made");

        // said once in status, naming the file that says why; not tried again at every start
        ProcessResult status = ralon(Map.of("RALON_JAVA", java.toString()), "status");
        assertEquals(0, status.code(), status.toString());
        List<String> said = status.out().lines().filter(l -> l.startsWith("start-up archive:")).toList();
        assertEquals(1, said.size(), status.out());
        assertTrue(said.get(0).contains("the last attempt to make it failed") && said.get(0).contains(".failed says why"),
                said.get(0));
        Path failed = Path.of(said.get(0).replaceAll(".*failed \\((\\S+) says why.*", "$1"));
        assertTrue(failed.startsWith(cache) && Files.isRegularFile(failed), failed.toString());
        Thread.sleep(1000);
        assertEquals(2, Files.readAllLines(ran).size(), "a failed build is not tried again at the next start");
    }

    /**
     * Starts that go without the archive for a reason the user can act on say so in one line of {@code status}: a
     * directory the user cannot create it in (a root-owned install run by uid 65534), and one the trust check refuses
     * (group-writable); {@code status --verbose} says it is in use once it is; RALON_CDS=0 is the user's own choice
     * and adds no line.
     */
    @Test
    void statusSaysWhyStartsGoWithoutTheArchive() throws Exception {
        dev.ralon.testsupport.Requirements.requireRoot("the unwritable case runs a root-owned install as uid 65534");
        try (AsUser u = new AsUser(65534)) {
            Path project = Files.createDirectories(u.base.resolve("p"));
            Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n");
            u.handOver();
            Path rootBin = Files.createDirectories(u.base.resolve("root-bin")); // root's, 0755 (AsUser's umask)
            Files.setPosixFilePermissions(rootBin, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            Path exe = Files.copy(Path.of(System.getProperty("ralon.executable")), rootBin.resolve("ralon"));
            ProcessResult r = CliE2ETest.exec(project, null, u.env(Map.of()), "setpriv", "--reuid=65534",
                    "--regid=65534", "--clear-groups", exe.toString(), "status");
            assertEquals(0, r.code(), r.toString());
            assertEquals(List.of("start-up archive: none: " + rootBin.resolve(".ralon-cds") + " cannot be created beside"
                    + " the executable (not writable by you): each start takes about twice as long; for an install all"
                    + " users share, run `sudo ralon status` once and wait ~20 s"),
                    r.out().lines().filter(l -> l.startsWith("start-up archive:")).toList(), r.out());
            assertFalse(Files.exists(rootBin.resolve(".ralon-cds")));
        }
        Path project = Files.createDirectories(dir.resolve("p"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n");
        ralon(Map.of(), "check", "pom.xml");
        Path cache = dir.resolve("bin/.ralon-cds");
        awaitArchive(cache);
        ProcessResult used = ralon(Map.of(), "status", "--verbose");
        assertTrue(used.out().lines().anyMatch(l -> l.startsWith("start-up archive: in use (" + cache)), used.out());
        assertFalse(ralon(Map.of(), "status").out().contains("start-up archive"), "nothing to say when it is used");
        assertFalse(ralon(Map.of("RALON_CDS", "0"), "status").out().contains("start-up archive"),
                "RALON_CDS=0 is the user's choice");
        Files.setPosixFilePermissions(cache.resolve("cds"),
                java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxr-x"));
        ProcessResult refused = ralon(Map.of(), "status");
        assertEquals(List.of("start-up archive: not used: " + cache + ", or a file or directory in it, is a symbolic"
                + " link, belongs to neither you nor root, or is writable by others (docs/security.md): each start takes"
                + " about twice as long"), refused.out().lines().filter(l -> l.startsWith("start-up archive:")).toList(),
                refused.out());
    }

    /**
     * A builder whose directory is removed while it runs (the user deletes the install, or a test its temporary
     * directory, while the background builder trains) recreates nothing: it creates every file and directory inside
     * the archive's directory, which must still be there, never a path with its parents. Seen on CI: JNA makes its
     * {@code jna.tmpdir} with mkdirs and Train made its JNA directory with createDirectories, so a builder that
     * outlived AppArmorProfileE2ETest's temporary directory brought the whole chain back and the suite's leftovers
     * guard failed. The builder's java here removes {@code .ralon-cds} just before each training starts, which makes
     * that race certain; it then starts the JVM from a scratch directory, since a JVM cannot start in a removed one
     * (the removal this stands for comes after the JVM started), and that directory must stay empty too.
     */
    @Test
    void aBuilderWhoseDirectoryWasRemovedRecreatesNothing() throws Exception {
        Path project = Files.createDirectories(dir.resolve("p"));
        Files.writeString(project.resolve("agent.lock"), "version: 1\nprotect:\n  - pom.xml\n");
        Path cache = dir.resolve("bin/.ralon-cds");
        Path java = Files.createDirectories(dir.resolve("jdk-remover/bin")).resolve("java");
        Path ran = dir.resolve("trainings");
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        String real = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(java, "#!/bin/sh\n"
                + "case \" $* \" in *\" dev.ralon.cli.Train \"*)\n"
                + "  rm -rf '" + cache + "'\n"
                + "  cd '" + scratch + "' || exit 1\n"
                + "  echo train >> '" + ran + "' ;;\n"
                + "esac\n"
                + "exec '" + real + "' \"$@\"\n");
        assertTrue(java.toFile().setExecutable(true));
        ProcessResult r = ralon(Map.of("RALON_JAVA", java.toString()), "check", "pom.xml");
        assertResult(1, "pom.xml\n", "", r);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!Files.exists(ran) || runningWith(java)) { // the builder's sh names its java among its arguments
            if (System.nanoTime() > end) {
                fail("the builder did not start and finish within 180 s: " + (Files.exists(ran)
                        ? Files.readAllLines(ran) : "no training started"));
            }
            Thread.sleep(100);
        }
        if (Files.exists(cache)) {
            try (Stream<Path> s = Files.walk(cache)) {
                List<Path> back = s.toList();
                fail("the builder recreated the directory removed under it: " + back.size() + " entries, the last "
                        + cache.relativize(back.get(back.size() - 1)));
            }
        }
        try (Stream<Path> s = Files.list(scratch)) {
            assertEquals(List.of(), s.toList(), "the training wrote into its working directory");
        }
    }

    /** Whether a process of this user has {@code path} among its arguments. */
    private static boolean runningWith(Path path) {
        return ProcessHandle.allProcesses().anyMatch(p -> p.info().arguments()
                .map(a -> List.of(a).contains(path.toString())).orElse(false));
    }

    List<Path> locks(Path cache) throws Exception {
        if (!Files.isDirectory(cache)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(cache)) {
            return s.filter(f -> f.toString().endsWith(".lock")).toList();
        } catch (java.io.UncheckedIOException e) { // a rename during the walk: not finished yet
            return List.of(cache);
        }
    }
}
