package dev.ralon.cli;

import dev.ralon.testsupport.TestProcess;

import dev.ralon.policy.Expansion;
import dev.ralon.policy.load.PolicyLoader;
import dev.ralon.policy.walk.DirectoryReader;
import dev.ralon.policy.walk.ProtectedPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The getdents64 reader against Java's own listing on real directories: the same names, each type what lstat says,
 * null wherever it could not list exactly as Java would; and the same expansion whichever reader the walk uses.
 */
class Getdents64ReaderTest {
    @TempDir
    Path tmp;

    private static Map<String, DirectoryReader.Type> byName(List<DirectoryReader.Listed> listed, Path dir)
            throws Exception {
        Map<String, DirectoryReader.Type> m = new TreeMap<>();
        for (DirectoryReader.Listed l : listed) {
            DirectoryReader.Type t = l.type();
            if (t == DirectoryReader.Type.UNKNOWN) { // Java's listing: the type is lstat's
                BasicFileAttributes a = Files.readAttributes(dir.resolve(l.name()), BasicFileAttributes.class,
                        LinkOption.NOFOLLOW_LINKS);
                t = a.isSymbolicLink() ? DirectoryReader.Type.SYMLINK : a.isDirectory() ? DirectoryReader.Type.DIRECTORY
                        : a.isRegularFile() ? DirectoryReader.Type.FILE : DirectoryReader.Type.OTHER;
            }
            m.put(l.name(), t);
        }
        return m;
    }

    @Test
    void namesAndTypesAreThoseOfJavaAndLstat() throws Exception {
        Path d = tmp.toRealPath();
        Files.createDirectories(d.resolve("sub"));
        Files.writeString(d.resolve("file.pem"), "x");
        Files.writeString(d.resolve("é ü.txt"), "x");
        Files.createSymbolicLink(d.resolve("to-sub"), Path.of("sub"));
        Files.createSymbolicLink(d.resolve("dangling"), Path.of("nowhere"));
        assertEquals(0, TestProcess.of("mkfifo", d.resolve("fifo").toString()).run().code());
        for (int i = 0; i < 3000; i++) { // more than one getdents64 buffer
            Files.writeString(d.resolve("sub/n" + i), "");
        }
        Getdents64Reader reader = new Getdents64Reader(0);
        List<DirectoryReader.Listed> got = reader.list(d);
        assertNotNull(got);
        assertEquals(byName(DirectoryReader.JAVA.list(d), d), byName(got, d));
        assertEquals(DirectoryReader.Type.OTHER, byName(got, d).get("fifo"));
        assertEquals(byName(DirectoryReader.JAVA.list(d.resolve("sub")), d.resolve("sub")),
                byName(reader.list(d.resolve("sub")), d.resolve("sub")));
        assertNull(reader.list(d.resolve("to-sub")), "a symbolic link is not opened as a directory (O_NOFOLLOW)");
        assertNull(reader.list(d.resolve("missing")), "an error: Java lists it and reports its own error");
    }

    @Test
    void aNameThatIsNotUtf8IsLeftToJava() throws Exception {
        Path d = tmp.toRealPath();
        Files.writeString(d.resolve("ok"), "");
        assertEquals(0, TestProcess.of("sh", "-c", "touch \"$(printf 'bad\\377name')\"").in(d).run().code());
        assertNull(new Getdents64Reader(0).list(d));
    }

    @Test
    void theExpansionIsTheSameWithEitherReader() throws Exception {
        long seed = dev.ralon.testsupport.Seeds.seed("Getdents64ReaderTest.theExpansionIsTheSameWithEitherReader");
        Random r = new Random(seed);
        Path root = tmp.toRealPath();
        String[] names = {"a", "b", "keys", "x.pem", "y.txt", "vendor", ".git"};
        List<Path> dirs = new ArrayList<>(List.of(root));
        for (int i = 0; i < 200; i++) {
            Path parent = dirs.get(r.nextInt(dirs.size()));
            Path p = parent.resolve(names[r.nextInt(names.length)] + (r.nextBoolean() ? "" : String.valueOf(i)));
            if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            switch (r.nextInt(5)) {
                case 0, 1 -> dirs.add(Files.createDirectory(p));
                case 2, 3 -> Files.writeString(p, "");
                default -> {
                    Path target = parent.relativize(dirs.get(r.nextInt(dirs.size())));
                    Files.createSymbolicLink(p, target.toString().isEmpty() ? Path.of(".") : target);
                }
            }
        }
        String[] policies = {"[\"**/*.pem\"]", "[\"a*/**\", \"keys/x.pem\"]", "[\"*.pem\", \"vendor/\"]",
            "[\"**/keys/\", \"b*/a*/*\"]"};
        for (String protect : policies) {
            Files.writeString(root.resolve("agent.lock"), "version: 1\nprotect: " + protect + "\n");
            Expansion java;
            Expansion dents;
            try {
                DirectoryReader.use(DirectoryReader.JAVA);
                java = ProtectedPaths.expand(PolicyLoader.load(root.resolve("agent.lock")));
                DirectoryReader.use(new Getdents64Reader(0));
                dents = ProtectedPaths.expand(PolicyLoader.load(root.resolve("agent.lock")));
            } finally {
                DirectoryReader.use(null);
            }
            String why = "seed " + seed + ", protect " + protect;
            assertEquals(java.entries().toString(), dents.entries().toString(), why);
            assertEquals(java.warnings(), dents.warnings(), why);
            assertEquals(java.incomplete(), dents.incomplete(), why);
            assertEquals(java.linksOnTheWay().toString(), dents.linksOnTheWay().toString(), why);
        }
    }
}
