package dev.ralon.cli;

import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.InputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Boot, the entry point an old JVM can load: its refusal line, and its class file version. */
class BootTest {
    @Test
    void aJvmOlderThan17GetsOneLineNamingItAndTheFix() {
        assertEquals("ralon: cannot run Java: Java 11 at /opt/jdk-11 is older than 17; set JAVA_HOME to a JDK 17 or later,"
                + " or RALON_JAVA to its bin/java", Boot.refusal("11", "/opt/jdk-11", false));
        assertEquals("ralon: cannot run Java (Java 1.8 at /usr/lib/jvm/8/jre is older than 17); refusing the tool call to"
                + " stay safe (set JAVA_HOME to a JDK 17 or later, or RALON_JAVA to its bin/java)",
                Boot.refusal("1.8", "/usr/lib/jvm/8/jre", true));
        assertEquals("ralon: cannot run Java: Java 16 at h is older than 17; set JAVA_HOME to a JDK 17 or later, or RALON_JAVA"
                + " to its bin/java", Boot.refusal("16", "h", false));
    }

    @Test
    void java17AndLaterAndUnknownFormsPass() {
        for (String v : new String[] {"17", "21", "25", "26", "", "17-internal", "x"}) {
            assertNull(Boot.refusal(v, "h", true), v);
        }
    }

    @Test
    void bootIsAJava8ClassFileSoThatOldJvmsCanLoadIt() throws Exception {
        try (InputStream in = Boot.class.getResourceAsStream("Boot.class")) {
            DataInputStream d = new DataInputStream(in);
            assertEquals(0xCAFEBABE, d.readInt());
            d.readUnsignedShort();
            assertEquals(52, d.readUnsignedShort(), "class file major version");
        }
    }
}
