package dev.ralon.policy;

import dev.ralon.testsupport.ApiStatus;
import org.junit.jupiter.api.Test;

/** Every public type of this published module says its status: all five packages are @Internal. */
class ApiStatusTest {
    @Test
    void everyPublicTypeHasOneStatus() {
        ApiStatus.assertEveryPublicTypeHasOne();
    }
}
