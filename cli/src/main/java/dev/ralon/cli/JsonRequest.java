package dev.ralon.cli;

/** Whether a command line asks for JSON output, so that its errors are printed as JSON too (docs/json.md). */
final class JsonRequest {
    private JsonRequest() {
    }

    /**
     * True when {@code --json} appears before the end of options ({@code --}): after it, the words are the command
     * that {@code ralon run} starts, whose own {@code --json} is none of ours.
     */
    static boolean wanted(String[] args) {
        for (String a : args) {
            if ("--".equals(a)) {
                return false;
            }
            if ("--json".equals(a)) {
                return true;
            }
        }
        return false;
    }
}
