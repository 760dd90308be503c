package dev.ralon.maven.agentlock;

import java.util.ArrayList;
import java.util.List;

/**
 * One entry of the {@code required} parameter: a path relative to the directory that holds agent.lock (the policy
 * root), written with {@code /} separators, e.g. {@code .github/workflows/ci.yml} or {@code pom.xml}.
 *
 * <p>Accepted: a leading {@code ./} and a trailing {@code /} are dropped, repeated {@code /} collapse. Refused (a
 * configuration error): an empty entry, an absolute path, a {@code .} or {@code ..} segment inside the path, a
 * backslash, and glob characters ({@code * ? [}), because a required entry names one path, not a pattern.
 */
final class RequiredPath {

    private RequiredPath() {}

    /**
     * Normalises {@code raw} to the form {@link dev.ralon.policy.Policy#isProtected(String)} takes.
     *
     * @throws IllegalArgumentException with a one-line reason when the entry is refused
     */
    static String normalize(String raw) {
        if (raw == null || raw.isBlank()) {
            throw new IllegalArgumentException("required entry is empty");
        }
        String s = raw.trim();
        if (s.startsWith("/")) {
            throw new IllegalArgumentException(
                    "required entry \"" + raw + "\" is absolute; write it relative to the directory holding agent.lock");
        }
        if (s.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("required entry \"" + raw + "\" contains a backslash; use / as separator");
        }
        for (char c : new char[] {'*', '?', '['}) {
            if (s.indexOf(c) >= 0) {
                throw new IllegalArgumentException(
                        "required entry \"" + raw + "\" contains '" + c + "'; required entries are paths, not patterns");
            }
        }
        List<String> parts = new ArrayList<>();
        String[] segments = s.split("/+");
        for (int i = 0; i < segments.length; i++) {
            String seg = segments[i];
            if (seg.isEmpty()) {
                continue; // trailing slash
            }
            if (seg.equals(".") && i == 0) {
                continue; // leading ./
            }
            if (seg.equals(".") || seg.equals("..")) {
                throw new IllegalArgumentException(
                        "required entry \"" + raw + "\" contains a '" + seg + "' segment; name the path directly");
            }
            parts.add(seg);
        }
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("required entry \"" + raw + "\" names no path");
        }
        return String.join("/", parts);
    }
}
