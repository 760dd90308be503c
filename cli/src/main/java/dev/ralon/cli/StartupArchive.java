package dev.ralon.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What became of the start-up archive at this start (README, "Start-up time"), as the launcher tells it in
 * {@code ralon.cds.state} (and {@code ralon.cds.where}: cli/src/main/launcher/ralon.sh, {@code ralon_cds_state}), checked
 * against what the JVM did ({@code java.vm.info} says "sharing" when it mapped one): {@code ralon status} says in one
 * line when starts go without it for a reason the user can act on, never silently. Guaranteed: no line when the
 * archive was used, turned off by the user ({@code RALON_CDS=0}), is being made, or when the JVM was not started by the
 * launcher (no property: nothing is known).
 */
final class StartupArchive {
    private StartupArchive() {
    }

    /** The launcher's word for this start, or null when the JVM was not started by the launcher. */
    static String state() {
        String s = System.getProperty("ralon.cds.state");
        if ("used".equals(s) && !System.getProperty("java.vm.info", "").contains("sharing")) {
            return "unmapped"; // named and passed, but the JVM did not map it
        }
        return s;
    }

    /** The status line for this start ({@code verbose}: also for the states that need no act), or null. */
    static String line(boolean verbose) {
        String state = state();
        String where = System.getProperty("ralon.cds.where", "");
        String slower = ": each start takes about twice as long";
        String text = state == null ? null : switch (state) {
            case "unwritable" -> "none: " + where + " cannot be created beside the executable (not writable by you)"
                    + slower + "; for an install all users share, run `sudo ralon status` once and wait ~20 s";
            case "untrusted" -> "not used: " + where + ", or a file or directory in it, is a symbolic link, belongs to"
                    + " neither you nor root, or is writable by others (docs/security.md)" + slower;
            case "unplain" -> "none: the path of the executable or of its java holds a space or a special character"
                    + slower;
            case "failed" -> "none: the last attempt to make it failed (" + where + " says why; tried again a day"
                    + " later, or when that file is removed)" + slower;
            case "unmapped" -> "not mapped by the JVM: " + System.getProperty("ralon.cds.archive", "?")
                    + (System.getProperty("ralon.cds.archive", "").contains("/.ralon-cds/")
                    ? " was made for another build or Java (made again at the next start)"
                    : " (a release's: bin/ralon's file time is not the one it was made with, as after `npm install"
                    + " --ignore-scripts`; reinstall)") + slower;
            case "used" -> verbose ? "in use (" + System.getProperty("ralon.cds.archive", "?") + ")" : null;
            case "building" -> verbose ? "being made by a first start (used from the next one)" : null;
            case "off" -> verbose ? "off (RALON_CDS=0)" : null;
            default -> verbose ? state : null;
        };
        return text == null ? null : "start-up archive: " + text;
    }

    /** The state as JSON ({@code status --json}: docs/json.md), or null when not started by the launcher. */
    static Map<String, Object> json() {
        String state = state();
        if (state == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("state", state);
        m.put("line", line(true));
        return m;
    }
}
