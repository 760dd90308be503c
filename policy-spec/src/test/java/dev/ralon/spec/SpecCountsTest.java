package dev.ralon.spec;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The runner's sample report in docs/spec.md §12.3 gives the counts the shipped vectors make: each vector file's
 * questions and the vectors not expressible in the protocol, and the total. A vector added or removed without the
 * spec's numbers fails here, so the two cannot drift apart again (revision 2's sample had).
 */
class SpecCountsTest {
    private static final Pattern LINE = Pattern.compile(
            "(?m)^(e2e\\.json|policies\\.json|match\\.json): (\\d+)/(\\d+) passed(?:, (\\d+) not expressible in the protocol)?$");
    private static final Pattern TOTAL = Pattern.compile("(?m)^total: (\\d+)/(\\d+) passed \\(100%\\)$");

    @Test
    void theSpecsSampleReportCountsTheShippedVectors() throws IOException {
        String spec = Files.readString(VectorSectionsTest.docs().resolve("spec.md"));
        List<String> stated = new ArrayList<>();
        Matcher m = LINE.matcher(spec);
        while (m.find()) {
            stated.add(m.group(1) + " " + m.group(2) + "/" + m.group(3) + " " + (m.group(4) == null ? "0" : m.group(4)));
        }
        List<String> shipped = new ArrayList<>();
        int total = 0;
        for (VectorRunner.Planned p : VectorRunner.planned()) {
            shipped.add(p.file() + " " + p.questions() + "/" + p.questions() + " " + p.notExpressible());
            total += p.questions();
        }
        assertEquals(shipped, stated, "docs/spec.md §12.3's sample report (file: passed/asked, not expressible)");
        Matcher t = TOTAL.matcher(spec);
        assertEquals(true, t.find(), "docs/spec.md §12.3 states the total");
        assertEquals(total + "/" + total, t.group(1) + "/" + t.group(2), "docs/spec.md §12.3's total");
    }
}
