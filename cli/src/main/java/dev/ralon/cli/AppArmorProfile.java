package dev.ralon.cli;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The AppArmor profile that lets Ralon's launcher create its user namespaces where Ubuntu 23.10 and later set
 * {@code kernel.apparmor_restrict_unprivileged_userns=1} (docs/backend-mount.md, "Ubuntu's user-namespace
 * restriction").
 *
 * <p>Kernel and AppArmor facts it rests on. With that sysctl set, an unconfined task that creates a user namespace
 * keeps no capabilities in it (it is moved to the {@code unprivileged_userns} profile, which denies them), so the
 * launcher's {@code unshare --user --map-root-user --mount} cannot set up its mounts; a task under a profile with the
 * {@code userns} rule is not restricted (security/apparmor/lsm.c, {@code apparmor_userns_create}). A profile in
 * {@code unconfined} mode enforces nothing else, and on exec of a program no other profile attaches to, the task stays
 * in it (security/apparmor/domain.c, {@code profile_transition}): the {@code unshare} the launcher execs, the JVM and
 * the nested {@code unshare} of the mount backend keep the rule. It is the shape AppArmor 4.1 ships for other tools that
 * need namespaces ({@code buildah}, {@code ch-run}, {@code lxc-unshare}). A profile attaches by the path of the file
 * executed, for a script its own path (apparmor.d(5)), so the attachment is the launcher's real path, links resolved.
 *
 * <p>What it grants, stated: every process started through that launcher, the agent included, may create user
 * namespaces as on a system without the restriction. The mount backend's guarantees do not rest on AppArmor: its
 * namespaces are locked, and the conformance kit's {@code userns-*} attacks, made from a nested namespace inside the
 * sandbox, are refused by them.
 */
final class AppArmorProfile {
    /** The profile's name; also the file name under /etc/apparmor.d. */
    static final String NAME = "ralon";

    private AppArmorProfile() {
    }

    /**
     * {@code AppArmorProfile PATH}: prints {@link #text} for PATH, an install's path that does not exist yet. For the
     * release build only (dist/): the .deb ships the profile for /usr/lib/ralon/bin/ralon, a directory only root can
     * write once installed; {@code ralon apparmor-profile} is the command for a launcher that exists.
     */
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: AppArmorProfile ABSOLUTE_PATH");
            System.exit(2);
        }
        System.out.print(text(Path.of(args[0])));
    }

    /** The profile attaching to {@code launcher}, an absolute path without links. */
    static String text(Path launcher) {
        if (!launcher.isAbsolute()) {
            throw new IllegalArgumentException("not an absolute path: " + launcher);
        }
        return "# Lets Ralon's launcher create the user namespaces of its mount backend where\n"
                + "# kernel.apparmor_restrict_unprivileged_userns=1 (Ubuntu 23.10 and later).\n"
                + "# Made by `ralon apparmor-profile` for the launcher at " + launcher.toString().replace('\n', '?')
                + ".\n"
                + "# Install: save as /etc/apparmor.d/" + NAME + ", then: sudo apparmor_parser -r /etc/apparmor.d/"
                + NAME + "\n"
                + "# Every process started through this launcher may create user namespaces, as without the\n"
                + "# restriction; see docs/backend-mount.md in Ralon's sources.\n"
                + "\n"
                + "abi <abi/4.0>,\n"
                + "include <tunables/global>\n"
                + "\n"
                + "profile " + NAME + " " + quoted(launcher.toString()) + " flags=(unconfined) {\n"
                + "  userns,\n"
                + "\n"
                + "  # Site-specific additions and overrides. See local/README for details.\n"
                + "  include if exists <local/" + NAME + ">\n"
                + "}\n";
    }

    /**
     * Why {@code launcher} (a real path) could be replaced by a user other than root, or null when it cannot: the file
     * and every directory above it must belong to root and be writable by nobody else, except a sticky directory
     * (/tmp) whose next entry belongs to root (chmod(2): in a sticky directory only the owner of an entry may rename
     * or remove it). The rule sshd's StrictModes applies to its key files, for the same reason: a profile attaches by
     * path (apparmor.d(5)).
     */
    static String replaceableBy(Path launcher) throws java.io.IOException {
        // walked from the file up: when a directory is reached, the entry below it was found to belong to root
        for (Path p = launcher; p != null; p = p.getParent()) {
            int uid = (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            int mode = (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            if (uid != 0) {
                return p + " belongs to uid " + uid;
            }
            boolean stickyDirectory = !p.equals(launcher) && (mode & 01000) != 0;
            if ((mode & 022) != 0 && !stickyDirectory) {
                return p + " is writable by its group or by everyone (mode " + Integer.toOctalString(mode & 07777) + ")";
            }
        }
        return null;
    }

    /**
     * {@code path} as an AppArmor attachment that matches exactly that path: in double quotes, with the characters
     * AppArmor reads as globbing or escapes ({@code * ? [ ] { } ^ " \}) and its variable marker ({@code @}) escaped by a
     * backslash (apparmor.d(5), "Globbing"). A control character cannot be written in a profile: refused.
     */
    static String quoted(String path) {
        StringBuilder s = new StringBuilder("\"");
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new IllegalArgumentException("a control character in the launcher's path: " + path);
            }
            if ("*?[]{}^\"\\@".indexOf(c) >= 0) {
                s.append('\\');
            }
            s.append(c);
        }
        return s.append('"').toString();
    }
}
