package dev.ralon.linux;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The mounts of this process's mount namespace, from /proc/self/mountinfo (proc(5): mount ID, parent ID,
 * major:minor, root of the mount within its file system, mount point, ...; spaces and other special characters in
 * paths are written as octal escapes such as {@code \040}).
 *
 * <p>Used to find <em>aliases</em>: the same file system (same major:minor) mounted at several places (bind mounts,
 * container volumes), where a protected file is reachable by another path that protecting its own path does not cover.
 * Both built-in backends use it: mount binds each alias read-only too; landlock plans each alias as a protected path
 * of its own (a sibling on the way would otherwise get a full-access rule with the alias somewhere beneath it).
 *
 * @since 0.1.0
 */
@dev.ralon.enforcer.spi.Internal("a helper of the built-in backends")
public final class MountTable {
    /**
     * One line of mountinfo: the device (major:minor), the mount's root within its file system, the mount point.
     *
     * @since 0.1.0
     */
    @dev.ralon.enforcer.spi.Internal("a helper of the built-in backends")
    public record Mount(String device, String root, Path mountPoint) {
    }

    private final List<Mount> mounts;

    public MountTable(List<Mount> mounts) {
        this.mounts = List.copyOf(mounts);
    }

    /** This process's mounts; none when /proc/self/mountinfo cannot be read. */
    public static MountTable read() {
        try (InputStream in = Files.newInputStream(Path.of("/proc/self/mountinfo"))) {
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new MountTable(List.of());
        }
    }

    /** Parses the text of a mountinfo file. */
    public static MountTable parse(String mountinfo) {
        List<Mount> out = new ArrayList<>();
        for (String line : mountinfo.split("\n")) {
            String[] f = line.split(" ");
            if (f.length < 5) {
                continue;
            }
            out.add(new Mount(f[2], unescape(f[3]), Path.of(unescape(f[4]))));
        }
        return new MountTable(out);
    }

    static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** The mount whose mount point is the longest prefix of {@code p}; the last listed wins (it is on top). */
    public Mount containing(Path p) {
        Mount best = null;
        for (Mount m : mounts) {
            if (p.startsWith(m.mountPoint())
                    && (best == null || m.mountPoint().getNameCount() >= best.mountPoint().getNameCount())) {
                best = m;
            }
        }
        return best;
    }

    /**
     * A second path, {@code alias}, at which the object at {@code original} may be reachable.
     *
     * @since 0.1.0
     */
    @dev.ralon.enforcer.spi.Internal("a helper of the built-in backends")
    public record Alias(Path original, Path alias) {
    }

    /**
     * Other paths at which the file system object at {@code p} may be reachable: every other mount of the same device
     * whose root contains the object's path within the file system, and, when {@code beneathToo}, every mount of the
     * same device whose root lies <em>beneath</em> it (a bind of part of a protected directory elsewhere): its mount
     * point is an alias of the object at the corresponding place beneath {@code p}. Candidates only: the caller checks
     * (device, inode) at each, since a deeper mount may hide it there.
     */
    public List<Alias> aliasesOf(Path p, boolean beneathToo) {
        Mount home = containing(p);
        List<Alias> out = new ArrayList<>();
        if (home == null) {
            return out;
        }
        Path inFs = Path.of(home.root()).resolve(home.mountPoint().relativize(p).toString()).normalize();
        for (Mount m : mounts) {
            if (m == home || !m.device().equals(home.device())) {
                continue;
            }
            Path root = Path.of(m.root());
            Alias a = null;
            if (inFs.startsWith(root)) {
                a = new Alias(p, m.mountPoint().resolve(root.relativize(inFs).toString()).normalize());
            } else if (beneathToo && root.startsWith(inFs)) {
                a = new Alias(p.resolve(inFs.relativize(root).toString()).normalize(), m.mountPoint());
            }
            if (a != null && !a.alias().equals(a.original()) && !a.alias().startsWith(p) && !out.contains(a)) {
                out.add(a);
            }
        }
        return out;
    }
}
