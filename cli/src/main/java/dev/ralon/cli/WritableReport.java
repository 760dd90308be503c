package dev.ralon.cli;

import dev.ralon.enforcer.spi.Confinement;
import dev.ralon.host.WritableAreas;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writable areas outside the project as {@code run --dry-run} and {@code status} show them: each area with its
 * reason, then what was asked for and left out (docs/json.md, "writable"). Rendering only; the areas are decided in
 * host ({@link WritableAreas}).
 */
final class WritableReport {
    private WritableReport() {
    }

    /** The report lines: each area with its reason ({@code ~/} for paths under {@code home}), then what was left out. */
    static List<String> lines(WritableAreas.Outcome o, Path home) {
        List<String> out = new ArrayList<>();
        if (!o.confinement().confined()) {
            out.add("writable outside the project: everything the user can write (--write-anywhere)");
            return out;
        }
        out.add("writable outside the project: only these areas; everything else is read-only to the session");
        Confinement.Copy copy = o.confinement().copy();
        if (copy != null) {
            out.add("  a copy: " + display(copy.path(), home) + "/ (every write there lands in "
                    + display(copy.store(), home) + "/, never in the real directory; the areas in it are the real"
                    + " places)");
        }
        for (Confinement.Area a : o.confinement().areas()) {
            out.add("  writable: " + display(a.path(), home) + (a.directory() ? "/" : "") + " (" + a.why() + ")");
        }
        for (List<WritableAreas.Left> ls : List.of(o.left(), o.absent())) {
            for (WritableAreas.Left l : ls) {
                out.add("  not writable: " + l.path() + " (" + l.why() + ")");
            }
        }
        return out;
    }

    /** How many areas a summary names before "and N more". */
    private static final int NAMED = 4;

    /**
     * The summary of {@code ralon status} and {@code run --dry-run} without {@code --verbose}: one line naming the first
     * areas outside the project (and how many more), then each path asked for and left out (the user's own request is
     * never folded), then one line for the default areas that do not exist.
     */
    static List<String> summary(WritableAreas.Outcome o, Path home, Path projectRoot) {
        List<String> out = new ArrayList<>();
        if (!o.confinement().confined()) {
            out.add("writable outside the project: everything the user can write (--write-anywhere)");
            return out;
        }
        List<String> names = new ArrayList<>();
        for (Confinement.Area a : o.confinement().areas()) {
            if (projectRoot == null || !a.path().startsWith(projectRoot)) {
                names.add(display(a.path(), home) + (a.directory() ? "/" : ""));
            }
        }
        Confinement.Copy copy = o.confinement().copy();
        out.add("writable outside the project: " + (copy == null ? "" : display(copy.path(), home)
                + "/ as a copy (its changes stay in " + display(copy.store(), home) + "/), and ")
                + (names.isEmpty() ? "nothing else" : dev.ralon.host.StartReport.names(names, NAMED))
                + "; the rest is read-only to the session");
        for (WritableAreas.Left l : o.left()) {
            out.add("  not writable: " + l.path() + " (" + l.why() + ")");
        }
        for (WritableAreas.Left l : o.absent()) {
            out.add("  not writable: " + l.path() + " (" + l.why() + ")");
        }
        return out;
    }

    /** The writable areas as JSON: confined, and each area with its path, kind and reason. */
    static Map<String, Object> json(WritableAreas.Outcome o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("confined", o.confinement().confined());
        List<Object> areas = new ArrayList<>();
        for (Confinement.Area a : o.confinement().areas()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("path", a.path().toString());
            e.put("kind", a.directory() ? "directory" : "file");
            e.put("why", a.why());
            areas.add(e);
        }
        m.put("areas", areas);
        Confinement.Copy copy = o.confinement().copy();
        Map<String, Object> c = null;
        if (copy != null) {
            c = new LinkedHashMap<>();
            c.put("path", copy.path().toString());
            c.put("store", copy.store().toString());
        }
        m.put("copy", c);
        List<Object> left = new ArrayList<>();
        for (List<WritableAreas.Left> ls : List.of(o.left(), o.absent())) {
            for (WritableAreas.Left l : ls) {
                Map<String, Object> e = new LinkedHashMap<>(); // one key order (Map.of's differs between JVMs)
                e.put("path", l.path());
                e.put("why", l.why());
                left.add(e);
            }
        }
        m.put("notWritable", left);
        return m;
    }

    /** The user's home from {@code HOME}, or null when unset or not absolute (then no path is shortened). */
    static Path home() {
        String h = System.getenv("HOME");
        return h == null || !h.startsWith("/") ? null : Path.of(h).normalize();
    }

    private static String display(Path p, Path home) {
        if (home != null && p.equals(home)) {
            return "~";
        }
        if (home != null && p.startsWith(home)) {
            return "~/" + home.relativize(p);
        }
        return p.toString();
    }
}
