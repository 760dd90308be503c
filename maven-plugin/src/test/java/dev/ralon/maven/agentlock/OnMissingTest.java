package dev.ralon.maven.agentlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ralon.maven.agentlock.CheckMojo.OnMissing;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;

class OnMissingTest {

    @Test
    void acceptsTheThreeModesInAnyCase() throws Exception {
        assertEquals(OnMissing.WARN, OnMissing.parse("warn"));
        assertEquals(OnMissing.FAIL, OnMissing.parse(" FAIL "));
        assertEquals(OnMissing.IGNORE, OnMissing.parse("Ignore"));
        assertEquals(OnMissing.WARN, OnMissing.parse(null));
    }

    @Test
    void anythingElseIsAConfigurationError() {
        MojoExecutionException e = assertThrows(MojoExecutionException.class, () -> OnMissing.parse("error"));
        assertTrue(e.getMessage().contains("expected warn, fail or ignore"), e.getMessage());
    }
}
