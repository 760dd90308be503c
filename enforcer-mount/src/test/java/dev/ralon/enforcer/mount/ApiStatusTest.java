package dev.ralon.enforcer.mount;

import dev.ralon.testsupport.ApiStatus;
import org.junit.jupiter.api.Test;

/** Every public type of this published module says its status: the package is @Internal (found through ServiceLoader). */
class ApiStatusTest {
    @Test
    void everyPublicTypeHasOneStatus() {
        ApiStatus.assertEveryPublicTypeHasOne();
    }
}
