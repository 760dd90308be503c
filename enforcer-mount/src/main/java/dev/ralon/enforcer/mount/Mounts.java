package dev.ralon.enforcer.mount;

import com.sun.jna.LastErrorException;
import dev.ralon.linux.Binds;
import dev.ralon.linux.ExecException;
import dev.ralon.linux.LibC;
import dev.ralon.linux.LinuxAbi;

import java.util.List;

/**
 * The mount stage's system calls: binding each path of the plan onto itself (read-only for protected paths), proving
 * afterwards that every bind is in place ({@link Binds}, shared with the landlock backend's contained route), and
 * confining the session's writes to its areas. Runs as root of user namespace 1, inside {@link MountStage}; every
 * failure is a {@link StageException} and the command is not started.
 */
final class Mounts {
    private Mounts() {
    }

    /** Binds every entry, in the plan's order (ways before the protected paths beneath them), and checks each. */
    static void mountAll(List<PlanFile.Entry> entries) throws StageException {
        List<Binds.Entry> binds = entries.stream().map(Mounts::bindEntry).toList();
        try {
            Binds.bindAll(binds);
        } catch (ExecException e) {
            throw new StageException(e.getMessage());
        }
    }

    private static Binds.Entry bindEntry(PlanFile.Entry e) {
        return new Binds.Entry(e.path(), e.op() == PlanFile.Op.READONLY, e.type(), e.dev(), e.ino());
    }

    /** Whether the mount {@code fd} lies on is read-only (fstatfs(2) f_flags ST_RDONLY). */
    static boolean readOnlyMount(int fd, String name) throws StageException {
        try {
            return Binds.readOnlyMount(fd, name);
        } catch (ExecException e) {
            throw new StageException(e.getMessage());
        }
    }

    /** An O_PATH descriptor of {@code /}. */
    static int openRoot() throws StageException {
        try {
            return Binds.openRoot();
        } catch (ExecException e) {
            throw new StageException(e.getMessage());
        }
    }

    /** Whether {@code fd} is the object of type {@code type} (S_IFMT bits) on device {@code dev} with inode {@code ino}. */
    static boolean sameObject(int fd, String path, int type, long dev, long ino) throws StageException {
        try {
            return Binds.sameObject(fd, path, type, dev, ino);
        } catch (ExecException e) {
            throw new StageException(e.getMessage());
        }
    }

    /** {@link Binds#resolve}: the path without a symbolic link, checked to be the object the host saw. */
    private static int resolve(int root, PlanFile.Entry e) throws StageException {
        try {
            return Binds.resolve(root, bindEntry(e));
        } catch (ExecException x) {
            throw new StageException(x.getMessage());
        }
    }

