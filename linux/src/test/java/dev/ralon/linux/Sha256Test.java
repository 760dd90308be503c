package dev.ralon.linux;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link Sha256} against the FIPS 180-4 examples and against {@code MessageDigest} (the reference). */
class Sha256Test {
    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    @Test
    void fipsExamples() {
        // FIPS 180-4 / NIST CSRC example values for SHA-256
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                hex(Sha256.digest("abc".getBytes(StandardCharsets.US_ASCII))));
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", hex(Sha256.digest(new byte[0])));
        assertEquals("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
                hex(Sha256.digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".getBytes(StandardCharsets.US_ASCII))));
        byte[] million = new byte[1_000_000];
        java.util.Arrays.fill(million, (byte) 'a');
        assertEquals("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", hex(Sha256.digest(million)));
    }

    @Test
    void sameAsMessageDigestOnSeededRandomInputs() throws Exception {
        long seed = dev.ralon.testsupport.Seeds.seed("Sha256Test.sameAsMessageDigestOnSeededRandomInputs");
        Random rnd = new Random(seed);
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (int i = 0; i < 3000; i++) {
            // every length around the padding boundaries (55, 56, 63, 64, ...) and beyond a few blocks
            int len = i < 300 ? i : rnd.nextInt(20_000);
            byte[] data = new byte[len];
            rnd.nextBytes(data);
            assertArrayEquals(md.digest(data), Sha256.digest(data), "length " + len + ", seed " + seed
                    + " (rerun with -Dralon.seed=" + seed + ")");
        }
    }
}
