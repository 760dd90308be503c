package dev.ralon.cli;

import dev.ralon.host.Baseline;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The repository baseline as {@code run --dry-run} and {@code status} show it (docs/json.md, "baseline"): what was
 * kept and what the backend could not protect, with the reason. Rendering only; the baseline is decided in host
 * ({@link Baseline#apply}).
 */
final class BaselineReport {
    private BaselineReport() {
    }

    /** The baseline section of {@code run --dry-run}. */
    static void print(PrintWriter out, Baseline.Applied a, String backend) {
        if (a == null) {
            out.println("baseline: off (--no-baseline)");
            return;
        }
        out.println("baseline (protected besides the policy; --no-baseline leaves it out): " + a.kept().size()
                + " kept, " + a.dropped().size() + " not protected by " + backend);
        for (Baseline.Item i : a.kept()) {
            out.println("  protected      " + i.display() + "  (" + i.why() + ")");
        }
        for (Baseline.Dropped d : a.dropped()) {
            out.println("  NOT protected  " + d.item().display() + "  (" + d.reason() + ")");
        }
    }

    /**
     * The baseline in one line ({@code run --dry-run} without {@code --verbose}): how many paths, how many exist, what
     * the backend protects and what it leaves, with the reasons counted.
     */
    static String summary(Baseline.Applied a, String backend) {
        if (a == null) {
            return "baseline: off (--no-baseline)";
        }
        int all = a.kept().size() + a.dropped().size();
        long exist = a.kept().stream().filter(i -> !i.absent()).count()
                + a.dropped().stream().filter(d -> !d.item().absent()).count();
        StringBuilder s = new StringBuilder("baseline: " + all + " paths that run code later (git's config and hooks,"
                + " shell start-up files, agents' settings), " + exist + " of them exist: " + backend + " protects "
                + (a.dropped().isEmpty() ? "all" : a.kept().size()));
        long absent = a.dropped().stream().filter(d -> d.item().absent()).count();
        if (absent > 0) {
            s.append(", cannot stop the creation of ").append(absent).append(" absent");
        }
        long other = a.dropped().size() - absent;
        if (other > 0) {
            s.append(", NOT ").append(other).append(" existing");
        }
        return s.append(" (--verbose lists them)").toString();
    }

    /**
     * The baseline in one line for {@code ralon status} without {@code --verbose}: how many paths, how many exist, and
     * for each backend that can run here what it protects and what it cannot.
     */
    static String statusSummary(List<Baseline.Item> items, Map<String, Baseline.Applied> by) {
        long exist = items.stream().filter(i -> !i.absent()).count();
        List<String> per = new ArrayList<>();
        by.forEach((name, a) -> {
            long absent = a.dropped().stream().filter(d -> d.item().absent()).count();
            long other = a.dropped().size() - absent;
            per.add(name + " protects " + (a.dropped().isEmpty() ? "all " + a.kept().size() : a.kept().size()
                    + (absent > 0 ? ", cannot stop the creation of " + absent + " absent" : "")
                    + (other > 0 ? ", NOT " + other + " existing" : "")));
        });
        return "baseline: " + items.size() + " paths that run code later (git's config and hooks, shell start-up files,"
                + " agents' settings), " + exist + " exist" + (per.isEmpty() ? "" : "; " + String.join("; ", per));
    }

    /** The baseline in JSON ({@code run --dry-run --json}, {@code status --json}): null when off. */
    static Object json(Baseline.Applied a) {
        if (a == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        List<Object> kept = new ArrayList<>();
        for (Baseline.Item i : a.kept()) {
            kept.add(item(i, null));
        }
        List<Object> dropped = new ArrayList<>();
        for (Baseline.Dropped d : a.dropped()) {
            dropped.add(item(d.item(), d.reason()));
        }
        m.put("protected", kept);
        m.put("notProtected", dropped);
        return m;
    }

    /** One item in JSON; {@code reason} (why it is not protected) is left out when null. */
    static Map<String, Object> item(Baseline.Item i, String reason) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("path", i.display());
        m.put("real", i.paths().get(i.paths().size() - 1).path().toString());
        m.put("exists", !i.absent());
        m.put("why", i.why());
        if (reason != null) {
            m.put("reason", reason);
        }
        return m;
    }
}
