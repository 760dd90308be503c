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
 * Under a seccomp filter that sends {@code mkdir}, {@code creat}, the opens that write or create, removals and
 * renames ({@link #calls()}) to this broker, each such call waits in the kernel, and the broker
 * <ul>
 *   <li>performs it when its parent directory (both, for a rename) is a create-restricted directory or one the broker
 *       made, the name is one plain component, the path is not protected and not on the way to a protected path, and
 *       the file opened, removed, moved or replaced is not a protected file (by device and inode: a hard link does
 *       not pass); an opened descriptor is installed in the caller (SECCOMP_IOCTL_NOTIF_ADDFD), so the caller writes
 *       through it as if it had opened it;</li>
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
 *   <li>The parent directory is opened by the broker and judged by its device and inode, not by the name that led
 *       to it; the entry is then made relative to that descriptor. A directory renamed or swapped between the
 *       judging and the act is either the same directory (then the judgement holds) or another one, judged as
 *       itself. The other side of a rename out of or into a served directory is judged by path, resolved with no
 *       symbolic link anywhere (openat2 RESOLVE_NO_SYMLINKS), beneath a served directory only.</li>
 *   <li>The broker resolves names in its own context, so a name whose meaning depends on the caller's context is never
 *       judged here: a {@code ..} component (it depends on links on the way) and magic links ({@code /proc/self/cwd},
 *       {@code /proc/PID/fd/N}: opened with RESOLVE_NO_MAGICLINKS, they fail) are left to the kernel, which walks
 *       them in the caller's context inside the domain. A relative name is resolved against the caller's working
 *       directory or descriptor as /proc/PID shows it; if that directory moves meanwhile, the parent opened is judged
 *       as itself (above), so a wrong turn can only make an unprotected name in a served directory.</li>
 *   <li>The last component is opened with O_NOFOLLOW: a symbolic link there is left to the kernel (CONTINUE), where
 *       the domain judges its target. O_TRUNC is applied only after the opened file was checked, so a protected file
 *       reached through a hard link is never truncated.</li>
 * </ul>
 *
 * <p>Links, FIFOs and exchanges are judged as the creations are: a symbolic link ({@code symlinkat}) is made when its
 * own name may be (what it points at is judged by the domain whenever it is followed: a later write through it to a
 * protected file is refused there); a hard link ({@code linkat} without flags) only when its new name may be made and
 * its source lies beneath a served directory, resolved with no symbolic link anywhere, is not protected nor beneath a
 * protected directory, and is not another name of a protected file (by device and inode): a hard link shares the
 * inode, and one to a file outside the writable places would make that file writable through the project; a FIFO
 * ({@code mknodat} with S_IFIFO) as a file; {@code RENAME_EXCHANGE} when both names may be replaced, as a rename over
 * each other.
 *
 * <p>Left to the domain (so refused in a create-restricted directory, as without the broker): {@code openat2},
 * {@code linkat} with {@code AT_SYMLINK_FOLLOW} or {@code AT_EMPTY_PATH}, a hard link whose source is not judged as
 * above, {@code mknodat} of anything but a FIFO, {@code RENAME_WHITEOUT}, and renames out of or into a directory the
 * broker neither serves nor finds beneath a served one. {@link BrokerProcess} runs it beside the command.
 */
final class Broker {
    // System call numbers: arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h (aarch64 has
    // no open, creat or mkdir: only the *at forms)
    static final int NR_OPEN = 2;
    static final int NR_CREAT = 85;
    static final int NR_MKDIR = 83;
    static final int NR_OPENAT = LinuxAbi.ARM64 ? 56 : 257;
    static final int NR_MKDIRAT = LinuxAbi.ARM64 ? 34 : 258;
    static final int NR_UNLINK = 87;
    static final int NR_RMDIR = 84;
    static final int NR_RENAME = 82;
    static final int NR_RENAMEAT = 264; // x86_64 only: aarch64 has renameat2 alone
    static final int NR_UNLINKAT = LinuxAbi.ARM64 ? 35 : 263;
    static final int NR_RENAMEAT2 = LinuxAbi.ARM64 ? 276 : 316;
    static final int NR_SYMLINKAT = LinuxAbi.ARM64 ? 36 : 266;
    static final int NR_LINKAT = LinuxAbi.ARM64 ? 37 : 265;
    static final int NR_MKNODAT = LinuxAbi.ARM64 ? 33 : 259;
    static final int NR_SYMLINK = 88; // x86_64 only, as the three below
    static final int NR_LINK = 86;
    static final int NR_MKNOD = 133;
    static final int AT_REMOVEDIR = 0x200; // include/uapi/linux/fcntl.h
    static final int RENAME_NOREPLACE = 1; // include/uapi/linux/fs.h; RENAME_WHITEOUT (4) is left to the kernel
    static final int RENAME_EXCHANGE = 2;
    static final int S_IFIFO = 0010000; // include/uapi/linux/stat.h

    // include/uapi/asm-generic/fcntl.h (the same on both architectures)
    static final int O_WRONLY = 01;
    static final int O_RDWR = 02;
    static final int O_CREAT = 0100;
    static final int O_TRUNC = 01000;
    static final int WRITE_OR_CREATE = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC;

    private static final int EACCES = LinuxAbi.EACCES;
    private static final int RESOLVE_NO_SYMLINKS = 0x04; // include/uapi/linux/openat2.h
    private static final int RESOLVE_NO_MAGICLINKS = 0x02; // include/uapi/linux/openat2.h

    /**
     * Directories whose entries the broker may make, by identity, with their absolute path and an O_PATH descriptor
     * the broker keeps open: a held inode is never reused, so an identity here can never come to name another
     * directory (one made elsewhere after this one was removed by a process the broker does not see).
     */
    private final Map<LinuxCalls.Id, Known> parents = new ConcurrentHashMap<>();

    private record Known(Path path, int fd) {
    }
    private final Set<Path> protectedPaths;
    /** The directories served from the start: a rename may cross from one of them to a directory beneath them. */
    private final List<Path> scope;
    private final Set<Path> onTheWay = new HashSet<>();
    private final Set<LinuxCalls.Id> protectedFiles = new HashSet<>();

    /**
     * A broker for {@code createRestricted} directories (absolute, real) under a plan protecting
     * {@code protectedPaths} (absolute, real; absent ones included).
     */
    Broker(Collection<Path> createRestricted, Collection<Path> protectedPaths) {
        this.protectedPaths = Set.copyOf(protectedPaths);
        this.scope = List.copyOf(createRestricted);
        for (Path p : protectedPaths) {
            for (Path a = p.getParent(); a != null; a = a.getParent()) {
                onTheWay.add(a);
            }
            LinuxCalls.Id id = identity(p);
            if (id != null) {
                protectedFiles.add(id);
            }
        }
        for (Path d : createRestricted) {
            if (protectedPaths.contains(d)) {
                continue; // a protected directory is read-only as a whole: nothing is made in it
            }
            int fd = LibC.openat(LinuxAbi.AT_FDCWD, cString(d.toString().getBytes(StandardCharsets.UTF_8)),
                    LinuxAbi.O_PATH | LinuxAbi.O_NOFOLLOW | LinuxAbi.O_CLOEXEC | LinuxAbi.O_DIRECTORY);
            LinuxCalls.Stat st = fd < 0 ? null : LinuxCalls.fstat(fd);
            if (st == null) {
                if (fd >= 0) {
                    LibC.close(fd);
                }
                continue;
            }
            parents.put(new LinuxCalls.Id(st.dev(), st.ino()), new Known(d, fd));
        }
    }

    /** The calls the broker's filter sends it (the opens only when they may write or create). */
    static List<SeccompNotify.Notified> calls() {
        List<SeccompNotify.Notified> calls = new ArrayList<>();
        calls.add(SeccompNotify.Notified.always(NR_MKDIRAT));
        calls.add(SeccompNotify.Notified.always(NR_UNLINKAT));
        calls.add(SeccompNotify.Notified.always(NR_RENAMEAT2));
        calls.add(SeccompNotify.Notified.always(NR_SYMLINKAT));
        calls.add(SeccompNotify.Notified.always(NR_LINKAT));
        calls.add(SeccompNotify.Notified.always(NR_MKNODAT));
        calls.add(SeccompNotify.Notified.whenFlags(NR_OPENAT, 2, WRITE_OR_CREATE));
        if (!LinuxAbi.ARM64) {
            calls.add(SeccompNotify.Notified.always(NR_SYMLINK));
            calls.add(SeccompNotify.Notified.always(NR_LINK));
            calls.add(SeccompNotify.Notified.always(NR_MKNOD));
            calls.add(SeccompNotify.Notified.always(NR_MKDIR));
            calls.add(SeccompNotify.Notified.always(NR_CREAT));
            calls.add(SeccompNotify.Notified.always(NR_UNLINK));
            calls.add(SeccompNotify.Notified.always(NR_RMDIR));
            calls.add(SeccompNotify.Notified.always(NR_RENAME));
            calls.add(SeccompNotify.Notified.always(NR_RENAMEAT));
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

    private static boolean hungUp(int listener) throws IOException {
        return dev.ralon.linux.Poll.await(listener, 0) == dev.ralon.linux.Poll.Readiness.HUNG_UP;
    }

    /** What a call asks for. */
    enum Kind { MKDIR, OPEN, UNLINK, RENAME, SYMLINK, LINK, MKNOD }

    /**
     * The call, decoded: its kind, the directory it is relative to, the path's address, the flags (open's, unlinkat's,
     * renameat2's or linkat's) and the mode (mknod's with the file type); for a rename the new name's directory and
     * address too, for a hard link (whose path is the new name) the source's, for a symbolic link (whose path is the
     * link's name) the address of what it points at.
     */
    private record Request(Kind kind, int dirfd, long path, int flags, int mode, int newDirfd, long newPath) {
        Request(Kind kind, int dirfd, long path, int flags, int mode) {
            this(kind, dirfd, path, flags, mode, 0, 0);
        }

        boolean mkdir() {
            return kind == Kind.MKDIR;
        }
    }

    private static Request decode(SeccompNotify.Call c) {
        long[] a = c.args();
        int nr = c.nr();
        int cwd = LinuxAbi.AT_FDCWD;
        if (nr == NR_MKDIRAT) {
            return new Request(Kind.MKDIR, (int) a[0], a[1], 0, (int) a[2]);
        }
        if (nr == NR_OPENAT) {
            return new Request(Kind.OPEN, (int) a[0], a[1], (int) a[2], (int) a[3]);
        }
        if (nr == NR_UNLINKAT) {
            return new Request(Kind.UNLINK, (int) a[0], a[1], (int) a[2], 0);
        }
        if (nr == NR_RENAMEAT2) {
            return new Request(Kind.RENAME, (int) a[0], a[1], (int) a[4], 0, (int) a[2], a[3]);
        }
        if (nr == NR_SYMLINKAT) { // symlinkat(target, newdirfd, linkpath)
            return new Request(Kind.SYMLINK, (int) a[1], a[2], 0, 0, 0, a[0]);
        }
        if (nr == NR_LINKAT) { // linkat(olddirfd, oldpath, newdirfd, newpath, flags)
            return new Request(Kind.LINK, (int) a[2], a[3], (int) a[4], 0, (int) a[0], a[1]);
        }
        if (nr == NR_MKNODAT) {
            return new Request(Kind.MKNOD, (int) a[0], a[1], 0, (int) a[2]);
        }
        if (LinuxAbi.ARM64) {
            return null;
        }
        if (nr == NR_MKDIR) {
            return new Request(Kind.MKDIR, cwd, a[0], 0, (int) a[1]);
        }
        if (nr == NR_OPEN) {
            return new Request(Kind.OPEN, cwd, a[0], (int) a[1], (int) a[2]);
        }
        if (nr == NR_CREAT) {
            return new Request(Kind.OPEN, cwd, a[0], O_CREAT | O_WRONLY | O_TRUNC, (int) a[1]);
        }
        if (nr == NR_UNLINK) {
            return new Request(Kind.UNLINK, cwd, a[0], 0, 0);
        }
        if (nr == NR_RMDIR) {
            return new Request(Kind.UNLINK, cwd, a[0], AT_REMOVEDIR, 0);
        }
        if (nr == NR_RENAME) {
            return new Request(Kind.RENAME, cwd, a[0], 0, 0, cwd, a[1]);
        }
        if (nr == NR_RENAMEAT) {
            return new Request(Kind.RENAME, (int) a[0], a[1], 0, 0, (int) a[2], a[3]);
        }
        if (nr == NR_SYMLINK) {
            return new Request(Kind.SYMLINK, cwd, a[1], 0, 0, 0, a[0]);
        }
        if (nr == NR_LINK) {
            return new Request(Kind.LINK, cwd, a[1], 0, 0, cwd, a[0]);
        }
        if (nr == NR_MKNOD) {
            return new Request(Kind.MKNOD, cwd, a[0], 0, (int) a[1]);
        }
        return null;
    }

    /**
     * A name the broker judged: its parent directory (opened here, to act relative to it) and the name in it;
     * {@code refused} when the name is protected or on the way to a protected path.
     */
    private record Target(int dirFd, Path judged, byte[] name, boolean refused) {
    }

    /**
     * The target of {@code raw} as process {@code pid} named it relative to {@code dirfd}, or null when the broker does
     * not judge it (the kernel, and so the domain, then decides): not a plain name in a known directory. The caller
     * closes the target's directory.
     */
    private Target target(int pid, int dirfd, byte[] raw) {
        Path full = raw == null ? null : absolute(pid, dirfd, raw);
        Path parent = full == null ? null : full.getParent();
        Path last = full == null ? null : full.getFileName();
        if (parent == null || last == null) {
            return null;
        }
        // The directory is judged by its identity, not by the name that led to it: links on the way may be followed,
        // but never a magic link (proc(5): /proc/self/cwd, /proc/PID/fd/N, ...): resolved here, it would name the
        // broker's own directory or descriptor, not the caller's (openat2(2) RESOLVE_NO_MAGICLINKS: ELOOP). Such a path
        // is left to the kernel, which walks it in the caller's context, and the domain decides.
        int dirFd = openDirectory(parent, RESOLVE_NO_MAGICLINKS);
        if (dirFd < 0) {
            return null; // no such directory, or a magic link on the way
        }
        LinuxCalls.Stat st = LinuxCalls.fstat(dirFd);
        Path known = st == null ? null : knownPath(new LinuxCalls.Id(st.dev(), st.ino()));
        if (known == null) {
            LibC.close(dirFd);
            return null; // not over-blocked here
        }
        Path judged = known.resolve(last.toString());
        return new Target(dirFd, judged, last.toString().getBytes(StandardCharsets.UTF_8),
                protectedPaths.contains(judged) || onTheWay.contains(judged));
    }

    /**
     * For the other side of a rename whose one side the broker serves: {@code raw} in a directory it does not serve,
     * judged by path (resolved with no symbolic link anywhere, openat2 RESOLVE_NO_SYMLINKS, so the path read is the
     * place), accepted only beneath a served directory (inside the project or a temporary directory) and refused when
     * protected, on the way to a protected path or beneath one (a protected directory). Null when not judged.
     */
    private Target scopedTarget(int pid, int dirfd, byte[] raw) {
        Path full = raw == null ? null : absolute(pid, dirfd, raw);
        Path parent = full == null ? null : full.getParent();
        Path last = full == null ? null : full.getFileName();
        if (parent == null || last == null || scope.stream().noneMatch(full::startsWith)) {
            return null;
        }
        int dirFd = openDirectory(parent, RESOLVE_NO_SYMLINKS);
        if (dirFd < 0) {
            return null; // a link on the way, or no such directory
        }
        boolean refused = protectedPaths.stream().anyMatch(full::startsWith) || onTheWay.contains(full);
        return new Target(dirFd, full, last.toString().getBytes(StandardCharsets.UTF_8), refused);
    }

    private void handle(int listener, SeccompNotify.Call c) {
        Request r = decode(c);
        byte[] raw = r == null ? null : SeccompNotify.readString(c.pid(), r.path());
        boolean second = r != null && (r.kind() == Kind.RENAME || r.kind() == Kind.LINK || r.kind() == Kind.SYMLINK);
        byte[] rawNew = second ? SeccompNotify.readString(c.pid(), r.newPath()) : null;
        if (raw == null || (second && rawNew == null) || !SeccompNotify.stillWaiting(listener, c.id())) {
            SeccompNotify.answer(listener, c.id(), 0, 0, true);
            return;
        }
        Target t = target(c.pid(), r.dirfd(), raw);
        if (t == null && r.kind() == Kind.RENAME) {
            Target into = target(c.pid(), r.newDirfd(), rawNew);
            if (into != null) { // into a served directory, from elsewhere in the project
                LibC.close(into.dirFd());
                t = scopedTarget(c.pid(), r.dirfd(), raw);
            }
        }
        if (t == null) {
            SeccompNotify.answer(listener, c.id(), 0, 0, true); // the domain decides
            return;
        }
        try {
            if (t.refused() && !(r.mkdir() && !protectedPaths.contains(t.judged()))) {
                // a directory on the way to a protected path may be made empty (an agent's ~/.claude): what is then
                // made in it is judged in turn, and it can never be renamed or removed by the broker
                SeccompNotify.answer(listener, c.id(), 0, EACCES, false);
                return;
            }
            switch (r.kind()) {
                case MKDIR -> mkdir(listener, c, r, t);
                case OPEN -> open(listener, c, r, t.dirFd(), t.name(), umask(c.pid()));
                case UNLINK -> unlink(listener, c, r, t);
                case RENAME -> rename(listener, c, r, t, rawNew);
                case SYMLINK -> symlink(listener, c, t, rawNew);
                case LINK -> link(listener, c, r, t, rawNew);
                case MKNOD -> mknod(listener, c, r, t);
            }
        } finally {
            LibC.close(t.dirFd());
        }
    }

    private void mkdir(int listener, SeccompNotify.Call c, Request r, Target t) {
        if (LibC.mkdirat(t.dirFd(), cString(t.name()), r.mode() & ~umask(c.pid()) & 07777) != 0) {
            SeccompNotify.answer(listener, c.id(), 0, Native.getLastError(), false);
            return;
        }
        remember(t.dirFd(), t.name(), t.judged());
        SeccompNotify.answer(listener, c.id(), 0, 0, false);
    }

    /** A symbolic link named as {@code t} says, pointing at {@code content} (any bytes: judged when it is followed). */
    private static void symlink(int listener, SeccompNotify.Call c, Target t, byte[] content) {
        if (LibC.symlinkat(cString(content), t.dirFd(), cString(t.name())) != 0) {
            SeccompNotify.answer(listener, c.id(), 0, Native.getLastError(), false);
            return;
        }
        SeccompNotify.answer(listener, c.id(), 0, 0, false);
    }

    /**
     * A hard link named as {@code t} says to the source {@code rawSource}: only without flags (a link followed or a
     * descriptor: the domain's), and only from a source judged as {@link #scopedTarget} judges (beneath a served
     * directory, no symbolic link on the way, not protected nor beneath a protected directory) that is neither a
     * directory nor another name of a protected file. The link is made from the descriptor judged, the name in it not
     * followed (linkat without AT_SYMLINK_FOLLOW links a symbolic link itself).
     */
    private void link(int listener, SeccompNotify.Call c, Request r, Target t, byte[] rawSource) {
        if (r.flags() != 0) {
            SeccompNotify.answer(listener, c.id(), 0, 0, true);
            return;
        }
        Target from = scopedTarget(c.pid(), r.newDirfd(), rawSource);
        if (from == null) {
            SeccompNotify.answer(listener, c.id(), 0, 0, true); // a source the broker does not judge: the domain's
            return;
        }
        try {
            LinuxCalls.Stat st = LinuxCalls.statAt(from.dirFd(), cString(from.name()));
            if (from.refused() || st == null || protectedFiles.contains(new LinuxCalls.Id(st.dev(), st.ino()))) {
                SeccompNotify.answer(listener, c.id(), 0, st == null ? LinuxAbi.ENOENT : EACCES, false);
                return;
            }
            if (LibC.linkat(from.dirFd(), cString(from.name()), t.dirFd(), cString(t.name()), 0) != 0) {
                SeccompNotify.answer(listener, c.id(), 0, Native.getLastError(), false);
                return;
            }
            SeccompNotify.answer(listener, c.id(), 0, 0, false);
        } finally {
            LibC.close(from.dirFd());
        }
    }

    /** A FIFO named as {@code t} says; any other file type (devices, sockets, regular files) is the domain's. */
    private static void mknod(int listener, SeccompNotify.Call c, Request r, Target t) {
        if ((r.mode() & LinuxAbi.S_IFMT) != S_IFIFO) {
            SeccompNotify.answer(listener, c.id(), 0, 0, true);
            return;
        }
        if (LibC.mknodat(t.dirFd(), cString(t.name()), S_IFIFO | (r.mode() & ~umask(c.pid()) & 07777), 0) != 0) {
            SeccompNotify.answer(listener, c.id(), 0, Native.getLastError(), false);
            return;
        }
        SeccompNotify.answer(listener, c.id(), 0, 0, false);
    }

    private void unlink(int listener, SeccompNotify.Call c, Request r, Target t) {
        if ((r.flags() & ~AT_REMOVEDIR) != 0) {
            SeccompNotify.answer(listener, c.id(), 0, 0, true);
            return;
        }
        LinuxCalls.Stat st = LinuxCalls.statAt(t.dirFd(), cString(t.name()));
        if (st != null && protectedFiles.contains(new LinuxCalls.Id(st.dev(), st.ino()))) {
            SeccompNotify.answer(listener, c.id(), 0, EACCES, false); // another name of a protected file
            return;
        }
        if (LibC.unlinkat(t.dirFd(), cString(t.name()), r.flags()) != 0) {
            SeccompNotify.answer(listener, c.id(), 0, Native.getLastError(), false);
            return;
        }
        if (st != null) {
            forget(new LinuxCalls.Id(st.dev(), st.ino()));
        }
        SeccompNotify.answer(listener, c.id(), 0, 0, false);
    }

    private void rename(int listener, SeccompNotify.Call c, Request r, Target from, byte[] rawNew) {
        if (r.flags() != 0 && r.flags() != RENAME_NOREPLACE && r.flags() != RENAME_EXCHANGE) {
            SeccompNotify.answer(listener, c.id(), 0, 0, true); // RENAME_WHITEOUT, or flags the kernel refuses: its
            return;
        }
        boolean exchange = r.flags() == RENAME_EXCHANGE;
        Target to = target(c.pid(), r.newDirfd(), rawNew);
        if (to == null) {
            to = scopedTarget(c.pid(), r.newDirfd(), rawNew); // out of a served directory, into the project
        }
        if (to == null) {
            SeccompNotify.answer(listener, c.id(), 0, 0, true); // into a place the broker does not judge
            return;
        }
        try {
            if (to.refused() || exchange && from.refused()) {
                // over a protected name; an exchange moves each name over the other, so both are judged so
                SeccompNotify.answer(listener, c.id(), 0, EACCES, false);
                return;
            }
            LinuxCalls.Stat moved = LinuxCalls.statAt(from.dirFd(), cString(from.name()));
            LinuxCalls.Stat replaced = LinuxCalls.statAt(to.dirFd(), cString(to.name()));
            if ((moved != null && protectedFiles.contains(new LinuxCalls.Id(moved.dev(), moved.ino())))
                    || (replaced != null && protectedFiles.contains(new LinuxCalls.Id(replaced.dev(), replaced.ino())))) {
                SeccompNotify.answer(listener, c.id(), 0, EACCES, false);
                return;
            }
            if (LibC.renameat2(from.dirFd(), cString(from.name()), to.dirFd(), cString(to.name()), r.flags()) != 0) {
                SeccompNotify.answer(listener, c.id(), 0, Native.getLastError(), false);
                return;
            }
            if (exchange) {
                exchangeKnown(from.judged(), to.judged());
            } else {
                if (replaced != null) {
                    forget(new LinuxCalls.Id(replaced.dev(), replaced.ino()));
                }
                if (moved != null && moved.isDirectory()) {
                    moveKnown(from.judged(), to.judged());
                }
            }
            SeccompNotify.answer(listener, c.id(), 0, 0, false);
        } finally {
            LibC.close(to.dirFd());
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

    private Path knownPath(LinuxCalls.Id id) {
        Known k = parents.get(id);
        return k == null ? null : k.path();
    }

    /** The directory {@code name} just made in {@code dirFd}: its entries may be made by the broker too. */
    private void remember(int dirFd, byte[] name, Path judged) {
        int fd = LibC.openat(dirFd, cString(name), LinuxAbi.O_PATH | LinuxAbi.O_NOFOLLOW | LinuxAbi.O_CLOEXEC
                | LinuxAbi.O_DIRECTORY);
        LinuxCalls.Stat st = fd < 0 ? null : LinuxCalls.fstat(fd);
        if (st == null) {
            if (fd >= 0) {
                LibC.close(fd);
            }
            return; // not a directory any more: nothing is made in it by the broker
        }
        Known old = parents.put(new LinuxCalls.Id(st.dev(), st.ino()), new Known(judged, fd));
        if (old != null) {
            LibC.close(old.fd());
        }
    }

    /** A directory removed or replaced: no longer known. */
    private void forget(LinuxCalls.Id id) {
        Known k = parents.remove(id);
        if (k != null) {
            LibC.close(k.fd());
        }
    }

    /** A known directory renamed from {@code from} to {@code to}: it and every known directory beneath it move. */
    private void moveKnown(Path from, Path to) {
        for (Map.Entry<LinuxCalls.Id, Known> e : parents.entrySet()) {
            Path p = e.getValue().path();
            if (p.startsWith(from)) {
                e.setValue(new Known(to.resolve(from.relativize(p)), e.getValue().fd()));
            }
        }
    }

    /** Two names exchanged: the known directories beneath each now lie beneath the other. */
    private void exchangeKnown(Path a, Path b) {
        for (Map.Entry<LinuxCalls.Id, Known> e : parents.entrySet()) {
            Path p = e.getValue().path();
            if (p.startsWith(a)) {
                e.setValue(new Known(b.resolve(a.relativize(p)), e.getValue().fd()));
            } else if (p.startsWith(b)) {
                e.setValue(new Known(a.resolve(b.relativize(p)), e.getValue().fd()));
            }
        }
    }

    /**
     * The absolute, lexically normal path the caller named: {@code raw} relative to its directory descriptor or
     * working directory (read through /proc/PID/fd and /proc/PID/cwd, proc(5)). Null when it cannot be read, is not
     * UTF-8, has a {@code ..} component, or names a directory itself ({@code x/}, {@code x/.}): left to the kernel.
     */
    static Path absolute(int pid, int dirfd, byte[] raw) {
        String s = new String(raw, StandardCharsets.UTF_8);
        if (!java.util.Arrays.equals(s.getBytes(StandardCharsets.UTF_8), raw) || s.isEmpty() || s.endsWith("/")
                || s.endsWith("/.") || s.equals(".")) {
            return null;
        }
        for (String part : s.split("/", -1)) {
            if (part.equals("..")) {
                return null; // ".." depends on links on the way: left to the kernel. "." is this directory: dropped
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

    /** An O_PATH descriptor of the directory {@code p} resolved as {@code resolve} says (openat2(2)); -1 on failure. */
    private static int openDirectory(Path p, int resolve) {
        com.sun.jna.Memory how = new com.sun.jna.Memory(24); // struct open_how { u64 flags; u64 mode; u64 resolve; }
        how.clear();
        how.setLong(0, LinuxAbi.O_PATH | LinuxAbi.O_DIRECTORY | LinuxAbi.O_CLOEXEC);
        how.setLong(16, resolve);
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

    /** The (device, inode) of {@code p} itself (a final link not followed), or null when it cannot be opened. */
    private static LinuxCalls.Id identity(Path p) {
        int fd = LibC.openat(LinuxAbi.AT_FDCWD, cString(p.toString().getBytes(StandardCharsets.UTF_8)),
                LinuxAbi.O_PATH | LinuxAbi.O_NOFOLLOW | LinuxAbi.O_CLOEXEC);
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
