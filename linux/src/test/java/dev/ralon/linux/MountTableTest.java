package dev.ralon.linux;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MountTableTest {
    @Test
    void mountinfoParsingAndAliases() {
        MountTable t = MountTable.parse(String.join("\n",
                "21 1 254:0 / / rw - ext4 /dev/vda rw",
                "30 21 254:0 /srv/data /mnt/with\\040space rw - ext4 /dev/vda rw",
                "31 21 254:0 /home /home rw - ext4 /dev/vda rw",
                "32 21 0:40 / /tmp rw - tmpfs tmpfs rw"));
        assertEquals(Path.of("/mnt/with space"), t.containing(Path.of("/mnt/with space/x")).mountPoint());
        assertEquals(List.of(Path.of("/mnt/with space/p/f")), aliases(t, Path.of("/srv/data/p/f")));
        assertEquals(List.of(Path.of("/srv/data/p/f")), aliases(t, Path.of("/mnt/with space/p/f")));
        assertEquals(List.of(), aliases(t, Path.of("/home/u/f")), "through / the same path again: not an alias");
        assertTrue(aliases(t, Path.of("/tmp/f")).isEmpty(), "other device");
    }

    /** The alias paths {@link MountTable#aliasesOf} gives for {@code p} (nothing beneath). */
    private static List<Path> aliases(MountTable t, Path p) {
        return t.aliasesOf(p, false).stream().map(MountTable.Alias::alias).toList();
    }

    /** A bind of part of a protected directory elsewhere is an alias of what lies there, only when asked for. */
    @Test
    void aBindOfPartOfADirectoryIsAnAliasBeneathIt() {
        MountTable t = MountTable.parse(String.join("\n",
                "21 1 254:0 / / rw - ext4 /dev/vda rw",
                "41 21 254:0 /work/proj/keys/sub /srv/part rw - ext4 /dev/vda rw"));
        assertEquals(List.of(new MountTable.Alias(Path.of("/work/proj/keys/sub"), Path.of("/srv/part"))),
                t.aliasesOf(Path.of("/work/proj/keys"), true));
        assertEquals(List.of(), t.aliasesOf(Path.of("/work/proj/keys"), false));
    }

    /** A bind of an ancestor of the path (the project's parent, two levels below another directory) is found too. */
    @Test
    void aBindOfAnAncestorDeepBelowAnotherDirectoryIsAnAlias() {
        MountTable t = MountTable.parse(String.join("\n",
                "21 1 254:0 / / rw - ext4 /dev/vda rw",
                "40 21 254:0 /work /srv/a/b/c rw - ext4 /dev/vda rw"));
        assertEquals(List.of(Path.of("/srv/a/b/c/proj/secret")), aliases(t, Path.of("/work/proj/secret")));
    }
}
