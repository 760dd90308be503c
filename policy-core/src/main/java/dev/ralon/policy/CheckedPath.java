package dev.ralon.policy;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The forms under which a checked path is judged (spec §8.5): a path is protected when any of them is. Three forms:
 *
 * <ol>
 *   <li><b>lexical</b>: the path made absolute against the working directory, {@code .} removed and each {@code ..}
 *       removing the name before it as text (what a tool that normalises paths before opening them reaches);</li>
 *   <li><b>entry</b>: resolved the way the kernel resolves a path (path_resolution(7)): component by component from
 *       the working directory (or {@code /}), every symbolic link met before the last component replaced by its
 *       target, {@code ..} going to the parent of the directory actually reached, not of the name written; the last
 *       component is not followed, so this names the directory entry that unlink, rename or a new link act on;</li>
 *   <li><b>target</b>: the entry form with a last component that is a symbolic link followed too (repeatedly, even
 *       when the target does not exist yet): what open(2) for writing reaches.</li>
 * </ol>
 *
 * <p>A component that does not exist is taken as written (the rest of the path is resolved as text), so a path to a
 * file not yet created is judged where it would be created. On a directory whose file system folds case or Unicode
 * normalisation (detected when a variant of the name reaches the same file), the name stored on disk is used, so
 * {@code .ENV} on such a file system is judged as the {@code .env} it opens (spec §11). More than 40 links on the way
 * (Linux's limit, path_resolution(7)) end the resolution: the path cannot be opened, and only its lexical form counts.
 */
public final class CheckedPath {
    /** Linux follows at most 40 symbolic links while resolving one path (path_resolution(7), ELOOP). */
    private static final int MAX_LINKS = 40;

    private CheckedPath() {
    }

    /** The forms of {@code path} (absolute, or relative to the working directory), without repeats. */
    public static Set<Path> forms(Path path) {
        Path abs = path.toAbsolutePath();
        Set<Path> out = new LinkedHashSet<>();
        out.add(abs.normalize());
        Resolver r = new Resolver();
        Path entry = r.resolve(abs, false);
        if (entry != null) {
            out.add(entry);
            BasicFileAttributes a = attributes(entry);
            if (a != null && a.isSymbolicLink()) { // only a final link has a target form of its own
                Path target = r.resolve(entry, true);
                if (target != null) {
                    out.add(target);
                }
            }
        }
        return out;
    }

    /** Kernel-like resolution; counts links across one call of {@link #forms}. */
    private static final class Resolver {
        private int links;

        /** {@code abs} resolved; the last component followed when {@code followLast}. Null after too many links. */
        Path resolve(Path abs, boolean followLast) {
            List<String> names = new ArrayList<>();
            for (Path p : abs) {
                names.add(p.toString());
            }
            Path cur = abs.getRoot();
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i);
                if (name.equals(".")) {
                    continue;
                }
                if (name.equals("..")) {
                    Path parent = cur.getParent();
                    cur = parent == null ? cur : parent;
                    continue;
                }
                boolean last = i == names.size() - 1;
                Path next = cur.resolve(storedName(cur, name));
                BasicFileAttributes a = attributes(next);
                if (a != null && a.isSymbolicLink() && (!last || followLast)) {
                    if (++links > MAX_LINKS) {
                        return null;
                    }
                    Path target;
                    try {
                        target = Files.readSymbolicLink(next);
                    } catch (IOException | UnsupportedOperationException | SecurityException e) {
                        return null;
                    }
                    Path resolved = resolve(cur.resolve(target), true);
                    if (resolved == null) {
                        return null;
                    }
                    cur = resolved;
                } else {
                    cur = next;
                }
            }
            return cur;
        }
    }

    private static BasicFileAttributes attributes(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /**
     * The name of the entry {@code name} reaches in {@code dir} as stored on disk: {@code name} itself unless the
     * directory folds case or Unicode normalisation. Detected with one extra lookup: when the name with its case
     * swapped (or in the other normalisation form) reaches the same file, the directory is listed to find the stored
     * name.
     */
    static String storedName(Path dir, String name) {
        String variant = swapCase(name);
        if (variant.equals(name)) {
            variant = Normalizer.isNormalized(name, Normalizer.Form.NFC)
                    ? Normalizer.normalize(name, Normalizer.Form.NFD)
                    : Normalizer.normalize(name, Normalizer.Form.NFC);
            if (variant.equals(name)) {
                return name;
            }
        }
        Path p = dir.resolve(name);
        Path q = dir.resolve(variant);
        try {
            if (!Files.exists(q, LinkOption.NOFOLLOW_LINKS) || !Files.exists(p, LinkOption.NOFOLLOW_LINKS)
                    || !Files.isSameFile(p, q)) {
                return name;
            }
        } catch (IOException | SecurityException e) {
            return name;
        }
        String folded = fold(name);
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path e : ds) {
                String stored = e.getFileName().toString();
                if (stored.equals(name)) {
                    return name;
                }
                if (fold(stored).equals(folded) && Files.isSameFile(e, p)) {
                    return stored;
                }
            }
        } catch (IOException | SecurityException e) {
            return name;
        }
        return name;
    }

    private static String fold(String s) {
        return Normalizer.normalize(s, Normalizer.Form.NFC).toLowerCase(Locale.ROOT);
    }

    private static String swapCase(String s) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(c -> b.appendCodePoint(Character.isUpperCase(c) ? Character.toLowerCase(c)
                : Character.isLowerCase(c) ? Character.toUpperCase(c) : c));
        return b.toString();
    }
}
