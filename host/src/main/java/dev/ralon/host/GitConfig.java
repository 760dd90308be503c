package dev.ralon.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * git's configuration files read as git reads them, without running git or anything a file names: the syntax of
 * git-config(1) ("CONFIGURATION FILE": sections, {@code [section "subsection"]}, {@code key = value}, quotes,
 * the escapes {@code \\ \" \n \t \b}, {@code #}/{@code ;} comments, {@code \}-newline continuation), and the includes
 * ({@code include.path} and every {@code includeIf.<condition>.path}, whatever the condition: for the baseline,
 * following an include git might skip only protects more) followed recursively up to git's depth of 10
 * ({@code MAX_INCLUDE_DEPTH} in git's config.c).
 *
 * <p>The parser follows git's {@code git_parse_source}, {@code get_base_var}, {@code get_value} and
 * {@code parse_value}: where git would stop with "bad config line", this stops reading that file (git then refuses to
 * run with it, so nothing after that line takes effect either).
 */
final class GitConfig {
    /** git's MAX_INCLUDE_DEPTH (config.c). */
    static final int MAX_DEPTH = 10;
    /** A file larger than this is not read (the bound keeps a start cheap; no real configuration comes near). */
    static final long MAX_SIZE = 4 << 20;

    private GitConfig() {
    }

    /**
     * One variable: {@code key} is {@code section.name} or {@code section.subsection.name} with section and name in
     * lower case (subsections keep their case, as in git); {@code value} is null for a bare key (boolean true).
     */
    record Entry(Path file, String key, String value) {
    }

    /** What was read: every variable in order, and every included file that exists (in the order met). */
    record Result(List<Entry> entries, List<Path> includes) {
    }

    /** Reads {@code files} (each that exists) and their includes; {@code home} expands {@code ~/} (may be null). */
    static Result read(List<Path> files, Path home) {
        List<Entry> entries = new ArrayList<>();
        List<Path> includes = new ArrayList<>();
        Set<Path> open = new HashSet<>();
        for (Path f : files) {
            read(f, home, 0, entries, includes, open);
        }
        return new Result(entries, includes);
    }

    private static void read(Path file, Path home, int depth, List<Entry> entries, List<Path> includes, Set<Path> open) {
        String text;
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > MAX_SIZE) {
                return;
            }
            text = Files.readString(file, StandardCharsets.ISO_8859_1); // bytes as chars: paths are compared as bytes
        } catch (IOException | RuntimeException e) {
            return; // unreadable: git cannot read it either
        }
        if (!open.add(file)) {
            return; // a cycle: git stops at the depth limit with an error; nothing more to find
        }
        for (Entry e : parse(text, file)) {
            entries.add(e);
            if (isInclude(e.key())) {
                Path target = path(e.value(), file.getParent(), home);
                if (target != null && Files.exists(target)) {
                    if (!includes.contains(target)) {
                        includes.add(target);
                    }
                    if (depth + 1 < MAX_DEPTH) {
                        read(target, home, depth + 1, entries, includes, open);
                    }
                }
            }
        }
        open.remove(file);
    }

    /** {@code include.path} or {@code includeIf.<condition>.path}. */
    static boolean isInclude(String key) {
        return key.equals("include.path") || key.startsWith("includeif.") && key.endsWith(".path");
    }

    /**
     * A pathname value as git interpolates it ({@code interpolate_path} in git's path.c): {@code ~/} is {@code home},
     * a relative path is taken relative to {@code base}; {@code ~user/} and {@code %(prefix)/} give null (not
     * followed), as does an empty value. git 2.49's {@code :(optional)} prefix is dropped.
     */
    static Path path(String value, Path base, Path home) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        String v = value.startsWith(":(optional)") ? value.substring(":(optional)".length()) : value;
        try {
            if (v.equals("~") || v.startsWith("~/")) {
                return home == null ? null : home.resolve(v.length() < 2 ? "" : v.substring(2)).normalize();
            }
            if (v.startsWith("~") || v.startsWith("%(prefix)/") || v.indexOf('\0') >= 0) {
                return null;
            }
            Path p = Path.of(v);
            if (p.isAbsolute()) {
                return p.normalize();
            }
            return base == null ? null : base.resolve(p).normalize();
        } catch (InvalidPathException e) {
            return null;
        }
    }

    // ------------------------------------------------------------------------------------------ the syntax

    /** The variables of one file's text, in order; reading stops where git would report a bad config line. */
    static List<Entry> parse(String text, Path file) {
        List<Entry> out = new ArrayList<>();
        Cursor c = new Cursor(text);
        String section = null;
        boolean comment = false;
        for (;;) {
            int ch = c.next();
            if (ch == '\n') {
                if (c.eof()) {
                    return out;
                }
                comment = false;
                continue;
            }
            if (comment || isSpace(ch)) {
                continue;
            }
            if (ch == '#' || ch == ';') {
                comment = true;
                continue;
            }
            if (ch == '[') {
                section = header(c);
                if (section == null) {
                    return out;
                }
                continue;
            }
            if (!isAlpha(ch)) {
                return out;
            }
            StringBuilder name = new StringBuilder().append(Character.toLowerCase((char) ch));
            for (ch = c.next(); !c.eof() && (isAlnum(ch) || ch == '-'); ch = c.next()) {
                name.append(Character.toLowerCase((char) ch));
            }
            while (ch == ' ' || ch == '\t') {
                ch = c.next();
            }
            String value = null;
            if (ch != '\n') {
                if (ch != '=') {
                    return out;
                }
                value = value(c);
                if (value == null) {
                    return out;
                }
            }
            if (section == null) {
                return out; // "key does not contain a section"
            }
            out.add(new Entry(file, section + "." + name, value));
        }
    }

    /** After {@code [}: the section (lower case) with {@code .subsection}, or null on a bad header. */
    private static String header(Cursor c) {
        StringBuilder name = new StringBuilder();
        for (;;) {
            int ch = c.next();
            if (c.eof()) {
                return null;
            }
            if (isSpace(ch)) {
                return subsection(c, name.toString());
            }
            if (ch == ']') {
                return name.length() == 0 ? null : name.toString();
            }
            if (!isAlnum(ch) && ch != '-' && ch != '.') {
                return null;
            }
            name.append(Character.toLowerCase((char) ch));
        }
    }

    private static String subsection(Cursor c, String name) {
        int ch;
        do {
            ch = c.next();
        } while (isSpace(ch) && ch != '\n');
        if (ch != '"') {
            return null;
        }
        StringBuilder sub = new StringBuilder();
        for (ch = c.next(); ch != '"'; ch = c.next()) {
            if (ch == '\n') {
                return null;
            }
            if (ch == '\\') {
                ch = c.next();
                if (ch == '\n') {
                    return null;
                }
            }
            sub.append((char) ch);
        }
        return c.next() == ']' ? name + "." + sub : null;
    }

    /** After {@code =}: the value up to the end of the line, or null where git's parse_value fails. */
    private static String value(Cursor c) {
        StringBuilder v = new StringBuilder();
        boolean quote = false;
        boolean comment = false;
        int space = 0;
        for (;;) {
            int ch = c.next();
            if (ch == '\n') {
                return quote ? null : v.toString();
            }
            if (comment) {
                continue;
            }
            if (isSpace(ch) && !quote) {
                if (v.length() > 0) {
                    space++;
                }
                continue;
            }
            if (!quote && (ch == ';' || ch == '#')) {
                comment = true;
                continue;
            }
            for (; space > 0; space--) {
                v.append(' ');
            }
            if (ch == '\\') {
                ch = c.next();
                switch (ch) {
                    case '\n':
                        continue;
                    case 't':
                        ch = '\t';
                        break;
                    case 'b':
                        ch = '\b';
                        break;
                    case 'n':
                        ch = '\n';
                        break;
                    case '\\':
                    case '"':
                        break;
                    default:
                        return null;
                }
                v.append((char) ch);
                continue;
            }
            if (ch == '"') {
                quote = !quote;
                continue;
            }
            v.append((char) ch);
        }
    }

    /** git's get_next_char: {@code \r\n} reads as {@code \n}, and the end of the text as {@code \n} (then eof()). */
    private static final class Cursor {
        private final String s;
        private int i;
        private boolean eof;

        Cursor(String s) {
            this.s = s.startsWith("\u00ef\u00bb\u00bf") ? s.substring(3) : s; // a UTF-8 BOM read as ISO-8859-1
        }

        int next() {
            if (i >= s.length()) {
                eof = true;
                return '\n';
            }
            char ch = s.charAt(i++);
            if (ch == '\r' && i < s.length() && s.charAt(i) == '\n') {
                ch = s.charAt(i++);
            }
            return ch;
        }

        boolean eof() {
            return eof;
        }
    }

    private static boolean isSpace(int ch) { // git's isspace (sane_ctype): space, \t, \n, \r
        return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
    }

    private static boolean isAlpha(int ch) {
        return ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z';
    }

    private static boolean isAlnum(int ch) {
        return isAlpha(ch) || ch >= '0' && ch <= '9';
    }

    /** A value git reads as a boolean (git_parse_maybe_bool), for {@code core.fsmonitor}: true, false, or null. */
    static Boolean bool(String value) {
        if (value == null) {
            return Boolean.TRUE;
        }
        switch (value.toLowerCase(Locale.ROOT)) {
            case "true": case "yes": case "on": case "1":
                return Boolean.TRUE;
            case "false": case "no": case "off": case "0": case "":
                return Boolean.FALSE;
            default:
                return null;
        }
    }
}
