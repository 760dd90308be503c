package dev.ralon.cli;

/**
 * The launcher's entry point, compiled for Java 8 (class file 52) so that any JVM from 8 on can load it: on a JVM
 * older than Ralon's Java 17 it prints one {@code ralon:} line naming the JVM and how to choose another, and exits 2
 * (also the refusal code of every supported agent's hook), instead of the JVM's UnsupportedClassVersionError trace
 * with status 1. On 17 and later it hands over to {@link Main} at once: one small class more on the start-up path,
 * no reflection. Compiled with {@code -source 8 -target 8} (not {@code --release 8}) so that it may name Main, whose
 * class file is newer (cli/pom.xml).
 */
public final class Boot {
    private Boot() {
    }

    public static void main(String[] args) {
        String refusal = refusal(System.getProperty("java.specification.version", ""),
                System.getProperty("java.home", "?"), System.getProperty("ralon.launcher.hook") != null);
        if (refusal != null) {
            System.err.println(refusal);
            System.exit(2);
        }
        Main.main(args);
    }

    /**
     * The line to print for a JVM of specification version {@code spec} ("1.8", "11", "17", …) at {@code home}, or
     * null when it can run Ralon. An unknown form is let through: the JVM then says itself what it cannot load.
     */
    static String refusal(String spec, String home, boolean hook) {
        int major;
        try {
            major = Integer.parseInt(spec.startsWith("1.") ? spec.substring(2) : spec);
        } catch (NumberFormatException e) {
            return null;
        }
        if (major >= 17) {
            return null;
        }
        String why = "Java " + spec + " at " + home + " is older than 17";
        String fix = "set JAVA_HOME to a JDK 17 or later, or RALON_JAVA to its bin/java";
        return hook ? "ralon: cannot run Java (" + why + "); refusing the tool call to stay safe (" + fix + ")"
                : "ralon: cannot run Java: " + why + "; " + fix;
    }
}
