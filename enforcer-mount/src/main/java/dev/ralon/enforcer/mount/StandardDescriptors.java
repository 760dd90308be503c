package dev.ralon.enforcer.mount;

import com.sun.jna.LastErrorException;
import dev.ralon.linux.Binds;
import dev.ralon.linux.LibC;
import dev.ralon.linux.LinuxAbi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.ralon.linux.Binds.u16;
import static dev.ralon.linux.Binds.u32;
import static dev.ralon.linux.Binds.u64;

/**
 * Descriptors 0, 1 and 2 the command inherits, made unable to reach a writable path through the sandbox's mounts.
 *
 * <p>Why: a descriptor opened before {@code ralon run} (by the user's shell: {@code ralon run -- agent < secret.txt})
 * names the file on the mount it was opened through, in the host's mount namespace, where none of the read-only binds
 * exist (mount_namespaces(7): a new namespace gets <em>copies</em> of the mounts; an open file keeps its own). So
 * reopening {@code /proc/self/fd/0} for writing (proc(5): the link is followed through the descriptor's own mount and
 * dentry) writes the protected file, and a descriptor of a directory is a starting point for openat(2) lookups that
 * never meet a bind. Landlock does not have this problem: it checks the object's path at open time.
 *
 * <p>What is done, for each of 0, 1, 2 (terminals, pipes, sockets and devices are left alone: they have no path
 * beneath them and no protected content):
 * <ul>
 *   <li>a regular file is looked up again by its current name ({@code /proc/self/fd/N}), inside the sandbox, without
 *       following any symbolic link (openat2(2) RESOLVE_NO_SYMLINKS), and must be the same object (device, inode);
 *       when that name is now on a read-only mount (a protected file, or one inside a protected directory) and the
 *       descriptor is open for reading only, it is replaced by the same file reopened read-only through the read-only
 *       mount, at the same offset: the command reads exactly what it would have read (reading protected files is
 *       allowed), and nothing reaches the writable mount any more;</li>
 *   <li>such a file open for <em>writing</em> ({@code ralon run -- cmd >> secret.txt}) is refused: the user handed
 *       the command write access to a path the policy protects, and no reopening can keep both;</li>
 *   <li>a directory is refused, whatever it is. Lookups beneath it would start on a mount of another namespace: the
 *       host's, or the stage's own, which the kernel tears down (every mount detached from the others) when the stage
 *       leaves it for the command's namespace, so no bind could be met there; checked here: {@code < .} reopened in
 *       the stage still let {@code /proc/self/fd/0/secret.txt} be written. A directory as a standard descriptor is
 *       rare ({@code cmd < .}); refusing it costs little.</li>
 * </ul>
 * A refusal is one line; nothing is started.
 */
final class StandardDescriptors {
    private static final String[] NAMES = {"standard input (fd 0)", "standard output (fd 1)", "standard error (fd 2)"};
    // fcntl(2), include/uapi/asm-generic/fcntl.h (same on x86_64 and aarch64)
    private static final int F_GETFL = 3;
    private static final int F_SETFL = 4;
    private static final int O_ACCMODE = 3;
    private static final int O_NONBLOCK = 04000;
    private static final int O_NOCTTY = 0400;
    private static final int SEEK_SET = 0;
    private static final int SEEK_CUR = 1;

    private StandardDescriptors() {
    }

    /** Makes 0, 1 and 2 safe, or throws (the command is then not started). Run after every bind is in place. */
    static void secure() throws StageException {
        for (int fd = 0; fd <= 2; fd++) {
            secure(fd);
        }
    }

