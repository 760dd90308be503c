package dev.ralon.policy.glob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Every {@link PatternError}: kind, offset into the raw pattern, and a one-line reason saying what to write. */
class PatternErrorTest {

    private static PatternException reject(String raw, PatternError kind, int offset, String... hints) {
        PatternException e = assertThrows(PatternException.class, () -> Glob.compile(raw), raw);
        assertEquals(kind, e.kind(), e.getMessage());
        assertEquals(offset, e.offset(), e.getMessage());
        assertEquals(raw, e.pattern());
        for (String h : hints) {
            assertTrue(e.reason().contains(h), "reason '" + e.reason() + "' should mention '" + h + "'");
        }
        assertFalse(e.reason().contains("\n") || e.getMessage().contains("\n") || e.getMessage().contains("\r"),
                "one line: " + e.getMessage());
        assertTrue(e.getMessage().contains("offset " + offset), e.getMessage());
        assertTrue(e.getMessage().contains(kind.id()), e.getMessage());
        return e;
    }

    @Test
    void ids() {
        assertEquals("empty", PatternError.EMPTY.id());
        assertEquals("absolute", PatternError.ABSOLUTE.id());
        assertEquals("parent-segment", PatternError.PARENT_SEGMENT.id());
        assertEquals("home", PatternError.HOME.id());
        assertEquals("negation", PatternError.NEGATION.id());
        assertEquals("control-character", PatternError.CONTROL_CHARACTER.id());
        assertEquals("invalid-class", PatternError.INVALID_CLASS.id());
        assertEquals("trailing-backslash", PatternError.TRAILING_BACKSLASH.id());
        assertEquals("root", PatternError.ROOT.id());
        for (PatternError e : PatternError.values()) {
            assertEquals(e, PatternError.fromId(e.id()));
        }
        assertThrows(IllegalArgumentException.class, () -> PatternError.fromId("nope"));
    }

    @Test
    void empty() {
        reject("", PatternError.EMPTY, 0, "empty", "remove the entry");
        reject("   ", PatternError.EMPTY, 0, "white space");
        reject("\t \u3000", PatternError.EMPTY, 0, "white space");
    }

    @Test
    void absolute() {
        reject("/etc/passwd", PatternError.ABSOLUTE, 0, "relative", "drop the leading '/'");
        reject("//x", PatternError.ABSOLUTE, 0);
        reject("\\/x", PatternError.ABSOLUTE, 0);
        reject("/", PatternError.ABSOLUTE, 0);
    }

    @Test
    void parentSegment() {
        reject("..", PatternError.PARENT_SEGMENT, 0, "'..'", "without '..'");
        reject("a/../b", PatternError.PARENT_SEGMENT, 2);
        reject("a//..", PatternError.PARENT_SEGMENT, 3);
        reject("a/\\.\\./b", PatternError.PARENT_SEGMENT, 2);
        // not parent segments
        assertEquals("..a", compile("..a").literalPath());
        assertEquals("a..", compile("a..").literalPath());
        assertEquals("...", compile("...").literalPath());
    }

    @Test
    void home() {
        reject("~", PatternError.HOME, 0, "home directory", "\\~");
        reject("~/.ssh", PatternError.HOME, 0);
        reject("~bob/x", PatternError.HOME, 0);
        assertEquals("~bob", compile("\\~bob").literalPath());
        assertEquals("a/~", compile("a/~").literalPath());
    }

    @Test
    void negation() {
        PatternException e = reject("!keep.txt", PatternError.NEGATION, 0, "negation is not supported",
                "only adds protection", "\\!");
        assertTrue(e.getMessage().contains("!keep.txt"));
        assertEquals("!x", compile("\\!x").literalPath());
        assertEquals("a/!x", compile("a/!x").literalPath());
    }

    @Test
    void controlCharacter() {
        PatternException e = reject("ab\u0000c", PatternError.CONTROL_CHARACTER, 2, "U+0000", "remove it");
        assertFalse(e.getMessage().contains("\u0000"), "control characters are escaped in the message");
        reject("a\tb", PatternError.CONTROL_CHARACTER, 1, "U+0009");
        reject("a\nb", PatternError.CONTROL_CHARACTER, 1, "U+000A");
        reject("x\u007f", PatternError.CONTROL_CHARACTER, 1, "U+007F");
        reject("\u001f", PatternError.CONTROL_CHARACTER, 0, "U+001F");
        // control characters are found before anything else
        reject("/a\u0001", PatternError.CONTROL_CHARACTER, 2);
    }

    @Test
    void invalidClass() {
        reject("[", PatternError.INVALID_CLASS, 0, "never closed", "\\[");
        reject("src/[ab", PatternError.INVALID_CLASS, 4, "never closed");
        reject("a[]b", PatternError.INVALID_CLASS, 1);
        reject("[!]", PatternError.INVALID_CLASS, 0);
        reject("[a-\\", PatternError.INVALID_CLASS, 0);
        reject("[[:alpha:]", PatternError.INVALID_CLASS, 0);
        reject("x[[:spaci:]]", PatternError.INVALID_CLASS, 2, "[:spaci:]", "alnum", "xdigit");
        reject("[[::]]", PatternError.INVALID_CLASS, 1, "[::]");
        // valid look-alikes, as in git
        assertTrue(compile("[[:]ab]").matches("[ab]"));
        assertTrue(compile("[[:digit]ab]").matches("[ab]"));
        assertTrue(compile("[]]").matches("]"));
    }

    @Test
    void trailingBackslash() {
        reject("\\", PatternError.TRAILING_BACKSLASH, 0, "\\\\");
        reject("dir\\", PatternError.TRAILING_BACKSLASH, 3);
        reject("a\\\\\\", PatternError.TRAILING_BACKSLASH, 3);
        assertEquals("a\\", compile("a\\\\").literalPath());
    }

    @Test
    void root() {
        reject(".", PatternError.ROOT, 0, "itself", "'**'");
        reject("./", PatternError.ROOT, 0);
        reject(".//", PatternError.ROOT, 0);
        reject("./././", PatternError.ROOT, 0);
        assertTrue(compile("**").matches("anything/at/all"));
    }

    @Test
    void trailingSpaceIsLegalAndLiteral() {
        Glob g = compile("notes.txt  ");
        assertTrue(g.isLiteral());
        assertEquals("notes.txt  ", g.literalPath());
        assertFalse(g.matches("notes.txt"));
    }

    private static Glob compile(String raw) {
        try {
            return Glob.compile(raw);
        } catch (PatternException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }
}
