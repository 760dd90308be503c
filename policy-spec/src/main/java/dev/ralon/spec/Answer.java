package dev.ralon.spec;

import org.json.JSONObject;

/** What the implementation said: exit status, stdout parsed (null when not JSON), stderr. */
record Answer(int exit, JSONObject json, String stdout, String stderr) {
    /** The answer in one line, for a failure message. */
    String describe() {
        return "exit " + exit + ", stdout " + abbreviate(stdout) + ", stderr " + abbreviate(stderr);
    }

    private static String abbreviate(String s) {
        String one = s.replaceAll("\\s+", " ").trim();
        return one.length() > 300 ? one.substring(0, 297) + "..." : one.isEmpty() ? "(empty)" : "'" + one + "'";
    }
}
