package dev.ralon.linux;

import dev.ralon.enforcer.spi.Experimental;
import dev.ralon.enforcer.spi.Internal;
import dev.ralon.enforcer.spi.Stable;
import dev.ralon.testsupport.ApiStatus;
import dev.ralon.testsupport.ApiStatus.Status;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The native layer promises nothing: its package is {@link Internal}, and no public type in it claims a stronger
 * status ({@link Stable}, {@link Experimental}) that a third party could read as a promise (test-support's
 * {@link ApiStatus}, as for every published module).
 */
class InternalLayerTest {
    @Test
    void everyPublicTypeIsInternalAndNoneClaimsMore() {
        assertNotNull(LibC.class.getPackage().getAnnotation(Internal.class), "the package is @Internal");
        ApiStatus.assertEveryPublicTypeHasOne();
        List<String> claims = ApiStatus.of(ApiStatus.CLASSES).entrySet().stream()
                .filter(e -> !e.getValue().equals(Set.of(Status.INTERNAL))).map(Map.Entry::getKey).toList();
        assertEquals(List.of(), claims, "types of the native layer marked stable or experimental");
    }
}
