package dev.ralon.cli;

import dev.ralon.testsupport.ApiStatus;
import org.junit.jupiter.api.Test;

/** Every public type of this published module says its status: the package is @Internal. */
class ApiStatusTest {
    @Test
    void everyPublicTypeHasOneStatus() {
        ApiStatus.assertEveryPublicTypeHasOne();
    }
}
