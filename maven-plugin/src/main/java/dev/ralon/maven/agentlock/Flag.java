package dev.ralon.maven.agentlock;

import java.util.Locale;
import org.apache.maven.plugin.MojoExecutionException;

/**
 * Strict parsing of the plugin's on/off parameters. Maven's own conversion of a {@code boolean} parameter is
 * {@link Boolean#parseBoolean}, which reads every typo ({@code -Dagentlock.failOnUnmatched=yes}, {@code =ture}) as
 * {@code false}: a guard that silently switches itself off. The parameters are therefore declared as strings and read
 * here: {@code true} or {@code false} (any case, surrounding blanks ignored), anything else a configuration error.
 */
final class Flag {

    private Flag() {}

    static boolean parse(String property, String value) throws MojoExecutionException {
        String v = value == null ? "false" : value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new MojoExecutionException(
                    property + " is \"" + value + "\"; expected true or false");
        };
    }
}
