package dev.ralon.enforcer.landlock;

import java.util.ArrayList;
import java.util.List;

/**
 * Landlock filesystem access rights (include/uapi/linux/landlock.h, "Filesystem flags") and the ABI that introduced
 * each. This backend handles only filesystem rights: it is about files. Network rights (ABI 4) and scopes (ABI 6)
 * are left unhandled on purpose, so the command keeps its network, signals and abstract sockets.
 */
final class Access {
    static final long EXECUTE = 1L << 0;
    static final long WRITE_FILE = 1L << 1;
    static final long READ_FILE = 1L << 2;
    static final long READ_DIR = 1L << 3;
    static final long REMOVE_DIR = 1L << 4;
    static final long REMOVE_FILE = 1L << 5;
    static final long MAKE_CHAR = 1L << 6;
    static final long MAKE_DIR = 1L << 7;
    static final long MAKE_REG = 1L << 8;
    static final long MAKE_SOCK = 1L << 9;
    static final long MAKE_FIFO = 1L << 10;
    static final long MAKE_BLOCK = 1L << 11;
    static final long MAKE_SYM = 1L << 12;
    /** ABI 2 (Linux 5.19): link or rename a file from or to another directory. */
    static final long REFER = 1L << 13;
    /** ABI 3 (Linux 6.2): truncate(2), ftruncate(2), open(O_TRUNC). */
    static final long TRUNCATE = 1L << 14;
    /** ABI 5 (Linux 6.10): ioctl(2) on character and block devices. */
    static final long IOCTL_DEV = 1L << 15;

    private static final String[] NAMES = {
        "execute", "write-file", "read-file", "read-dir", "remove-dir", "remove-file", "make-char", "make-dir",
        "make-reg", "make-sock", "make-fifo", "make-block", "make-sym", "refer", "truncate", "ioctl-dev"};

    /**
     * What {@code /dev} gets in a confined session: writing, truncating and ioctl on its existing files (the null
     * device, terminals), nothing created or removed.
     */
    static final long DEVICE_WRITE = WRITE_FILE | TRUNCATE | IOCTL_DEV;

    /** What the protected paths and the directories on the way keep: reading, listing, executing. */
    static final long READ_ONLY = EXECUTE | READ_FILE | READ_DIR;

    /**
     * The rights that make sense on a file that is not a directory; landlock_add_rule refuses (EINVAL) a rule on a
     * non-directory carrying any other right (security/landlock/fs.c, landlock_append_fs_rule / ACCESS_FILE).
     */
    static final long FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV;

    private Access() {
    }

    /**
     * Every filesystem right the kernel with this ABI knows: 13 rights in ABI 1, REFER from 2, TRUNCATE from 3,
     * IOCTL_DEV from 5 (ABIs 4, 6, 7 added no filesystem right). Bits the kernel does not know must not be passed:
     * landlock_create_ruleset refuses them with EINVAL. A right added by a future ABI is not handled (so not
     * restricted) until this table learns it.
     */
    static long handledFor(int abi) {
        long rights = (1L << 13) - 1;
        if (abi >= 2) {
            rights |= REFER;
        }
        if (abi >= 3) {
            rights |= TRUNCATE;
        }
        if (abi >= 5) {
            rights |= IOCTL_DEV;
        }
        return rights;
    }

    /** "execute, read-file, read-dir". */
    static String words(long rights) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < NAMES.length; i++) {
            if ((rights & (1L << i)) != 0) {
                out.add(NAMES[i]);
            }
        }
        return String.join(", ", out);
    }
}
