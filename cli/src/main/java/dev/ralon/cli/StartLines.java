package dev.ralon.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code ralon run} says on stderr before the command starts, by weight (README, "Running an agent"):
 *
 * <ul>
 *   <li>a warning the user must act on (a degraded run, a backend that enforces nothing, a place the session is meant
 *       to write made create-restricted, a writable path asked for and refused, git failing in this run): always
 *       printed, {@code --quiet} included;</li>
 *   <li>the start line (how many paths, which backend, what is not covered) and the meaning of the kernel's error codes:
 *       printed unless {@code --quiet};</li>
 *   <li>notes (what the run leaves open that the user chose or cannot change: the baseline's absent paths, metadata
 *       outside the writable areas, the agents' notes, the backend's plan warnings): printed with {@code --verbose};
 *       otherwise counted at the end of the start line, so a default start is at most two lines beside the
 *       warnings.</li>
 * </ul>
 * Every line starts with {@code ralon: }.
 */
final class StartLines {
    private final List<String> mustAct = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> optIns = new ArrayList<>();

    /** A warning printed whatever the verbosity. */
    void mustAct(String line) {
        mustAct.add(line);
    }

    /**
     * What the user opted into that weakens the run ({@code --write-anywhere}, {@code --allow-unix-sockets}): the start
     * line says it; under {@code --quiet}, which has no start line, a line of its own says it (an opt-in is reported).
     */
    void optIn(String what) {
        optIns.add(what);
    }

    /** A note printed with {@code --verbose}, counted on the start line otherwise. */
    void note(String line) {
        notes.add(line);
    }

    /** The notes held, in order (for tests and --verbose). */
    List<String> notes() {
        return List.copyOf(notes);
    }

    /**
     * Prints the lines for the verbosity asked: {@code startLine} and {@code errnoLine} (null when there is none) unless
     * {@code quiet}; the notes only when {@code verbose}.
     */
    void print(PrintWriter err, boolean quiet, boolean verbose, String startLine, String errnoLine) {
        if (verbose) {
            notes.forEach(n -> err.println("ralon: " + n));
        }
        mustAct.forEach(w -> err.println("ralon: " + w));
        if (quiet) {
            if (!optIns.isEmpty()) {
                err.println("ralon: " + String.join("; ", optIns));
            }
            return;
        }
        String held = verbose || notes.isEmpty() ? ""
                : " (" + notes.size() + (notes.size() == 1 ? " more note" : " more notes") + ": `ralon run --verbose`)";
        err.println(startLine + held);
        if (errnoLine != null) {
            err.println(errnoLine);
        }
    }
}
