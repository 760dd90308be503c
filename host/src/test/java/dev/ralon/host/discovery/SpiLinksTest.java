package dev.ralon.host.discovery;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A plugin jar built against another SPI is excluded at discovery with one line naming what it uses, before any of
 * its classes is created; one built against this SPI links. The stale jar is compiled for real (javac) against a stub
 * of the SPI as it was before {@code Launch} was built by {@code Launch.of}: {@code new Launch(Path, List, Map)}.
 */
class SpiLinksTest {
    @TempDir
    Path tmp;

    @Test
    void aJarBuiltAgainstAnOlderSpiIsExcludedWithWhatItUses() throws Exception {
        Path src = tmp.resolve("stale-src");
        write(src.resolve("dev/ralon/enforcer/spi/Launch.java"), "package dev.ralon.enforcer.spi;\n"
                + "public final class Launch { public Launch(java.nio.file.Path e, java.util.List<String> a,"
                + " java.util.Map<String, String> v) { } }\n");
        write(src.resolve("org/example/Stale.java"), "package org.example;\n"
                + "public class Stale { public Object launch() { return new dev.ralon.enforcer.spi.Launch(null, null,"
                + " null); } }\n");
        Path classes = compile(src, "", List.of(src.resolve("dev/ralon/enforcer/spi/Launch.java"),
                src.resolve("org/example/Stale.java")));
        Path jar = jar(classes, "org/example/Stale.class", "org.example.Stale");

        List<String> missing = SpiLinks.unresolved(jar, getClass().getClassLoader());
        assertEquals(List.of("Launch.<init>(Path, List, Map)"), missing);

        Enforcers found = Enforcers.discover(getClass().getClassLoader(), List.of(jar));
        String line = found.problems().stream().filter(p -> p.startsWith("plugin " + jar + ":")).findFirst()
                .orElse(null);
        assertNotNull(line, found.problems().toString());
        assertEquals("plugin " + jar + ": built against an SPI this ralon does not have: it uses"
                + " Launch.<init>(Path, List, Map), which this ralon's enforcer-spi lacks; rebuild it against this"
                + " version (docs/spi-changelog.md); excluded", line);
    }

    @Test
    void aJarBuiltAgainstThisSpiLinks() throws Exception {
        Path src = tmp.resolve("fresh-src");
        write(src.resolve("org/example/Fresh.java"), "package org.example;\n"
                + "import dev.ralon.enforcer.spi.*;\n"
                + "public class Fresh { public Object launch(Command c) { return Launch.of(c); }\n"
                + "  public Object g() { return Guarantee.LEFTOVERS.id(); }\n"
                + "  public boolean copies(Enforcer e) { return e.copiesHome(); } }\n");
        Path classes = compile(src, System.getProperty("java.class.path"), List.of(src.resolve("org/example/Fresh.java")));
        Path jar = jar(classes, "org/example/Fresh.class", "org.example.Fresh");
        List<SpiLinks.Ref> refs = SpiLinks.references(Files.readAllBytes(classes.resolve("org/example/Fresh.class")));
        assertTrue(refs.stream().anyMatch(r -> r.name() != null && r.name().equals("copiesHome")), refs.toString());
        assertEquals(List.of(), SpiLinks.unresolved(jar, getClass().getClassLoader()));
    }

    private static void write(Path p, String text) throws Exception {
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private Path compile(Path src, String classPath, List<Path> files) throws Exception {
        Path out = Files.createDirectories(tmp.resolve(src.getFileName() + "-classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-cp", classPath, "--release", "17"));
        files.forEach(f -> args.add(f.toString()));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = javac.run(null, OutputStream.nullOutputStream(), err, args.toArray(new String[0]));
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
        return out;
    }

    /** A plugin jar holding {@code classFile} and a service file listing {@code provider}. */
    private Path jar(Path classes, String classFile, String provider) throws Exception {
        Path jar = tmp.resolve(provider + ".jar");
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(jar))) {
            j.putNextEntry(new JarEntry(classFile));
            j.write(Files.readAllBytes(classes.resolve(classFile)));
            j.closeEntry();
            j.putNextEntry(new JarEntry(Enforcers.SERVICE_FILE));
            j.write((provider + "\n").getBytes(StandardCharsets.UTF_8));
            j.closeEntry();
        }
        return jar;
    }
}
