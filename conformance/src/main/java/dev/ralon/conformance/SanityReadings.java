package dev.ralon.conformance;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What must keep working under the enforcer, as a run recorded it: the script's "ok-" results from inside, and what the
 * work left on disk read from outside, next to what was expected (the {@link Judge} compares them).
 */
final class SanityReadings {
    private SanityReadings() {
    }

    /**
     * The readings of a finished run of {@code project} as {@code uid}: name → value (null: missing).
     *
     * @param rc             the script's RESULT lines, case or check id → result
     * @param policyText     agent.lock as written
     * @param expectedNofile the soft RLIMIT_NOFILE of a plain child of this JVM as that user
     */
    static Map<String, String> read(KitProject project, int uid, Map<String, String> rc, String policyText,
                                    String expectedNofile) {
        Map<String, String> sanity = new LinkedHashMap<>();
        Path free = project.free;
        Path proj = project.proj;
        Path home = project.home;
        for (Map.Entry<String, String> e : rc.entrySet()) {
            if (e.getKey().startsWith("ok-")) {
                sanity.put(e.getKey(), e.getValue());
            }
        }
        sanity.put("existing.txt", KitHost.readOrNull(free.resolve("existing.txt")));
        sanity.put("new.txt", KitHost.readOrNull(free.resolve("new.txt")));
        sanity.put("next.txt", KitHost.readOrNull(proj.resolve("c/ok-next/w/new.txt")));
        sanity.put("read-copy", KitHost.readOrNull(free.resolve("read-copy")));
        sanity.put("read-expected", "original ok-next\n" + policyText);
        sanity.put("git-status", KitHost.readOrNull(free.resolve("git-status.out")));
        for (String id : List.of("uid", "gid", "pwd", "nofile", "marker", "jto")) {
            String v = KitHost.readOrNull(free.resolve("id-" + id));
            sanity.put("id-" + id, v == null ? null : v.strip());
        }
        sanity.put("expected-nofile", expectedNofile);
        sanity.put("expected-gid", Integer.toString(uid == KitHost.currentUid() ? KitHost.currentGid() : uid));
        sanity.put("expected-pwd", proj.toString());
        // what the work left, seen from outside
        sanity.put("seen-ok-mkdir-deep", KitHost.readOrNull(free.resolve("new/dir/file")));
        sanity.put("seen-ok-mv-between", String.valueOf(KitHost.exists(free.resolve("b/movable")) && !KitHost.exists(free.resolve("a/movable"))));
        sanity.put("seen-ok-ln-between", String.valueOf(KitHost.exists(free.resolve("b/linkable"))));
        sanity.put("seen-ok-mv-out-of-project", String.valueOf(KitHost.exists(home.resolve("tmp/crossing"))));
        sanity.put("seen-ok-rm-unprotected", String.valueOf(!KitHost.exists(free.resolve("a/removable"))));
        sanity.put("seen-ok-write-in-ancestor", String.valueOf("sibling\nmore\n".equals(KitHost.readOrNull(proj.resolve("c/ok-next/sibling.txt")))));
        sanity.put("seen-ok-way-mkdir", String.valueOf(KitHost.exists(proj.resolve("c/ok-next/newdir/f"))));
        sanity.put("seen-ok-next-mkdir", String.valueOf(KitHost.exists(proj.resolve("c/ok-next/w/newdir"))));
        sanity.put("seen-ok-next-rename", String.valueOf(KitHost.exists(proj.resolve("c/ok-next/w/notes.bak"))
                || !KitHost.exists(proj.resolve("c/ok-next/w/notes.txt"))));
        sanity.put("seen-ok-next-move-out", String.valueOf(!KitHost.exists(proj.resolve("c/ok-next/w/notes2.txt"))));
        sanity.put("seen-ok-next-via-link", String.valueOf(KitHost.exists(proj.resolve("c/ok-next/w/via-link.txt"))));
        return sanity;
    }
}
