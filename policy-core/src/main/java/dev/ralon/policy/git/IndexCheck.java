package dev.ralon.policy.git;

import dev.ralon.policy.Paths2;
import dev.ralon.policy.Policy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The work tree against the index for protected paths and code-running configuration, compared by content and
 * regardless of the index's flags: the part of {@code check --changed} that does not take git's word.
 *
 * <p>{@code git diff} (diff-files) trusts the index: an entry marked {@code --assume-unchanged} is never looked at, one
 * marked {@code --skip-worktree} is skipped, and an entry whose recorded stat data (size, mtime, ctime, inode) still
 * matches the file is taken as unchanged without reading it; the index is a file an agent can write (git-update-index(1),
 * "USING ASSUME UNCHANGED BIT", "SKIP-WORKTREE BIT"; Documentation/technical/racy-git.txt). So for every index entry
 * (stage 0, a file or a symbolic link) that a judging policy protects by its path, or that is code-running
 * configuration, the work tree's file is hashed as a git blob ({@code git hash-object --no-filters}, in batches; a
 * symbolic link's target here, SHA-1 or SHA-256 as the repository's ids are) and compared with the entry's id, after
 * an lstat that tells a file from a link, a directory or nothing. A file whose raw bytes differ is asked about once
 * more, to {@code git hash-object} with the repository's built-in conversions (end of line, {@code ident}, working-tree-encoding; no driver runs,
 * {@link HardenedGit}), so that a file git would store unchanged is not reported. Only the protected entries are
 * read, so the cost grows with what is protected, not with the repository.
 *
 * <p>An entry with the skip-worktree bit whose file is absent is not a change: that is what sparse checkout does, and
 * git commits the index's blob for it (which the index layer judges). Present, it is compared like any other.
 */
final class IndexCheck {
    /** Paths per {@code git hash-object} call: well under the kernel's limit on arguments. */
    private static final int BATCH = 500;

    private IndexCheck() {
    }

    /** Adds to {@code changes}, as {@link ChangedPaths#WORKTREE}, every covered entry whose work-tree file differs. */
    static void run(HardenedGit git, Path top, List<Policy> judges, List<String> projectRoots,
            ChangedPaths.Changes changes) throws GitException {
        // each judge's root as a string relation to the top, computed once, so that the test of each index path is
        // string work only: {judge index, kind, text}; kind 0: the root is the top or beneath it (text: "" or
        // "app/", the prefix a path must have), kind 1: the top is beneath the root (text: "up/", prepended)
        List<Object[]> anchors = new ArrayList<>();
        for (int i = 0; i < judges.size(); i++) {
            Path root = judges.get(i).root().toAbsolutePath().normalize();
            java.util.Set<Path> forms = new java.util.LinkedHashSet<>();
            forms.add(root);
            try {
                forms.add(root.toRealPath());
            } catch (IOException e) {
                // the lexical root only
            }
            for (Path form : forms) {
                if (form.equals(top)) {
                    anchors.add(new Object[] {i, 0, ""});
                } else if (Paths2.relativeBeneath(top, form) != null) {
                    anchors.add(new Object[] {i, 0, Paths2.relativeBeneath(top, form) + "/"});
                } else if (Paths2.relativeBeneath(form, top) != null) {
                    anchors.add(new Object[] {i, 1, Paths2.relativeBeneath(form, top) + "/"});
                }
            }
        }
        byte[] listing = git.run("ls-files", "-z", "-v", "--stage");
        List<String[]> files = new ArrayList<>(); // {path, index id}: regular files, hashed by git below
        Map<Path, Boolean> plainParents = new HashMap<>();
        MessageDigest sha1 = digest(40); // symbolic links' targets only
        MessageDigest sha256 = digest(64);
        for (String record : new String(listing, StandardCharsets.UTF_8).split("\0")) {
            // "<tag> <mode> <id> <stage>\t<path>" (git-ls-files(1): -v, --stage)
            int tab = record.indexOf('\t');
            if (tab < 0) {
                continue;
            }
            String[] meta = record.substring(0, tab).split(" ");
            if (meta.length != 4 || !meta[3].equals("0")) {
                continue; // an unmerged path: git diff reports it (U)
            }
            String mode = meta[1];
            if (!mode.equals("100644") && !mode.equals("100755") && !mode.equals("120000")) {
                continue; // a submodule (160000): compared by git with --ignore-submodules=none
            }
            String path = record.substring(tab + 1);
            if (changes.seen(path, ChangedPaths.WORKTREE) || !covered(path, judges, anchors, projectRoots)) {
                continue;
            }
            boolean skipWorktree = meta[0].equalsIgnoreCase("S");
            String id = meta[2];
            Path file;
            try {
                file = top.resolve(path);
            } catch (java.nio.file.InvalidPathException e) {
                changes.add(ChangedPaths.WORKTREE, List.<String[]>of(new String[] {"M", path, null}));
                continue;
            }
            BasicFileAttributes a = plainParent(file.getParent(), top, plainParents) ? attributes(file) : null;
            if (a == null || a.isDirectory() || a.isOther()) {
                if (a == null && skipWorktree) {
                    continue; // sparse checkout
                }
                changes.add(ChangedPaths.WORKTREE, List.<String[]>of(new String[] {"D", path, null}));
                continue;
            }
            if (a.isSymbolicLink() != mode.equals("120000")) {
                changes.add(ChangedPaths.WORKTREE, List.<String[]>of(new String[] {"T", path, null}));
                continue;
            }
            if (a.isSymbolicLink()) {
                String actual;
                try {
                    actual = blobId(Files.readSymbolicLink(file).toString().getBytes(StandardCharsets.UTF_8),
                            id.length() == 40 ? sha1 : sha256);
                } catch (IOException e) {
                    actual = null; // unreadable: cannot be shown unchanged
                }
                if (!id.equals(actual)) {
                    changes.add(ChangedPaths.WORKTREE, List.<String[]>of(new String[] {"M", path, null}));
                }
            } else {
                files.add(new String[] {path, id});
            }
        }
        // the raw bytes first (git hash-object --no-filters: 1,000 files in about 40 ms, where opening each from a
        // short-lived JVM cost ten times that), then the files that differ once more with git's built-in conversions
        for (String[] f : hashAll(git, hashAll(git, files, true), false)) {
            changes.add(ChangedPaths.WORKTREE, List.<String[]>of(new String[] {"M", f[0], null}));
        }
    }

