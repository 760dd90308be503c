package dev.ralon.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.List;

/** Puts a project's agent.lock back after an attack that got through changed it, keeping its inode where it can. */
final class PolicyRestorer {
    private final Path proj;
    private final int uid;

    /** For the project {@code proj} whose files belong to {@code uid}. */
    PolicyRestorer(Path proj, int uid) {
        this.proj = proj;
        this.uid = uid;
    }

    /**
     * Puts the project and agent.lock back as they were (only ever needed after an attack got through), in place:
     * the same inode, content written through the existing file, mode, owner and extended attributes set back: every
     * field {@link Snapshot} reads but the times, so that the next attack's change is seen whatever this one left
     * (the control's xattr attack left its attribute, and the userns-xattr attack after it, setting the same name,
     * changed nothing the snapshot could see: the kit wrote agent.lock with none, so every user.* one goes).
     * Deleting and rewriting it would drop its bind mount in the sandbox (a mount goes with the dentry it is on,
     * mount_namespaces(7)), and every later attack on it would then break through because of the kit, not the
     * enforcer.
     *
     * @return whether agent.lock is still the inode the run started with; when not (an attack deleted, renamed or
     *         replaced it), it has been recreated, and later attacks on it cannot be judged
     */
    boolean restore(String policyText, Object inode) throws IOException {
        Path moved = Path.of(proj + ".moved");
        if (!Files.exists(proj, LinkOption.NOFOLLOW_LINKS) && Files.isDirectory(moved, LinkOption.NOFOLLOW_LINKS)) {
            Files.move(moved, proj);
        }
        Path lock = proj.resolve("agent.lock");
        // An inode number is only an identity while the inode lives: under a backend the sandbox's bind (or Landlock
        // rule) holds the first agent.lock, so a file made later never gets its number; under noop nothing holds it,
        // and a file recreated after a replacing attack can get it back (ext4, tmpfs reuse freed numbers). Then this
        // takes the in-place branch for a file the kit made: harmless, as that branch restores every field too.
        boolean sameInode;
        try {
            sameInode = Files.isRegularFile(lock, LinkOption.NOFOLLOW_LINKS)
                    && inode.equals(Files.getAttribute(lock, "unix:ino", LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
            sameInode = false;
        }
        if (sameInode) {
            if (!Files.readString(lock).equals(policyText)) {
                // O_WRONLY|O_TRUNC on the existing file: same inode
                Files.writeString(lock, policyText, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.WRITE,
                        java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
            }
            Files.setPosixFilePermissions(lock, PosixFilePermissions.fromString("rw-r--r--"));
            removeUserAttributes(lock);
            if (KitHost.currentUid() == 0) { // only root can have been breached by chown (a root-only attack)
                KitHost.run(List.of("chown", uid + ":" + uid, lock.toString()), 30);
            }
            return true;
        }
        if (Files.isDirectory(lock, LinkOption.NOFOLLOW_LINKS)) {
            KitHost.run(List.of("rm", "-rf", lock.toString()), 30);
        } else {
            Files.deleteIfExists(lock);
        }
        KitProject.write(lock, policyText); // a new file: no extended attributes
        if (uid != KitHost.currentUid()) {
            KitHost.run(List.of("chown", uid + ":" + uid, lock.toString()), 30);
        }
        return false;
    }

    /** Removes every user.* extended attribute (xattr(7)) of {@code lock}; nothing when the file system has none. */
    private static void removeUserAttributes(Path lock) throws IOException {
        UserDefinedFileAttributeView view = Files.getFileAttributeView(lock, UserDefinedFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (view == null) {
            return;
        }
        try {
            for (String name : view.list()) {
                view.delete(name);
            }
        } catch (UnsupportedOperationException e) {
            // no user.* attributes on this file system: an attack cannot have left one
        }
    }
}
