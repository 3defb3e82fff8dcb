package bufq.shell.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.shell.session.Env;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A script's print renamed the terminal window ({@code \x1b]2;...\x07}). On a terminal
 * what scripts write (print, console.error, thrown messages, echoed values) has its control
 * characters escaped as table cells do; to a file it stays exact.
 */
class ControlCharsTest {
    private static final String OSC = "\\x1b]2;pwned\\x07";   // as JavaScript source
    private static final String SHOWN = "\\x1b]2;pwned\\x07";  // as shown, escaped

    @TempDir Path dir;

    private static Harness onTerminal() {
        return new Harness(new Env(Map.of(), true)).load(Harness.seed(0));
    }

    @Test
    void everyWayAScriptWritesIsEscapedOnATerminal() throws Exception {
        try (Harness h = onTerminal()) {
            h.run("js print('a" + OSC + "b\\nsecond line')");
            h.run("js console.error('e" + OSC + "')");
            h.run("js printErr('p" + OSC + "')");
            h.run("js throw new Error('t" + OSC + "')");
            h.run("js 'v" + OSC + "'");
            String all = h.out() + h.err();
            assertFalse(all.contains("\u001b") || all.contains("\u0007"), all);
            assertTrue(h.out().contains("a" + SHOWN + "b\nsecond line\n"), "line breaks stay: " + h.out());
            for (String s : new String[] {"e" + SHOWN, "p" + SHOWN, "t" + SHOWN}) assertTrue(h.err().contains(s), s + " in " + h.err());
            assertTrue(h.out().contains("v" + SHOWN), h.out());
        }
    }

    @Test
    void aFileGetsTheTextExact() throws Exception {
        Path f = dir.resolve("out.txt");
        try (Harness h = onTerminal()) {
            h.ok("output " + f);
            h.ok("js print('a" + OSC + "b')");
            h.ok("output");
        }
        assertEquals("a\u001b]2;pwned\u0007b\n", Files.readString(f));
    }

    /**
     * U+202E (RIGHT-TO-LEFT OVERRIDE) and the other bidi controls reached the terminal raw,
     * so a printed U+202E before {@code txt.exe} read as {@code exe.txt}; escaped now, in script output,
     * errors, table cells and json alike.
     */
    @Test
    void bidiControlsAreEscapedOnATerminal() throws Exception {
        try (Harness h = onTerminal()) {
            h.run("js print('a\\u202etxt.exe \\u2066b\\u2069 \\u200fc')");
            h.run("js throw new Error('x\\u202ey')");
            h.run("js bufq.field('values', 'evil', v => '\\u202e' + v.name, {type: 'string'})");
            h.run("values where id = 11 show evil");
            h.run("format json");
            h.run("values where id = 11 show evil");
            String all = h.out() + h.err();
            for (char c : new char[] {'\u202e', '\u2066', '\u2069', '\u200f'}) assertFalse(all.indexOf(c) >= 0, all);
            assertTrue(h.out().contains("a\\u202etxt.exe \\u2066b\\u2069 \\u200fc\n"), h.out());
            assertTrue(h.err().contains("x\\u202ey"), h.err());
            assertTrue(h.out().contains("\\u202eadd"), h.out());
        }
    }
}
