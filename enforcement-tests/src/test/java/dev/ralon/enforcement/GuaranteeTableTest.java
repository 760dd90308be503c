package dev.ralon.enforcement;

import dev.ralon.conformance.GuaranteeTable;

import dev.ralon.enforcer.spi.Enforcer;
import dev.ralon.host.discovery.Enforcers;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** README.md's guarantee table is exactly what the backends declare. */
class GuaranteeTableTest {
    @Test
    void readmeHoldsTheTableRenderedFromTheDeclarations() throws Exception {
        String readmeProp = System.getProperty("ralon.readme");
        if (readmeProp == null) {
            fail("system property ralon.readme is not set: run through Maven");
        }
        List<Enforcer> ours = Enforcers.discover(getClass().getClassLoader()).all().stream()
                .filter(e -> List.of("mount", "landlock", "noop").contains(e.name())).toList();
        assertEquals(List.of("mount", "landlock", "noop"), ours.stream().map(Enforcer::name).toList(),
                "Ralon's three backends, strongest first");
        String expected = GuaranteeTable.render(ours);
        String readme = Files.readString(Path.of(readmeProp));
        int b = readme.indexOf(GuaranteeTable.BEGIN);
        int e = readme.indexOf(GuaranteeTable.END);
        assertTrue(b >= 0 && e > b, "README.md has no " + GuaranteeTable.BEGIN + " ... " + GuaranteeTable.END
                + " block; it should be:\n" + expected);
        assertEquals(expected, readme.substring(b, e + GuaranteeTable.END.length()),
                "README.md's guarantee table differs from the backends' declarations; replace the block with the"
                        + " expected text");
    }
}
