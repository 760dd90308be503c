package dev.ralon.enforcer.mount;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;

/**
 * The plan file, the one thing the host ({@link MountLaunch}) hands to the stage ({@link MountStage}) besides argv:
 * its format, its writing by the host and its reading by the stage, in one place that both processes use.
 *
 * <p>Format: NUL-separated UTF-8 fields, {@value #MAGIC}, uid, gid, working directory, unshare path, timeout path
 * (empty: the session is not contained in a PID namespace, {@link dev.ralon.linux.SessionContainer}),
 * whether writes are confined to the {@link Op#AREA} entries ({@code 1} or {@code 0}), the number of entries, then five fields per entry (operation code, path, file type, device, inode). A field holding a NUL byte
 * cannot be written (no path can hold one).
 *
 * <p>Why a file: argv and the environment share ARG_MAX (a quarter of the stack limit, 2 MiB by default, execve(2)),
 * which 10,000 long paths can exceed; a descriptor would have to survive the host's exec hygiene (which marks every
 * descriptor above 2 close-on-exec, by design) and then be closed before the command. The file is private (0600),
 * read and deleted by the stage, and its SHA-256 travels in the stage's argv, which no other process can change once
 * exec'd: a file swapped or edited between the two processes is detected.
 */
final class PlanFile {
    /** First field of a plan file, naming its format version. */
    static final String MAGIC = "RALON-MOUNT-PLAN-4";

    /** A bind of the plan: a directory on the way (stays writable) or a protected path (read-only). */
    enum Op {
        /** Directory on the way, bound onto itself, recursive, writable: it becomes a mount point (not renamable). */
        WAY('W'),
        /** Protected path bound onto itself, recursive, then made read-only with mount_setattr. */
        READONLY('R'),
        /** Writable area of a confined session: kept writable when everything else is made read-only ({@link Mounts#confine}). */
        AREA('A'),
        /** The home directory, given to the session as a copy-on-write view ({@link Mounts#confine}, HomeCopy). */
        COPY('C'),
        /** The copy's store, holding its two layers: hidden from the session. */
        STORE('S'),
        /** The copy's upper layer: where the session's changes to the home directory land. */
        UPPER('U'),
        /** The copy's work directory (overlayfs's workdir, beside the upper layer). */
        WORK('K');

        final char code;

        Op(char code) {
            this.code = code;
        }

        static Op of(String s) {
            for (Op op : values()) {
                if (s.length() == 1 && s.charAt(0) == op.code) {
                    return op;
                }
            }
            throw new IllegalArgumentException("unknown plan operation '" + s + "'");
        }
    }

    /**
     * One mount to make, with what the host saw at the path when it planned (type as in {@code S_IFMT}, device,
     * inode), so that anything swapped in between the plan and the mount is detected.
     */
    record Entry(Op op, String path, int type, long dev, long ino) {
    }

    /** What the stage needs besides the command line. */
    record StagePlan(int uid, int gid, String cwd, String unshare, String timeout, boolean confined,
                     List<Entry> entries) {
    }

    private PlanFile() {
    }

    static byte[] encode(StagePlan plan) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + plan.entries().size() * 96);
        field(out, MAGIC);
        field(out, Integer.toString(plan.uid()));
        field(out, Integer.toString(plan.gid()));
        field(out, plan.cwd());
        field(out, plan.unshare());
        field(out, plan.timeout());
        field(out, plan.confined() ? "1" : "0");
        field(out, Integer.toString(plan.entries().size()));
        for (Entry e : plan.entries()) {
            field(out, String.valueOf(e.op().code));
            field(out, e.path());
            field(out, Integer.toString(e.type()));
            field(out, Long.toString(e.dev()));
            field(out, Long.toString(e.ino()));
        }
        return out.toByteArray();
    }

    private static void field(ByteArrayOutputStream out, String s) {
        if (s.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a path or value holds a NUL byte: " + s.replace('\0', '?'));
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
        out.write(0);
    }

    static StagePlan decode(byte[] bytes) {
        List<String> f = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                f.add(new String(bytes, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (start != bytes.length || f.size() < 8 || !f.get(0).equals(MAGIC)) {
            throw new IllegalArgumentException("the plan file is not a " + MAGIC + " file");
        }
        int n = Integer.parseInt(f.get(7));
        if (f.size() != 8 + 5 * n) {
            throw new IllegalArgumentException("the plan file announces " + n + " mounts but holds " + (f.size() - 8) / 5);
        }
        List<Entry> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int b = 8 + 5 * i;
            entries.add(new Entry(Op.of(f.get(b)), f.get(b + 1), Integer.parseInt(f.get(b + 2)),
                    Long.parseLong(f.get(b + 3)), Long.parseLong(f.get(b + 4))));
        }
        return new StagePlan(Integer.parseInt(f.get(1)), Integer.parseInt(f.get(2)), f.get(3), f.get(4), f.get(5),
                "1".equals(f.get(6)), entries);
    }

    /** Lower-case hex SHA-256 ({@link dev.ralon.linux.Sha256}: no JCA initialisation on the stage's start). */
    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(dev.ralon.linux.Sha256.digest(bytes));
    }

    /**
     * Host side: writes {@code bytes} to a new mode-0600 file in java.io.tmpdir and returns its path. The bytes go
     * through the descriptor that created the file, never through a second open of the name: between the two, a
     * process of the same user (something an earlier sandboxed session left running, watching the directory) could
     * replace the name with a symbolic link and have this unsandboxed process write through it. Creation is
     * O_CREAT|O_EXCL ({@code CREATE_NEW}; open(2): it fails on any existing name, a symbolic link included), and the
     * stage checks the content against the SHA-256 in its argv. Not {@code Files.createTempFile}: its random name
     * needs SecureRandom, whose first use starts the JCA provider framework (15-30 ms of every mount run, measured);
     * the name need not be secret. A name that is taken is skipped.
     */
    static Path write(byte[] bytes) throws IOException {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        long pid = ProcessHandle.current().pid();
        FileAttribute<?> mode = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
        for (int i = 0; ; i++) {
            Path p = dir.resolve("ralon-mount-" + pid + "-" + System.nanoTime() + "-" + i + ".plan");
            try (SeekableByteChannel ch = Files.newByteChannel(p,
                    EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), mode)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                return p;
            } catch (FileAlreadyExistsException e) {
                if (i >= 100) {
                    throw e;
                }
            }
        }
    }

    /**
     * Stage side: reads the plan file, deletes it, and decodes it if its SHA-256 is {@code sha256}.
     *
     * @throws StageException when it cannot be read or was changed after the host wrote it
     */
    static StagePlan readAndDelete(Path file, String sha256) throws StageException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new StageException("cannot read the plan file " + file + ": " + e.getMessage());
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // reported below only if the content is wrong; a stale temp file is harmless
            }
        }
        if (!sha256(bytes).equals(sha256)) {
            throw new StageException("the plan file " + file + " was changed after ralon wrote it; refusing to run");
        }
        return decode(bytes);
    }
}
