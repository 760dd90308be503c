package dev.ralon.policy.walk;

import dev.ralon.policy.Paths2;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The one walk of a policy's tree, shared by its {@link WalkVisitor}s. It starts at the root and lists a directory
 * only while some visitor still has something to do beneath it (its state there is not null): the walk stops where
 * nothing more can match. Entries are visited in name order; an entry's type comes from the listing when the
 * {@link DirectoryReader} gives it, and is otherwise read only when a visitor asks.
 *
 * <p>It never follows a symbolic link to a directory on its own: it enters one only when a visitor's state for the
 * link says it would go on beneath it, and only when the link's real target is a directory inside the root (for one
 * outside, each such visitor is told: {@link WalkVisitor#leadsOutside}). Beneath a link, entries carry their lexical
 * path (through the link) and their real path; a real directory already being walked through a link on the way down
 * is not entered again (a link cycle is walked once).
 *
 * <p>Bounded: patterns match the lexical path, so a directory reached through links by many paths is walked once per
 * path, and links that lead to the same directories over and over (a lattice of {@code x -> ../d2}, {@code y -> ../d2}
 * in each of 22 directories: 2^21 paths; pnpm's {@code node_modules}) would make the walk last for ever. At most
 * {@link #MAX_ENTRIES_THROUGH_LINKS} entries are listed beneath links in one walk; past that the walk no longer enters
 * links, and each visitor that would have gone on is told once ({@link WalkVisitor#tooManyThroughLinks}): for
 * protection the set is then incomplete, which {@code ralon run} refuses with the reason. Never a hang.
 */
final class TreeWalker {
    /** Entries listed beneath symbolic links in one walk, at most (see the class doc). */
    static final int MAX_ENTRIES_THROUGH_LINKS = 100_000;

    private final Path root;
    private final DirectoryReader reader;
    private final List<WalkVisitor<Object>> visitors = new ArrayList<>();
    private final int maxThroughLinks;
    private int throughLinks;
    /** The visitors told that the walk stopped entering links (each is told once); null until then. */
    private boolean[] told;

    /** A walk of {@code root} with the process's {@link DirectoryReader#installed() reader}. */
    TreeWalker(Path root) {
        this(root, DirectoryReader.installed());
    }

    TreeWalker(Path root, DirectoryReader reader) {
        this(root, reader, MAX_ENTRIES_THROUGH_LINKS);
    }

    TreeWalker(Path root, DirectoryReader reader, int maxThroughLinks) {
        this.root = root;
        this.reader = reader;
        this.maxThroughLinks = maxThroughLinks;
    }

    /** Adds a visitor; visitors see each entry in the order they were added. */
    @SuppressWarnings("unchecked")
    <S> TreeWalker with(WalkVisitor<S> visitor) {
        visitors.add((WalkVisitor<Object>) visitor);
        return this;
    }

    /** Walks the tree once for every visitor added. */
    void walk() {
        Object[] states = new Object[visitors.size()];
        for (int i = 0; i < states.length; i++) {
            states[i] = visitors.get(i).atRoot();
        }
        walk(root, "", false, new HashSet<>(), states);
    }

    /**
     * Walks {@code dir}, whose lexical path relative to the root is {@code rel}; {@code throughLink} when it was
     * reached through a symbolic link (then {@code dir} is the link's real target). {@code chain} holds the real
     * directories entered through links on the way down.
     */
    private void walk(Path dir, String rel, boolean throughLink, Set<Path> chain, Object[] states) {
        if (allNull(states)) {
            return;
        }
        if (throughLink && throughLinks > maxThroughLinks) { // spent: not even listed
            stopFollowingLinks(rel, states);
            return;
        }
        List<WalkEntry> children = new ArrayList<>();
        try {
            List<DirectoryReader.Listed> listed = reader.list(dir);
            if (listed == null) {
                listed = DirectoryReader.JAVA.list(dir); // the installed reader cannot list it as Java would
            }
            if (throughLink) {
                throughLinks += listed.size();
                if (throughLinks > maxThroughLinks) {
                    stopFollowingLinks(rel, states);
                    return;
                }
            }
            for (DirectoryReader.Listed c : listed) {
                children.add(new WalkEntry(root, dir, rel.isEmpty() ? c.name() : rel + "/" + c.name(), throughLink, c));
            }
        } catch (NoSuchFileException e) {
            return; // removed while walking
        } catch (IOException | SecurityException | DirectoryIteratorException e) {
            // (DirectoryIteratorException: reading the listing failed part-way, e.g. EIO; its cause says why)
            Throwable why = e instanceof DirectoryIteratorException d ? d.getCause() : e;
            for (int i = 0; i < states.length; i++) {
                if (states[i] != null) {
                    visitors.get(i).cannotList(states[i], dir, why);
                }
            }
            return;
        }
        // by name (each name decoded once: getFileName() in a comparator dominated the walk)
        children.sort((a, b) -> a.name().compareTo(b.name()));
        for (WalkEntry child : children) {
            Object[] beneath = new Object[states.length];
            for (int i = 0; i < states.length && !child.skipped(); i++) {
                if (states[i] != null) {
                    beneath[i] = visitors.get(i).visit(states[i], child);
                }
            }
            if (child.skipped() || allNull(beneath)) {
                continue;
            }
            DirectoryReader.Type type = child.type();
            if (type == null) {
                continue; // vanished, or cannot be examined: the visitors that cared have said so
            }
            if (type == DirectoryReader.Type.DIRECTORY) {
                walk(child.path(), child.rel(), throughLink, chain, beneath);
            } else if (type == DirectoryReader.Type.SYMLINK) {
                followLink(child, chain, beneath);
            }
        }
    }

    /** A symbolic link beneath which some visitor would go on: walks its target when that is a directory inside. */
    private void followLink(WalkEntry link, Set<Path> chain, Object[] states) {
        Path target;
        try {
            target = link.path().toRealPath();
        } catch (IOException | SecurityException e) {
            return; // dangling: nothing beneath it
        }
        if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!target.equals(root) && Paths2.relativeBeneath(root, target) == null) {
            for (int i = 0; i < states.length; i++) {
                if (states[i] != null) {
                    visitors.get(i).leadsOutside(states[i], link.rel(), target);
                }
            }
            return;
        }
        if (!chain.add(target)) {
            return; // a cycle: this real directory is already being walked through a link
        }
        try {
            walk(target, link.rel(), true, chain, states);
        } finally {
            chain.remove(target);
        }
    }

    /** The link budget is spent: tells each visitor that would go on beneath {@code rel}, once per walk. */
    private void stopFollowingLinks(String rel, Object[] states) {
        if (told == null) {
            told = new boolean[visitors.size()];
        }
        for (int i = 0; i < states.length; i++) {
            if (states[i] != null && !told[i]) {
                told[i] = true;
                visitors.get(i).tooManyThroughLinks(states[i], rel, maxThroughLinks);
            }
        }
    }

    private static boolean allNull(Object[] states) {
        for (Object s : states) {
            if (s != null) {
                return false;
            }
        }
        return true;
    }
}
