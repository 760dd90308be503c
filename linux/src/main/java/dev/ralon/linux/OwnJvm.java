package dev.ralon.linux;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a second JVM that runs Ralon's own code beside this one (the mount backend's stage, the landlock
 * broker), started the way the launcher starts this one, so that it starts as fast: the launcher's JVM options
 * ({@code ralon_vm} in cli/src/main/launcher/ralon.sh, which the class-data archive or AOT cache was made with), the
 * launcher's archive when this JVM mapped it (same class path, so the second JVM maps it too), JNA's properties (where
 * it unpacks and finds its library, and no {@code /sbin/ldconfig -p} fork), and an absolute class path.
 *
 * <p>Guaranteed: JVM warnings go to stderr, never into the command's stdout; an archive the second JVM cannot use is
 * ignored silently (it starts without it, slower), never a failure.
 */
public final class OwnJvm {
    /**
     * JVM options: {@code ralon_vm} of the launcher, then its logging options (the JVM's report of an archive it could
     * not use is off).
     */
    static final List<String> JVM_OPTIONS = List.of(
            "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-MaxFDLimit", "-XX:-UsePerfData", "-Xss1m",
            "-XX:+DisableAttachMechanism", "-Xlog:disable", "-Xlog:all=warning:stderr", "-Xlog:cds*=off:stderr");
    /** The launcher's class-data-sharing archive (a system property it sets only when it passes one). */
    public static final String CDS_ARCHIVE_PROPERTY = "ralon.cds.archive";
    /**
     * System properties of this JVM passed on (where JNA unpacks and finds its library; user.home, which the launcher
     * sets from $HOME and from which JNA makes its cache directory when XDG_CACHE_HOME is unset).
     */
    static final List<String> PROPERTIES = List.of("jna.tmpdir", "java.io.tmpdir", "jna.boot.library.path",
            "jna.nosys", "jna.nounpack", "jna.library.path", "jna.platform.library.path", "user.home");

    private OwnJvm() {
    }

    /** {@code java OPTIONS -cp CLASSPATH mainClass}: this JVM's own java and class path. */
    public static List<String> command(String mainClass) {
        List<String> argv = new ArrayList<>();
        argv.add(java().toString());
        argv.addAll(JVM_OPTIONS);
        String archive = System.getProperty(CDS_ARCHIVE_PROPERTY);
        if (archive != null && System.getProperty("java.vm.info", "").contains("sharing")) {
            // The launcher's archive, which this JVM mapped: the second JVM runs the same jar (same class path,
            // below), so it maps it too (docs/performance.md). -Xshare:auto: were it unusable, it runs without it. On
            // JDK 25+ it is an AOT cache (.aot, see ralon.sh), whose report of a mismatch is silenced as the launcher
            // does. -Xshare:auto is refused beside -XX:AOTCache (whose default AOTMode=auto is the same rule).
            if (archive.endsWith(".aot")) {
                argv.add("-XX:AOTCache=" + archive);
                argv.add("-Xlog:aot*=off:stderr");
            } else {
                argv.add("-Xshare:auto");
                argv.add("-XX:SharedArchiveFile=" + archive);
            }
        } else {
            argv.add("-Xshare:auto");
        }
        if (Runtime.version().feature() >= 22) {
            // JEP 454 (Java 22+) warns on stderr when JNA calls System.load without this; Java 17 rejects the option.
            argv.add("--enable-native-access=ALL-UNNAMED");
        }
        for (String prop : PROPERTIES) {
            String v = System.getProperty(prop);
            if (v != null) {
                argv.add("-D" + prop + "=" + v);
            }
        }
        // JNA's NativeLibrary class initialiser forks "/sbin/ldconfig -p" to build a library search path unless
        // jna.platform.library.path is set (measured: one fork+exec, 30-300 ms of a start). Ralon's code only loads
        // libc, which JNA opens as libc.so.6 through the dynamic loader without that search path.
        if (System.getProperty("jna.platform.library.path") == null) {
            argv.add("-Djna.platform.library.path=/lib:/usr/lib");
        }
        argv.add("-cp");
        argv.add(absoluteClasspath(System.getProperty("java.class.path")));
        argv.add(mainClass);
        return argv;
    }

    /** This JVM's own {@code bin/java}. */
    public static Path java() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    private static String absoluteClasspath(String cp) {
        List<String> out = new ArrayList<>();
        for (String entry : cp.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                out.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return String.join(File.pathSeparator, out);
    }
}
