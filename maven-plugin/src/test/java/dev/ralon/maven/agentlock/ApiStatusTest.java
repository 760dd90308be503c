package dev.ralon.maven.agentlock;

import dev.ralon.testsupport.ApiStatus;
import org.junit.jupiter.api.Test;

/** Every public type of this published module says its status: the package is @Internal (the goals and parameters are the contract). */
class ApiStatusTest {
    @Test
    void everyPublicTypeHasOneStatus() {
        ApiStatus.assertEveryPublicTypeHasOne();
    }
}
