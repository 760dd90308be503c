package dev.ralon.maven.agentlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RequiredPathTest {

    @Test
    void keepsPlainRelativePaths() {
        assertEquals("pom.xml", RequiredPath.normalize("pom.xml"));
        assertEquals(".github/workflows/ci.yml", RequiredPath.normalize(".github/workflows/ci.yml"));
    }

    @Test
    void dropsLeadingDotSlashTrailingSlashAndRepeatedSlashes() {
        assertEquals("src/main", RequiredPath.normalize("./src//main/"));
        assertEquals("pom.xml", RequiredPath.normalize("  pom.xml "));
    }

    @Test
    void refusesWhatIsNotOneRelativePath() {
        for (String bad : new String[] {"", "  ", "/etc/passwd", "../x", "a/../b", "a/./b", "a\\b", "*.xml", "a?",
                "[ab]", ".", "./", "/"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RequiredPath.normalize(bad),
                    bad);
            assertTrue(e.getMessage().startsWith("required entry"), e.getMessage());
        }
    }
}
