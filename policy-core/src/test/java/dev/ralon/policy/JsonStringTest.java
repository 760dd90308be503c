package dev.ralon.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.ralon.testsupport.Seeds;
import java.util.Random;
import org.json.JSONTokener;
import org.junit.jupiter.api.Test;

/** The one JSON escaper, read back by an independent JSON reader (org.json) over generated strings. */
class JsonStringTest {

    @Test
    void knownForms() {
        assertEquals("\"a\\\"b\\\\c\\n\\r\\t\\u0000\\u001f\\u007f\\u2028\\u2029é\"",
                JsonString.of("a\"b\\c\n\r\t\u0000\u001f\u007f\u2028\u2029é"));
    }

    @Test
    void everyGeneratedStringReadsBackAndHoldsNoRawControlCharacter() {
        long seed = Seeds.seed("JsonStringTest.everyGeneratedStringReadsBack");
        Random random = new Random(seed);
        char[] alphabet = {'a', '"', '\\', '\n', '\r', '\t', '\u0000', '\u0001', '\u001f', '\u007f', '\u2028', '\u2029',
                'é', '\uD83D', '\uDE00', '/', ' '};
        for (int n = 0; n < 5_000; n++) {
            StringBuilder sb = new StringBuilder();
            for (int i = random.nextInt(20); i > 0; i--) {
                sb.append(random.nextBoolean() ? alphabet[random.nextInt(alphabet.length)] : (char) random.nextInt(0x3000));
            }
            String s = sb.toString();
            String literal = JsonString.of(s);
            assertEquals(s, new JSONTokener(literal).nextValue(), "seed " + seed + ": " + literal);
            assertFalse(literal.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029),
                    "seed " + seed + ": " + literal);
        }
    }
}
