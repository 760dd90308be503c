package dev.ralon.policy.walk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * How a path is reached, resolved one component at a time as the kernel does (path_resolution(7)): every symbolic
 * link met on the way, in order, and the real path reached.
 *
 * <p>Why: a protected path reached through a link ({@code lib/door/x.key} with {@code lib/door -> ../real}) is
 * protected at its real place, but the link itself decides which file the next session protects. Each link met here
 * must therefore be protected as a link for the run (docs/security.md, "links on the way"). The resolution follows the
 * kernel's rules: a link's target is resolved from the link's directory (from {@code /} when absolute), {@code ..}
 * goes to the parent of the real directory reached so far, and after 40 links the kernel gives up with ELOOP
 * (path_resolution(7), "the maximum number of symbolic links that will be followed is 40").
 *
 * @param links   the symbolic links met, in order, each an absolute path whose parent directories are real (no link
 *                among them); the last component itself may be among them
 * @param reached the real path reached: when a component does not exist, the real directory reached so far with the
 *                remaining components appended (what creating the path would create); null after too many links
 */
public record LinkResolution(List<Path> links, Path reached) {
    /** The kernel's limit on symbolic links followed in one lookup (include/linux/namei.h MAXSYMLINKS). */
    static final int MAX_LINKS = 40;

    public LinkResolution {
        links = List.copyOf(links);
    }

    /**
     * Resolves {@code rel} ('/'-separated, relative) from the real, absolute directory {@code start}. Changes nothing;
     * a component that cannot be examined is treated like one that does not exist.
     */
    public static LinkResolution resolve(Path start, String rel) {
        Deque<String> todo = new ArrayDeque<>();
        push(todo, rel);
        List<Path> links = new ArrayList<>();
        Path cur = start;
        int followed = 0;
        while (!todo.isEmpty()) {
            String name = todo.pollFirst();
            if (name.isEmpty() || name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                cur = cur.getParent() == null ? cur : cur.getParent();
                continue;
            }
            Path next = cur.resolve(name);
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(next, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException | SecurityException e) {
                Path out = next;
                while (!todo.isEmpty()) {
                    String n = todo.pollFirst();
                    if (!n.isEmpty() && !n.equals(".")) {
                        out = n.equals("..") ? (out.getParent() == null ? out : out.getParent()) : out.resolve(n);
                    }
                }
                return new LinkResolution(links, out);
            }
            if (!a.isSymbolicLink()) {
                cur = next;
                continue;
            }
            links.add(next);
            if (++followed > MAX_LINKS) {
                return new LinkResolution(links, null);
            }
            String target;
            try {
                target = Files.readSymbolicLink(next).toString();
            } catch (IOException | SecurityException e) {
                return new LinkResolution(links, null);
            }
            if (target.startsWith("/")) {
                cur = cur.getRoot();
            }
            push(todo, target);
        }
        return new LinkResolution(links, cur);
    }

    private static void push(Deque<String> todo, String path) {
        String[] parts = path.split("/", -1);
        for (int i = parts.length - 1; i >= 0; i--) {
            todo.addFirst(parts[i]);
        }
    }
}