    /**
     * The entries of {@code files} ({path, index id}) whose work-tree file git hashes to another id, raw or with the
     * conversions its attributes select (drivers are emptied by {@link HardenedGit}, so none runs); a call git
     * refuses (a file gone meanwhile) counts every path of its batch as differing.
     */
    private static List<String[]> hashAll(HardenedGit git, List<String[]> files, boolean raw) throws GitException {
        List<String[]> differ = new ArrayList<>();
        for (int i = 0; i < files.size(); i += BATCH) {
            List<String[]> batch = files.subList(i, Math.min(files.size(), i + BATCH));
            List<String> args = new ArrayList<>(List.of("hash-object"));
            if (raw) {
                args.add("--no-filters");
            }
            args.add("--");
            for (String[] p : batch) {
                args.add(p[0]);
            }
            HardenedGit.Output o = git.attempt(args.toArray(String[]::new));
            List<String> ids = o.exit() == 0 ? o.text().lines().toList() : List.of();
            for (int k = 0; k < batch.size(); k++) {
                if (ids.size() != batch.size() || !ids.get(k).equals(batch.get(k)[1])) {
                    differ.add(batch.get(k));
                }
            }
        }
        return differ;
    }

    /** Whether a judging policy protects {@code rel} by its path alone, or it is code-running configuration. */
    private static boolean covered(String rel, List<Policy> judges, List<Object[]> anchors, List<String> projectRoots) {
        if (ChangedPaths.codeRunning(projectRoots, rel) != null) {
            return true;
        }
        for (Object[] anchor : anchors) {
            String text = (String) anchor[2];
            String inRoot;
            if ((int) anchor[1] == 1) {
                inRoot = text + rel;
            } else if (rel.startsWith(text)) {
                inRoot = rel.substring(text.length());
            } else {
                continue;
            }
            if (judges.get((int) anchor[0]).isProtected(inRoot)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code dir} is reached without a symbolic link beneath the top: git does not follow one (a tracked path
     * beneath a link is deleted as far as git is concerned), and neither does this comparison.
     */
    private static boolean plainParent(Path dir, Path top, Map<Path, Boolean> cache) {
        if (dir == null || dir.equals(top)) {
            return true;
        }
        Boolean known = cache.get(dir);
        if (known == null) {
            BasicFileAttributes a = attributes(dir);
            known = a != null && a.isDirectory() && plainParent(dir.getParent(), top, cache);
            cache.put(dir, known);
        }
        return known;
    }

    private static BasicFileAttributes attributes(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    /** git's id of a blob holding {@code content}: the hash of {@code "blob <size>\0"} and the bytes. */
    static String blobId(byte[] content, MessageDigest md) {
        md.reset();
        md.update(("blob " + content.length + "\0").getBytes(StandardCharsets.US_ASCII));
        md.update(content);
        return HexFormat.of().formatHex(md.digest());
    }

    private static MessageDigest digest(int idLength) throws GitException {
        try {
            return MessageDigest.getInstance(idLength == 64 ? "SHA-256" : "SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new GitException("no " + (idLength == 64 ? "SHA-256" : "SHA-1") + " in this Java: " + e.getMessage());
        }
    }
}
