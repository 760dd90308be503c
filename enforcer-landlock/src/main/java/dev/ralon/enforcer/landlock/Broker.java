package dev.ralon.enforcer.landlock;

import dev.ralon.linux.LibC;
import dev.ralon.linux.LinuxAbi;
import dev.ralon.linux.SeccompNotify;

import com.sun.jna.Native;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The broker for Landlock's create-restricted directories (docs/backend-landlock.md, "The broker"): a process outside
 * the command's Landlock domain that makes the directories and files the domain over-blocks, and only those.
 *
 * <p>Landlock rules only grant, so every directory on the way to a protected path is create-restricted: no entry can
 * be made, removed or renamed in it, unprotected or not ({@link dev.ralon.enforcer.spi.Plan#createRestricted()}).
 * Under a seccomp filter that sends {@code mkdir}, {@code mkdirat}, {@code creat} and the opens that write or create
 * ({@link #calls()}) to this broker, each such call waits in the kernel, and the broker
 * <ul>
 *   <li>performs it when its parent directory is a create-restricted directory or one the broker made, the name is
 *       one plain component, the path is not protected and not on the way to a protected path, and the file opened
 *       is not a protected file (by device and inode: a hard link does not pass); the opened descriptor is installed
 *       in the caller (SECCOMP_IOCTL_NOTIF_ADDFD), so the caller writes through it as if it had opened it;</li>
 *   <li>refuses with EACCES a protected name, as the domain would;</li>
 *   <li>lets the kernel run everything else ({@code SECCOMP_USER_NOTIF_FLAG_CONTINUE}): the Landlock domain still
 *       decides those, so a call the broker does not understand is never let through by it.</li>
 * </ul>
 *
 * <h2>Why each race is closed</h2>
 * <ul>
 *   <li>The path is read once from the caller's memory ({@link SeccompNotify#readString}), and the call's id is
 *       checked afterwards; the broker judges and acts on its copy only. A thread that changes the string later
 *       changes nothing.</li>
 *   <li>The parent directory is opened by the broker without following any symbolic link (openat2
 *       RESOLVE_NO_SYMLINKS) and judged by its device and inode, not by its name; the entry is then made relative to
 *       that descriptor. A directory renamed or swapped for a link between the judging and the act is either the
 *       same directory (then the judgement holds) or refused by the resolution.</li>
 *   <li>The last component is opened with O_NOFOLLOW: a symbolic link there is left to the kernel (CONTINUE), where
 *       the domain judges its target. O_TRUNC is applied only after the opened file was checked, so a protected file
 *       reached through a hard link is never truncated.</li>
 * </ul>
 *
 * <p>Not done yet (issue #35): removal and renames ({@code unlinkat}, {@code renameat2}), which {@code sed -i} and
 * editors need; the process that runs the broker beside the command; {@code openat2} (left to the domain). Until
 * then the landlock backend does not use this class.
 */
final class Broker {
    // System call numbers: arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h (aarch64 has
    // no open, creat or mkdir: only the *at forms)
    static final int NR_OPEN = 2;
    static final int NR_CREAT = 85;
    static final int NR_MKDIR = 83;
    static final int NR_OPENAT = LinuxAbi.ARM64 ? 56 : 257;
    static final int NR_MKDIRAT = LinuxAbi.ARM64 ? 34 : 258;

    // include/uapi/asm-generic/fcntl.h (the same on both architectures)
    static final int O_WRONLY = 01;
    static final int O_RDWR = 02;
    static final int O_CREAT = 0100;
    static final int O_TRUNC = 01000;
    static final int WRITE_OR_CREATE = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC;

    private static final int EACCES = LinuxAbi.EACCES;
    private static final int RESOLVE_NO_SYMLINKS = 0x04; // include/uapi/linux/openat2.h

    /** Directories whose entries the broker may make, by identity, with their absolute path. */
    private final Map<LinuxCalls.Id, Path> parents = new ConcurrentHashMap<>();
    private final Set<Path> protectedPaths;
    private final Set<Path> onTheWay = new HashSet<>();
    private final Set<LinuxCalls.Id> protectedFiles = new HashSet<>();

    /**
     * A broker for {@code createRestricted} directories (absolute, real) under a plan protecting
     * {@code protectedPaths} (absolute, real; absent ones included).
     */
    Broker(Collection<Path> createRestricted, Collection<Path> protectedPaths) {
        this.protectedPaths = Set.copyOf(protectedPaths);
        for (Path p : protectedPaths) {
            for (Path a = p.getParent(); a != null; a = a.getParent()) {
                onTheWay.add(a);
            }
            LinuxCalls.Id id = identity(p, false);
            if (id != null) {
                protectedFiles.add(id);
            }
        }
        for (Path d : createRestricted) {
            LinuxCalls.Id id = identity(d, true);
            if (id != null) {
                parents.put(id, d);
            }
        }
    }

    /** The calls the broker's filter sends it (the opens only when they may write or create). */
    static List<SeccompNotify.Notified> calls() {
        List<SeccompNotify.Notified> calls = new ArrayList<>();
        calls.add(SeccompNotify.Notified.always(NR_MKDIRAT));
        calls.add(SeccompNotify.Notified.whenFlags(NR_OPENAT, 2, WRITE_OR_CREATE));
        if (!LinuxAbi.ARM64) {
            calls.add(SeccompNotify.Notified.always(NR_MKDIR));
            calls.add(SeccompNotify.Notified.always(NR_CREAT));
            calls.add(SeccompNotify.Notified.whenFlags(NR_OPEN, 1, WRITE_OR_CREATE));
        }
        return calls;
    }

    /** Serves the calls on {@code listener} until no process is left under the filter or {@code running} says stop. */
    void serve(int listener, BooleanSupplier running) throws IOException {
        while (running.getAsBoolean()) {
            SeccompNotify.Call c = SeccompNotify.receive(listener, 500);
            if (c == null) {
                if (hungUp(listener)) {
                    return;
                }
                continue;
            }
            try {
                handle(listener, c);
            } catch (RuntimeException e) {
                SeccompNotify.answer(listener, c.id(), 0, 0, true); // the domain decides: never more than it allows
            }
        }
    }

    private static boolean hungUp(int listener) {
        com.sun.jna.Memory pfd = new com.sun.jna.Memory(8);
        pfd.setInt(0, listener);
        pfd.setShort(4, (short) 1);
        pfd.setShort(6, (short) 0);
        int r = LibC.poll(pfd, 1, 0);
        return r > 0 && (pfd.getShort(6) & 0x10) != 0; // POLLHUP
    }

    /** The call, decoded: the directory it is relative to, the path's address, the open flags and the mode. */
    private record Request(boolean mkdir, int dirfd, long path, int flags, int mode) {
    }

    private static Request decode(SeccompNotify.Call c) {
        long[] a = c.args();
        int nr = c.nr();
        if (nr == NR_MKDIRAT) {
            return new Request(true, (int) a[0], a[1], 0, (int) a[2]);
        }
        if (nr == NR_OPENAT) {
            return new Request(false, (int) a[0], a[1], (int) a[2], (int) a[3]);
        }
        if (!LinuxAbi.ARM64 && nr == NR_MKDIR) {
            return new Request(true, LinuxAbi.AT_FDCWD, a[0], 0, (int) a[1]);
        }
        if (!LinuxAbi.ARM64 && nr == NR_OPEN) {
            return new Request(false, LinuxAbi.AT_FDCWD, a[0], (int) a[1], (int) a[2]);
        }
        if (!LinuxAbi.ARM64 && nr == NR_CREAT) {
            return new Request(false, LinuxAbi.AT_FDCWD, a[0], O_CREAT | O_WRONLY | O_TRUNC, (int) a[1]);
        }
        return null;
    }

    private void handle(int listener, SeccompNotify.Call c) {
        Request r = decode(c);
        byte[] raw = r == null ? null : SeccompNotify.readString(c.pid(), r.path());
        if (raw == null || !SeccompNotify.stillWaiting(listener, c.id())) {
            SeccompNotify.answer(listener, c.id(), 0, 0, true);
            return;
        }
        Path full = absolute(c.pid(), r.dirfd(), raw);
        Path parent = full == null ? null : full.getParent();
        Path last = full == null ? null : full.getFileName();
        if (parent == null || last == null) {
            SeccompNotify.answer(listener, c.id(), 0, 0, true);
            return;
        }
        int dirFd = openDirectory(parent);
        if (dirFd < 0) {
            SeccompNotify.answer(listener, c.id(), 0, 0, true); // a link on the way, or no such directory: the kernel's
            return;
        }
        try {
            LinuxCalls.Stat st = LinuxCalls.fstat(dirFd);
            Path known = st == null ? null : parents.get(new LinuxCalls.Id(st.dev(), st.ino()));
            if (known == null) {
                SeccompNotify.answer(listener, c.id(), 0, 0, true); // not over-blocked here: the domain decides
                return;
            }
            byte[] name = last.toString().getBytes(StandardCharsets.UTF_8);
            Path judged = known.resolve(last.toString());
            if (protectedPaths.contains(judged) || onTheWay.contains(judged)) {
                SeccompNotify.answer(listener, c.id(), 0, EACCES, false);
                return;
            }
            int umask = umask(c.pid());
            if (r.mkdir()) {
                int rc = LibC.mkdirat(dirFd, cString(name), r.mode() & ~umask & 07777);
                if (rc != 0) {
                    SeccompNotify.answer(listener, c.id(), 0, Native.getLastError(), false);
                    return;
                }
                LinuxCalls.Stat made = LinuxCalls.statAt(dirFd, cString(name));
                if (made != null && made.isDirectory()) {
                    parents.put(new LinuxCalls.Id(made.dev(), made.ino()), judged);
                }
                SeccompNotify.answer(listener, c.id(), 0, 0, false);
                return;
            }
            open(listener, c, r, dirFd, name, umask);
        } finally {
            LibC.close(dirFd);
        }
    }

    private void open(int listener, SeccompNotify.Call c, Request r, int dirFd, byte[] name, int umask) {
        int flags = (r.flags() & ~O_TRUNC) | LinuxAbi.O_NOFOLLOW | LinuxAbi.O_CLOEXEC;
        int fd = LibC.openat(dirFd, cString(name), flags, r.mode() & ~umask & 07777);
        if (fd < 0) {
            int errno = Native.getLastError();
            // ELOOP: the name is a symbolic link; the domain judges where it leads
            SeccompNotify.answer(listener, c.id(), 0, errno == LinuxAbi.ELOOP ? 0 : errno, errno == LinuxAbi.ELOOP);
            return;
        }
        try {
            LinuxCalls.Stat st = LinuxCalls.fstat(fd);
            if (st == null || protectedFiles.contains(new LinuxCalls.Id(st.dev(), st.ino()))) {
                SeccompNotify.answer(listener, c.id(), 0, EACCES, false); // a hard link to a protected file
                return;
            }
            if ((r.flags() & O_TRUNC) != 0 && st.isRegular() && LibC.ftruncate(fd, 0) != 0) {
                SeccompNotify.answer(listener, c.id(), 0, Native.getLastError(), false);
                return;
            }
            if (SeccompNotify.answerWithDescriptor(listener, c.id(), fd,
                    (r.flags() & LinuxAbi.O_CLOEXEC) != 0) < 0) {
                SeccompNotify.answer(listener, c.id(), 0, Native.getLastError(), false);
            }
        } finally {
            LibC.close(fd);
        }
    }

    /**
     * The absolute, lexically normal path the caller named: {@code raw} relative to its directory descriptor or
     * working directory (read through /proc/PID/fd and /proc/PID/cwd, proc(5)). Null when it cannot be read, is not
     * UTF-8, or has a {@code .} or {@code ..} component or an empty last one (left to the kernel).
     */
    static Path absolute(int pid, int dirfd, byte[] raw) {
        String s = new String(raw, StandardCharsets.UTF_8);
        if (!java.util.Arrays.equals(s.getBytes(StandardCharsets.UTF_8), raw) || s.isEmpty() || s.endsWith("/")) {
            return null;
        }
        for (String part : s.split("/", -1)) {
            if (part.equals(".") || part.equals("..")) {
                return null;
            }
        }
        try {
            if (s.startsWith("/")) {
                return Path.of(s).normalize();
            }
            Path base = Files.readSymbolicLink(Path.of("/proc", Integer.toString(pid),
                    dirfd == LinuxAbi.AT_FDCWD ? "cwd" : "fd/" + dirfd));
            return base.isAbsolute() ? base.resolve(s).normalize() : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** An O_PATH descriptor of the directory {@code p}, no symbolic link followed anywhere; -1 on failure. */
    private static int openDirectory(Path p) {
        com.sun.jna.Memory how = new com.sun.jna.Memory(24); // struct open_how { u64 flags; u64 mode; u64 resolve; }
        how.clear();
        how.setLong(0, LinuxAbi.O_PATH | LinuxAbi.O_DIRECTORY | LinuxAbi.O_CLOEXEC);
        how.setLong(16, RESOLVE_NO_SYMLINKS);
        try {
            return (int) LibC.syscall(LinuxAbi.SYS_OPENAT2, LinuxAbi.AT_FDCWD, p.toString(), how, 24L);
        } catch (com.sun.jna.LastErrorException e) {
            return -1;
        } finally {
            java.lang.ref.Reference.reachabilityFence(how);
        }
    }

    /** The caller's umask (proc(5), /proc/PID/status "Umask:", Linux 4.7), or 022 when unreadable. */
    static int umask(int pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Integer.toString(pid), "status"))) {
                if (line.startsWith("Umask:")) {
                    return Integer.parseInt(line.substring(6).trim(), 8);
                }
            }
        } catch (IOException | RuntimeException e) {
            // below
        }
        return 022;
    }

    private static LinuxCalls.Id identity(Path p, boolean directory) {
        int fd = LibC.openat(LinuxAbi.AT_FDCWD, cString(p.toString().getBytes(StandardCharsets.UTF_8)),
                LinuxAbi.O_PATH | LinuxAbi.O_NOFOLLOW | LinuxAbi.O_CLOEXEC | (directory ? LinuxAbi.O_DIRECTORY : 0));
        if (fd < 0) {
            return null;
        }
        try {
            LinuxCalls.Stat st = LinuxCalls.fstat(fd);
            return st == null ? null : new LinuxCalls.Id(st.dev(), st.ino());
        } finally {
            LibC.close(fd);
        }
    }

    private static byte[] cString(byte[] s) {
        return java.util.Arrays.copyOf(s, s.length + 1);
    }
}
