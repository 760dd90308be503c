package dev.ralon.policy.load;

import dev.ralon.policy.ErrorKind;
import dev.ralon.policy.PolicyException;
import org.yaml.snakeyaml.nodes.Node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The problems found after the YAML stage, each in its stage; thrown together, sorted by stage then offset. */
final class Problems {
    static final int KEYS = 0;
    static final int SHAPE = 1;
    static final int PATTERNS = 2;
    final Path file;
    private final List<long[]> order = new ArrayList<>();
    private final List<PolicyException.Problem> found = new ArrayList<>();

    Problems(Path file) {
        this.file = file;
    }

    void add(int stage, long rank, PolicyException.Problem p) {
        order.add(new long[] {stage, rank, found.size()});
        found.add(p);
    }

    void add(int stage, ErrorKind kind, Node at, String reason) {
        add(stage, at == null ? Long.MAX_VALUE : at.getStartMark().getIndex(), PolicyShapeCheck.problem(kind, file, at, reason));
    }

    /** The problems found so far in {@code stage}, in the order they were found (for tests). */
    List<PolicyException.Problem> inStage(int stage) {
        List<PolicyException.Problem> in = new ArrayList<>();
        for (long[] o : order) {
            if (o[0] == stage) {
                in.add(found.get((int) o[2]));
            }
        }
        return in;
    }

    void throwIfAny() throws PolicyException {
        if (found.isEmpty()) {
            return;
        }
        order.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0])
                : a[1] != b[1] ? Long.compare(a[1], b[1]) : Long.compare(a[2], b[2]));
        List<PolicyException.Problem> sorted = new ArrayList<>(found.size());
        for (long[] o : order) {
            sorted.add(found.get((int) o[2]));
        }
        throw new PolicyException(sorted);
    }
}
