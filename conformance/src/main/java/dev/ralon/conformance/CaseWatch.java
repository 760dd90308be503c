package dev.ralon.conformance;

import dev.ralon.conformance.KitRun.Case;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Reads one case's paths from outside the sandbox ({@link Snapshot}: content hash, inode, listing, mode, mtime,
 * owner) and says what changed between two readings. Keys are "T:" for the target's entries, "W:." for the directory
 * on the way.
 */
final class CaseWatch {
    private final Path proj;

    CaseWatch(Path proj) {
        this.proj = proj;
    }

    /** The case's target (and, for attacks that watch it, the directory on the way) as seen now, from outside. */
    SortedMap<String, String> watch(Case c) {
        SortedMap<String, String> m = new java.util.TreeMap<>();
        for (Map.Entry<String, String> e : Snapshot.of(c.target()).entrySet()) {
            m.put("T:" + e.getKey(), e.getValue());
        }
        if (c.attack().watchesWay()) {
            m.put("W:.", Snapshot.identity(c.way()).get("."));
        }
        return m;
    }

    /** What changed between two {@link #watch} readings, in words (empty: nothing). */
    List<String> changes(Case c, SortedMap<String, String> before, SortedMap<String, String> after) {
        SortedMap<String, String> tb = new java.util.TreeMap<>();
        SortedMap<String, String> ta = new java.util.TreeMap<>();
        SortedMap<String, String> wb = new java.util.TreeMap<>();
        SortedMap<String, String> wa = new java.util.TreeMap<>();
        split(before, tb, wb);
        split(after, ta, wa);
        List<String> out = new ArrayList<>(Snapshot.diff(proj.relativize(c.target()).toString(), tb, ta));
        out.addAll(Snapshot.diff("directory on the way " + (c.way().equals(proj) ? "(the project)" : proj.relativize(c.way())),
                wb, wa));
        return out;
    }

    private static void split(SortedMap<String, String> m, SortedMap<String, String> t, SortedMap<String, String> w) {
        for (Map.Entry<String, String> e : m.entrySet()) {
            (e.getKey().startsWith("T:") ? t : w).put(e.getKey().substring(2), e.getValue());
        }
    }
}
