package dev.ralon.linux;

import dev.ralon.enforcer.spi.Internal;
import dev.ralon.enforcer.spi.Stable;
import dev.ralon.enforcer.spi.Experimental;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The native layer promises nothing: its package is {@link Internal}, and no public type in it claims a stronger
 * status ({@link Stable}, {@link Experimental}) that a third party could read as a promise.
 */
class InternalLayerTest {
    @Test
    void everyPublicTypeIsInternalAndNoneClaimsMore() throws IOException, ClassNotFoundException {
        assertNotNull(LibC.class.getPackage().getAnnotation(Internal.class), "the package is @Internal");
        Path classes = Path.of("target/classes");
        List<String> claims = new ArrayList<>();
        try (Stream<Path> s = Files.walk(classes)) {
            for (Path p : s.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = classes.relativize(p).toString().replace('/', '.').replaceAll("\\.class$", "");
                if (name.endsWith("package-info")) {
                    continue;
                }
                Class<?> c = Class.forName(name, false, getClass().getClassLoader());
                if (Modifier.isPublic(c.getModifiers())
                        && (c.isAnnotationPresent(Stable.class) || c.isAnnotationPresent(Experimental.class))) {
                    claims.add(name);
                }
            }
        }
        assertEquals(List.of(), claims, "types of the native layer marked stable or experimental");
    }
}
