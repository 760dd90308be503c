package dev.ralon.enforcer.spi;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SPI jar is the contract and nothing else: no class in it names JNA or any of Ralon's other packages (discovery
 * lives in ralon-host, the native layer in ralon-linux), read from the compiled classes' constant pools, where every
 * type a class uses is named; and its module exports the contract's package alone.
 */
class ContractOnlyTest {
    private static final Path CLASSES = Path.of("target/classes");
    private static final Pattern REFERENCE = Pattern.compile("L?((?:com/sun/jna|dev/ralon)/[A-Za-z0-9_/$]+)");

    @Test
    void noClassNamesJnaOrAnotherRalonPackage() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> s = Files.walk(CLASSES)) {
            for (Path p : s.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                // the constant pool's UTF-8 entries are readable as ISO-8859-1 without loss for ASCII names
                Matcher m = REFERENCE.matcher(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
                while (m.find()) {
                    String name = m.group(1);
                    if (!name.equals("dev/ralon/enforcer/spi") && !name.startsWith("dev/ralon/enforcer/spi/")) {
                        found.add(CLASSES.relativize(p) + " -> " + name);
                    }
                }
            }
        }
        assertEquals(List.of(), found, "the SPI must depend on nothing but the JDK");
    }

    @Test
    void theModuleExportsTheContractAloneAndRequiresNothing() throws IOException {
        java.lang.module.ModuleDescriptor d;
        try (java.io.InputStream in = Files.newInputStream(CLASSES.resolve("module-info.class"))) {
            d = java.lang.module.ModuleDescriptor.read(in);
        }
        assertEquals("dev.ralon.enforcer.spi", d.name());
        assertEquals(java.util.Set.of("dev.ralon.enforcer.spi"), d.exports().stream()
                .map(java.lang.module.ModuleDescriptor.Exports::source).collect(java.util.stream.Collectors.toSet()));
        assertTrue(d.exports().stream().noneMatch(java.lang.module.ModuleDescriptor.Exports::isQualified));
        assertEquals(java.util.Set.of("java.base"), d.requires().stream()
                .map(java.lang.module.ModuleDescriptor.Requires::name).collect(java.util.stream.Collectors.toSet()));
    }
}
