package dev.ralon.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
     * the same inode, content written through the existing file, mode and owner set back. Deleting and rewriting it
     * would drop its bind mount in the sandbox (a mount goes with the dentry it is on, mount_namespaces(7)), and every
     * later attack on it would then break through because of the kit, not the enforcer.
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
        KitProject.write(lock, policyText);
        if (uid != KitHost.currentUid()) {
            KitHost.run(List.of("chown", uid + ":" + uid, lock.toString()), 30);
        }
        return false;
    }
}