    private static void secure(int fd) throws StageException {
        byte[] stx = new byte[256];
        try {
            LibC.statx(fd, "", LinuxAbi.AT_EMPTY_PATH, Binds.STATX_TYPE | Binds.STATX_INO, stx);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == LinuxAbi.EBADF) {
                return; // closed: nothing to reach
            }
            throw new StageException("cannot examine " + NAMES[fd] + ": " + Binds.err(e) + " (statx)");
        }
        int type = u16(stx, 28) & LinuxAbi.S_IFMT;
        if (type != LinuxAbi.S_IFREG && type != LinuxAbi.S_IFDIR) {
            return;
        }
        String name;
        try {
            name = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
        } catch (IOException e) {
            throw new StageException("cannot read the name of " + NAMES[fd] + ": " + e.getMessage());
        }
        if (type == LinuxAbi.S_IFDIR) {
            throw new StageException(NAMES[fd] + " is the directory " + name + ": under the mount backend, lookups"
                    + " through a directory opened before the sandbox pass beside its read-only mounts; refusing"
                    + " (nothing was started)");
        }
        long ino = u64(stx, 32);
        long dev = Binds.makedev(u32(stx, 136), u32(stx, 140));
        int path = reopenPath(name, type, dev, ino);
        if (path < 0) {
            return; // a file no name leads to any more: no protected path is reached through it
        }
        try {
            if (!Mounts.readOnlyMount(path, name) || Mounts.readOnlyMount(fd, name)) {
                return; // not protected, or already on a read-only mount
            }
            int flags = fcntl(fd, F_GETFL, name);
            if ((flags & O_ACCMODE) != LinuxAbi.O_RDONLY) {
                throw new StageException(NAMES[fd] + " is open for writing on " + name + ", which this policy"
                        + " protects: the command could write it through that descriptor; refusing (redirect it"
                        + " elsewhere; nothing was started)");
            }
            replace(fd, path, LinuxAbi.O_RDONLY | O_NOCTTY, flags, name);
        } finally {
            close(path);
        }
    }

    /**
     * An O_PATH descriptor of {@code name} resolved again in this (the sandbox's) mount namespace, without following a
     * symbolic link anywhere, or -1 when the name no longer leads to the same object.
     */
    private static int reopenPath(String name, int type, long dev, long ino) throws StageException {
        if (!name.startsWith("/") || name.endsWith(" (deleted)")) {
            return -1;
        }
        int root = Mounts.openRoot();
        int fd;
        try {
            fd = Binds.openNoSymlinks(root, name);
        } catch (LastErrorException e) {
            return -1;
        } finally {
            close(root);
        }
        boolean same;
        try {
            same = Mounts.sameObject(fd, name, type, dev, ino);
        } catch (StageException e) {
            same = false;
        }
        if (!same) {
            close(fd);
            return -1;
        }
        return fd;
    }

    /**
     * Puts the object {@code path} names, opened with {@code openFlags} through this namespace's mounts (the O_PATH
     * descriptor itself when it cannot be opened so), in place of {@code fd}, at the same offset and with O_NONBLOCK as
     * {@code fd} had it.
     */
    private static void replace(int fd, int path, int openFlags, int oldFlags, String name) throws StageException {
        int fresh;
        try {
            // Opening /proc/self/fd/N of an O_PATH descriptor opens that very object through its (new) mount.
            fresh = LibC.open("/proc/self/fd/" + path, openFlags | LinuxAbi.O_CLOEXEC);
        } catch (LastErrorException e) {
            if (e.getErrorCode() != LinuxAbi.EACCES) {
                throw new StageException("cannot reopen " + NAMES[fd] + " (" + name + "): " + Binds.err(e) + " (open)");
            }
            fresh = -1; // no longer readable by this user: the O_PATH descriptor, on the read-only mount, stands in
        }
        int source = fresh >= 0 ? fresh : path;
        try {
            if (fresh >= 0) {
                try {
                    long offset = LibC.lseek(fd, 0, SEEK_CUR);
                    LibC.lseek(fresh, offset, SEEK_SET);
                } catch (LastErrorException e) {
                    // ESPIPE: no offset to keep
                }
                if ((oldFlags & O_NONBLOCK) != 0) {
                    LibC.fcntl(fresh, F_SETFL, O_NONBLOCK);
                }
            }
            LibC.dup3(source, fd, 0); // without O_CLOEXEC: it must survive the exec
        } catch (LastErrorException e) {
            throw new StageException("cannot replace " + NAMES[fd] + " (" + name + "): " + Binds.err(e) + " (dup3)");
        } finally {
            if (fresh >= 0) {
                close(fresh);
            }
        }
    }

    private static int fcntl(int fd, int cmd, String name) throws StageException {
        try {
            return LibC.fcntl(fd, cmd, 0);
        } catch (LastErrorException e) {
            throw new StageException("cannot read the flags of " + name + ": " + Binds.err(e) + " (fcntl)");
        }
    }

    private static void close(int fd) {
        Mounts.close(fd); // an O_PATH or read-only descriptor of ours: nothing to lose
    }
}
