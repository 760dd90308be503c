package dev.ralon.cli;

import picocli.CommandLine.Command;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code ralon apparmor-profile}: prints the AppArmor profile ({@link AppArmorProfile}) for the launcher this JVM was
 * started by, so that the mount backend works where Ubuntu restricts unprivileged user namespaces. Refused (exit 2)
 * when not started by the launcher (there is then no executable to attach it to), and when the launcher could be
 * replaced by anyone but root ({@link AppArmorProfile#replaceableBy}): AppArmor attaches by path, so the profile
 * would grant user namespaces to whatever is put there.
 */
@Command(name = "apparmor-profile", mixinStandardHelpOptions = true,
        description = {"Print the AppArmor profile the mount backend needs on Ubuntu 23.10 and later.",
                "It lets this ralon create its user namespaces where kernel.apparmor_restrict_unprivileged_userns=1.",
                "Install it as root:",
                "  ralon apparmor-profile > /etc/apparmor.d/ralon && apparmor_parser -r /etc/apparmor.d/ralon",
                "It attaches to this launcher's path: make it again after moving the launcher."})
final class AppArmorProfileCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        String launcher = System.getProperty("ralon.launcher");
        if (launcher == null || launcher.isEmpty()) {
            throw CliException.error("apparmor-profile: not started by the ralon launcher, so there is no executable"
                    + " to attach the profile to (run it as `ralon apparmor-profile`)");
        }
        Path real;
        try {
            real = Path.of(launcher).toRealPath();
        } catch (IOException | RuntimeException e) {
            throw CliException.error("apparmor-profile: cannot resolve the launcher's path " + launcher + ": " + e);
        }
        if (!Files.isRegularFile(real)) {
            throw CliException.error("apparmor-profile: the launcher " + real + " is not a file");
        }
        String replaceable;
        try {
            replaceable = AppArmorProfile.replaceableBy(real);
        } catch (IOException | RuntimeException e) {
            throw CliException.error("apparmor-profile: cannot read who may replace " + real + ": " + e);
        }
        if (replaceable != null) {
            throw CliException.error("apparmor-profile: the launcher " + real + " can be replaced by others than root ("
                    + replaceable + "): the profile would grant user namespaces to whatever is put there; install"
                    + " ralon where only root can write (/usr/local/bin, /opt, the .deb) and run it from there");
        }
        String text;
        try {
            text = AppArmorProfile.text(real);
        } catch (IllegalArgumentException e) {
            throw CliException.error("apparmor-profile: " + e.getMessage());
        }
        spec.commandLine().getOut().print(text);
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
