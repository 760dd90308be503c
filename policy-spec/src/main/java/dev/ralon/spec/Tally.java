package dev.ralon.spec;

import java.util.ArrayList;
import java.util.List;

/** Counts the outcomes of one vector file into its {@link VectorRunner.FileReport}. */
final class Tally {
    private final String file;
    private int passed;
    private int failed;
    private final int skipped;
    private final List<String> failures = new ArrayList<>();

    Tally(String file, int skipped) {
        this.file = file;
        this.skipped = skipped;
    }

    /** One checked expectation: {@code failure} is null when it held, else what is wrong. */
    void record(String what, String failure) {
        if (failure == null) {
            passed++;
        } else {
            failed++;
            failures.add(what + ": " + failure);
        }
    }

    VectorRunner.FileReport report() {
        return new VectorRunner.FileReport(file, passed, failed, skipped, List.copyOf(failures));
    }
}