    /**
     * Confines the session's writes to {@code areas}: every mount of this namespace becomes read-only, the areas
     * excepted. In three steps, so that no path is looked up again between them:
     * <ol>
     *   <li>each area is opened without following a link and checked to be what the host listed (as a bind is), and
     *       its mount tree cloned (open_tree(2) OPEN_TREE_CLONE|AT_RECURSIVE: a detached copy with every mount
     *       beneath it, the read-only binds of protected paths inside it included, flags and all);</li>
     *   <li>every mount of the namespace is made read-only at once: mount_setattr(2) on {@code /} with AT_RECURSIVE
     *       and MOUNT_ATTR_RDONLY (only adds read-only, allowed on the locked mounts inherited from the host; EBUSY
     *       if a file is open for writing through one: fail closed). The detached clones are not in the tree, so
     *       they keep their flags;</li>
     *   <li>each clone is attached onto its area (move_mount(2) onto the descriptor of step 1).</li>
     * </ol>
     * Devices stay usable: opening a device file for writing does not need a writable mount (fs/open.c
     * do_dentry_open: {@code special_file()} skips mnt_get_write_access), so {@code /dev/null} and the terminal work.
     * The nested namespace the command runs in locks all of it (MNT_LOCK_READONLY: mount_namespaces(7)). Then each
     * area is checked writable and {@code /} read-only: proof, not hope.
     */
    static void confine(List<PlanFile.Entry> areas) throws StageException {
        // A mount namespace of this thread's own first (unshare(2) CLONE_NEWNS implies only CLONE_FS, which a
        // multithreaded process may unshare: kernel/fork.c check_unshare_flags refuses CLONE_NEWUSER, not this). Its
        // mounts are new copies (mount_namespaces(7)), through which no file is open: the ones this JVM holds open
        // for writing stay on the mounts they were opened through. Without it, mount_setattr below met EBUSY at
        // random: libffi (inside JNA's library) maps its closures from a deleted file it made in /tmp, open for
        // writing, which counts as a writer of that mount for as long as the mapping lives (seen here). The thread
        // execs the command's chain, which inherits this namespace; the JVM's other threads end with that exec.
        try {
            LibC.unshare(LinuxAbi.CLONE_NEWNS);
        } catch (LastErrorException x) {
            throw new StageException("cannot make the confined mount namespace: " + Binds.err(x) + " (unshare)");
        }
        int root = openRoot();
        int[] targets = new int[areas.size()];
        int[] trees = new int[areas.size()];
        boolean[] wasReadOnly = new boolean[areas.size()];
        java.util.Arrays.fill(targets, -1);
        java.util.Arrays.fill(trees, -1);
        try {
            for (int i = 0; i < areas.size(); i++) {
                PlanFile.Entry e = areas.get(i);
                targets[i] = resolve(root, e);
                wasReadOnly[i] = readOnlyMount(targets[i], e.path()); // a protected path, a read-only file system
                try {
                    trees[i] = (int) LibC.syscall(LinuxAbi.SYS_OPEN_TREE, targets[i], "",
                            Binds.OPEN_TREE_CLONE | LinuxAbi.O_CLOEXEC | LinuxAbi.AT_EMPTY_PATH | LinuxAbi.AT_RECURSIVE);
                } catch (LastErrorException x) {
                    throw new StageException("cannot clone the mount at the writable area " + e.path() + ": " + Binds.err(x)
                            + " (open_tree)");
                }
            }
            // EBUSY would mean a file open for writing through one of this namespace's mounts (fs/namespace.c
            // mnt_hold_writers); the namespace is this thread's own, made above, and nothing has opened one since
            try {
                Binds.makeReadOnly(root);
            } catch (LastErrorException x) {
                throw new StageException("cannot make the file system read-only outside the writable areas: " + Binds.err(x)
                        + " (mount_setattr)");
            }
            for (int i = 0; i < areas.size(); i++) {
                try {
                    LibC.syscall(LinuxAbi.SYS_MOVE_MOUNT, trees[i], "", targets[i], "",
                            Binds.MOVE_MOUNT_F_EMPTY_PATH | Binds.MOVE_MOUNT_T_EMPTY_PATH);
                } catch (LastErrorException x) {
                    throw new StageException("cannot put the writable area " + areas.get(i).path() + " back: " + Binds.err(x)
                            + " (move_mount)");
                }
            }
        } finally {
            for (int i = 0; i < areas.size(); i++) {
                if (trees[i] >= 0) {
                    close(trees[i]);
                }
                if (targets[i] >= 0) {
                    close(targets[i]);
                }
            }
            close(root);
        }
        int again = openRoot();
        try {
            if (!readOnlyMount(again, "/")) {
                throw new StageException("after the confinement, / is still writable (fstatfs)");
            }
            for (int i = 0; i < areas.size(); i++) {
                PlanFile.Entry e = areas.get(i);
                int fd = resolve(again, e);
                try {
                    if (readOnlyMount(fd, e.path()) != wasReadOnly[i]) {
                        throw new StageException("after the confinement, the writable area " + e.path()
                                + " is read-only (fstatfs), and was not before");
                    }
                } finally {
                    close(fd);
                }
            }
        } finally {
            close(again);
        }
    }

    /** close(2) of a descriptor the stage owns (O_PATH or read-only): nothing can be lost, a failure is ignored. */
    static void close(int fd) {
        LibC.close(fd);
    }
}
