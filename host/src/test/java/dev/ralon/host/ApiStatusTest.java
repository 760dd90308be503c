package dev.ralon.host;

import dev.ralon.testsupport.ApiStatus;
import org.junit.jupiter.api.Test;

/** Every public type of this published module says its status: both packages are @Internal. */
class ApiStatusTest {
    @Test
    void everyPublicTypeHasOneStatus() {
        ApiStatus.assertEveryPublicTypeHasOne();
    }
}
