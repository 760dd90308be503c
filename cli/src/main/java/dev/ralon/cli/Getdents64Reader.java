package dev.ralon.cli;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import dev.ralon.linux.LibC;
import dev.ralon.linux.LinuxAbi;
import dev.ralon.policy.walk.DirectoryReader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The walk's {@link DirectoryReader} in the host: {@code getdents64(2)} gives each entry's type ({@code d_type}) with
 * its name, so the walk needs no {@code lstat} per entry to know a directory from a file ({@link java.nio} reads the
 * same records and drops the type). Where the file system does not fill {@code d_type} ({@code DT_UNKNOWN}), the walk
 * asks {@code lstat} for that entry.
 *
 * <p>It answers null (the walk then lists the directory with Java, and reports whatever Java reports) whenever it could
 * not list exactly as Java would: any error from open or getdents64, a name that is not valid UTF-8 (Java would decode
 * it with replacement characters: {@code FileNames.undecodable} needs Java's own path for it), a directory path that
 * holds a replacement character, and a directory that can be listed but not searched (mode {@code r--}: Java cannot
 * read its entries' types, and the walk must say so for a path a rule could match, exactly as before; d_type would
 * tell them). Installed by {@link Main} only when this JVM reads file names as UTF-8.
 *
 * <p>Binding: the one native layer ({@link LibC}, {@link LinuxAbi}); getdents64 through syscall(2).
 */
final class Getdents64Reader implements DirectoryReader {
    // d_type values: include/linux/fs_types.h / dirent.h (DT_FIFO 1, DT_CHR 2, DT_BLK 6, DT_SOCK 12: OTHER)
    private static final int DT_UNKNOWN = 0;
    private static final int DT_DIR = 4;
    private static final int DT_REG = 8;
    private static final int DT_LNK = 10;
    /** linux_dirent64: d_ino u64, d_off s64, d_reclen u16 at 16, d_type u8 at 18, d_name at 19 (getdents64(2)). */
    private static final int RECLEN = 16;
    private static final int TYPE = 18;
    private static final int NAME = 19;

    /**
     * Entries Java lists (with an lstat each where the walk needs a type) before this reader takes over: loading JNA
     * and binding libc costs about 70 ms of CPU (measured with farm-bench on a 2-entry project), which a small project
     * never repays. What the reader saves grows with the entries, not the directories: a project of 100 directories of
     * 100 protected files each (bench/run.sh's protected project) was listed by Java whole under the former count of
     * 512 directories, an lstat per file. After this many entries a `check` pays JNA back within a few thousand more;
     * `run` loads JNA for its backend anyway.
     */
    static final int JAVA_FIRST = 4096;

    /** getdents64's buffer, native: JNA copies a byte[] argument in and out whole on every call (see LibC). */
    private static final int BUFFER_SIZE = 64 * 1024;
    private Memory buffer;
    /** What a call returned, copied out of {@link #buffer}: only the bytes the kernel wrote. */
    private byte[] records = new byte[4096];
    /** statx(2)'s struct statx (256 bytes, include/uapi/linux/stat.h), for {@link #searchable}. */
    private final byte[] statx = new byte[256];
    private CharsetDecoder utf8;
    private final int javaFirst;
    /** Entries Java listed so far. */
    private int listed;
    private boolean broken;

    Getdents64Reader() {
        this(JAVA_FIRST);
    }

    /** A reader that leaves the first {@code javaFirst} entries to Java (0 in tests: it reads every directory). */
    Getdents64Reader(int javaFirst) {
        this.javaFirst = javaFirst;
    }

    /** Whether the native layer knows this machine's architecture (x86_64, aarch64). */
    static boolean supported() {
        String arch = System.getProperty("os.arch");
        return LinuxAbi.ARM64 || "amd64".equals(arch) || "x86_64".equals(arch);
    }

    @Override
    public synchronized List<Listed> list(Path dir) throws IOException { // one buffer: one listing at a time
        if (listed < javaFirst) {
            List<Listed> java = DirectoryReader.JAVA.list(dir); // what the walk would do with null, counted
            listed += java.size();
            return java;
        }
        if (broken) {
            return null;
        }
        String text = dir.toString();
        if (text.indexOf('\uFFFD') >= 0) {
            return null;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        byte[] path = java.util.Arrays.copyOf(bytes, bytes.length + 1); // NUL-terminated
        List<Listed> out;
        try {
            out = read(path);
        } catch (LastErrorException e) {
            return null;
        } catch (LinkageError e) {
            broken = true; // no native library here: Java lists everything
            return null;
        }
        return out;
    }

    private List<Listed> read(byte[] path) {
        int fd = LibC.openat(LinuxAbi.AT_FDCWD, path,
                LinuxAbi.O_DIRECTORY | LinuxAbi.O_NOFOLLOW | LinuxAbi.O_CLOEXEC);
        if (fd < 0) {
            throw new LastErrorException(Native.getLastError());
        }
        try {
            List<Listed> out = new ArrayList<>();
            byte[] firstName = null;
            if (buffer == null) {
                buffer = new Memory(BUFFER_SIZE);
            }
            long n;
            while ((n = LibC.syscall(LinuxAbi.SYS_GETDENTS64, fd, buffer, BUFFER_SIZE)) != 0) {
                if (n < 0) {
                    throw new LastErrorException(Native.getLastError());
                }
                if (records.length < n) {
                    records = new byte[BUFFER_SIZE];
                }
                buffer.read(0, records, 0, (int) n);
                byte[] r = records;
                ByteBuffer b = ByteBuffer.wrap(r).order(ByteOrder.nativeOrder());
                for (int at = 0; at < n; ) {
                    int reclen = b.getShort(at + RECLEN) & 0xffff;
                    int end = at + NAME;
                    while (r[end] != 0) {
                        end++;
                    }
                    int nameLength = end - at - NAME;
                    if (!(nameLength == 1 && r[at + NAME] == '.')
                            && !(nameLength == 2 && r[at + NAME] == '.' && r[at + NAME + 1] == '.')) {
                        String name = ascii(r, at + NAME, nameLength);
                        if (name == null) {
                            try {
                                name = utf8().decode(ByteBuffer.wrap(r, at + NAME, nameLength)).toString();
                            } catch (CharacterCodingException e) {
                                return null;
                            }
                        }
                        if (out.isEmpty()) {
                            firstName = java.util.Arrays.copyOfRange(r, at + NAME, end + 1); // with its NUL
                        }
                        out.add(new Listed(name, null, typeOf(r[at + TYPE] & 0xff)));
                    }
                    at += reclen;
                }
            }
            return out.isEmpty() || searchable(fd, firstName) ? out : null;
        } finally {
            LibC.close(fd);
        }
    }

    /** The name when all its bytes are ASCII (the usual case: no decoder needed), else null. */
    private static String ascii(byte[] b, int from, int length) {
        for (int i = from; i < from + length; i++) {
            if (b[i] < 0) {
                return null;
            }
        }
        return new String(b, from, length, StandardCharsets.ISO_8859_1); // ASCII: each byte is its char
    }

    private static Type typeOf(int dType) {
        return switch (dType) {
            case DT_UNKNOWN -> Type.UNKNOWN;
            case DT_DIR -> Type.DIRECTORY;
            case DT_REG -> Type.FILE;
            case DT_LNK -> Type.SYMLINK;
            default -> Type.OTHER;
        };
    }

    /**
     * Whether an entry's type can be read in the directory {@code fd} is open on (search permission), as Java's lstat
     * of it would need: statx(2) of one entry relative to the descriptor, not following it, asking for nothing (mask
     * 0: the lookup and its permission check are the point). A name removed meanwhile counts as searched.
     */
    private boolean searchable(int fd, byte[] someEntry) {
        if (LibC.statx(fd, someEntry, LinuxAbi.AT_SYMLINK_NOFOLLOW, 0, statx) == 0) {
            return true;
        }
        return Native.getLastError() == LinuxAbi.ENOENT;
    }

    private CharsetDecoder utf8() {
        if (utf8 == null) {
            utf8 = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        return utf8;
    }
}
