package dev.ralon.conformance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link KitJvms}: a directory of the class path becomes a jar with the same entries and bytes, and a class path the
 * archive cannot be made from gives no options (the kit's JVMs then start as before). That the archive is made and used
 * is shown by every kit execution's console ("[kit] the kit's JVMs start from a class-data archive").
 */
class KitJvmsTest {
    @TempDir
    Path dir;

    @Test
    void aDirectoryBecomesAJarWithTheSameEntriesAndBytes() throws IOException {
        Path classes = Files.createDirectories(dir.resolve("classes/dev/x"));
        Files.write(classes.resolve("A.class"), new byte[] {(byte) 0xCA, (byte) 0xFE, 0, 1});
        Path services = Files.createDirectories(dir.resolve("classes/META-INF/services"));
        Files.writeString(services.resolve("dev.x.Spi"), "dev.x.A\n");
        Path jar = dir.resolve("classes.jar");
        KitJvms.jarOf(dir.resolve("classes"), jar);
        try (JarFile j = new JarFile(jar.toFile())) {
            List<String> names = Collections.list(j.entries()).stream().map(JarEntry::getName).sorted().toList();
            assertEquals(List.of("META-INF/", "META-INF/services/", "META-INF/services/dev.x.Spi", "dev/", "dev/x/",
                    "dev/x/A.class"), names);
            assertArrayEquals(new byte[] {(byte) 0xCA, (byte) 0xFE, 0, 1},
                    j.getInputStream(j.getJarEntry("dev/x/A.class")).readAllBytes());
            assertEquals("dev.x.A\n", new String(j.getInputStream(j.getJarEntry("META-INF/services/dev.x.Spi"))
                    .readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** The kit's own class path (this test JVM's, copied as the kit copies it): the archive is made, and a JVM maps it. */
    @Test
    void theKitsClassPathGetsAnArchiveThatAJvmMaps() throws IOException {
        String cp = KitHost.readableClasspath();
        List<String> options = KitHost.jvmOptions();
        assertEquals(3, options.size(), "no archive for the kit's class path (its reason is on the console): " + options);
        List<String> cmd = new java.util.ArrayList<>(AttackScript.javaCommand(dir, "dev.ralon.conformance.attack.AttackProgram"));
        cmd.set(cmd.indexOf("@CP@"), cp);
        cmd.add(1, "-Xlog:class+load=info:file=" + dir.resolve("classes.log"));
        Path target = Files.writeString(dir.resolve("target.txt"), "x\n");
        cmd.addAll(List.of("otrunc", "t", target.toString(), dir.resolve("other").toString()));
        dev.ralon.testsupport.ProcessResult r = dev.ralon.testsupport.TestProcess.of(cmd).mergeStderr().stdin("")
                .timeout(60).run();
        assertEquals(0, r.code(), r.toString());
        String log = Files.readString(dir.resolve("classes.log"));
        assertTrue(log.contains("dev.ralon.conformance.attack.AttackProgram source: shared objects file"),
                "the attack program's class comes from the archive:\n" + log.lines().filter(l -> l.contains("dev.ralon"))
                        .toList());
    }

    @Test
    void noOptionsWithoutJnasLibraryOnTheClassPath() throws IOException {
        Path jar = dir.resolve("empty.jar");
        KitJvms.jarOf(Files.createDirectories(dir.resolve("empty")), jar);
        assertEquals(List.of(), KitJvms.options(Files.createDirectories(dir.resolve("out")), jar.toString()));
    }

    @Test
    void noOptionsWhenTheClassesCannotBeListed() throws IOException {
        // JNA's library is there, but the class path holds neither the attack program nor ralon: no list, no archive
        Path jna = Path.of(KitHost.codeSource(com.sun.jna.Native.class).toString());
        assertNotNull(jna);
        Path out = Files.createDirectories(dir.resolve("out"));
        assertEquals(List.of(), KitJvms.options(out, jna.toString()));
        assertEquals(List.of(), Files.list(out).filter(p -> p.getFileName().toString().equals("kit.jsa")).toList());
    }
}
