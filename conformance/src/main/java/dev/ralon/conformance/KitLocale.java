package dev.ralon.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The launcher's locale rule, applied by the kit to the ralon it starts ({@code java dev.ralon.cli.Main}, not the
 * {@code ralon} launcher script), so that a third party's tests need not set {@code LC_ALL}.
 *
 * <p>Ralon reads file names as UTF-8 and refuses to start when the JVM decodes them otherwise (the JVM takes its file
 * name encoding from the LC_CTYPE it starts with; under C, POSIX or no locale that is ASCII). The launcher
 * ({@code cli/src/main/launcher/ralon.sh}) therefore starts the JVM under {@code LC_ALL=C.UTF-8} when
 * {@code ${LC_ALL:-${LC_CTYPE:-$LANG}}} names no UTF-8 locale, records the user's own {@code LC_ALL} in
 * {@code RALON_USER_LC_ALL} (only when it was set) and sets {@code RALON_LOCALE_FORCED=1}; {@code ralon run} then gives
 * the command the user's exact locale back. This class does the same, so the attacked command sees what it would see
 * under the real executable.
 */
final class KitLocale {
    static final String FORCED = "RALON_LOCALE_FORCED";
    static final String USER_LC_ALL = "RALON_USER_LC_ALL";
    static final String UTF8 = "C.UTF-8";

    /** The launcher's case pattern: {@code *.UTF-8}, {@code *.utf8}, with an optional {@code @modifier}, any case. */
    private static final Pattern UTF8_LOCALE = Pattern.compile(".*\\.(?i:utf-?8)(@.*)?");

    private KitLocale() {
    }

    /** Whether the effective LC_CTYPE of {@code env} ({@code LC_ALL}, else {@code LC_CTYPE}, else {@code LANG}) is UTF-8. */
    static boolean isUtf8(Map<String, String> env) {
        String ctype = firstNonEmpty(env.get("LC_ALL"), env.get("LC_CTYPE"), env.get("LANG"));
        return UTF8_LOCALE.matcher(ctype).matches();
    }

    /** Changes {@code env} (a child's environment) the way the launcher changes its own before it starts the JVM. */
    static void apply(Map<String, String> env) {
        env.remove(USER_LC_ALL);
        env.remove(FORCED);
        if (isUtf8(env)) {
            return;
        }
        String userLcAll = env.get("LC_ALL");
        if (userLcAll != null) {
            env.put(USER_LC_ALL, userLcAll);
        }
        env.put(FORCED, "1");
        env.put("LC_ALL", UTF8);
    }

    /**
     * The same change as a prefix for a shell command line ({@code env -u VAR... VAR=VALUE...}) that starts ralon
     * from a shell whose environment is {@code env}: empty when that environment is already UTF-8.
     */
    static List<String> envPrefix(Map<String, String> env) {
        Map<String, String> changed = new java.util.HashMap<>(env);
        apply(changed);
        List<String> out = new ArrayList<>();
        for (String k : List.of(USER_LC_ALL, FORCED, "LC_ALL")) {
            if (env.containsKey(k) && !changed.containsKey(k)) {
                out.add("-u");
                out.add(k);
            }
        }
        for (String k : List.of(USER_LC_ALL, FORCED, "LC_ALL")) {
            String v = changed.get(k);
            if (v != null && !v.equals(env.get(k))) {
                out.add(k + "=" + v);
            }
        }
        if (!out.isEmpty()) {
            out.add(0, "env");
        }
        return out;
    }

    private static String firstNonEmpty(String... values) {
        for (String v : values) {
            if (v != null && !v.isEmpty()) {
                return v;
            }
        }
        return "";
    }
}
