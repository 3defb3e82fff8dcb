package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Escape and bell bytes in data never reach a terminal raw, in any format; piped output keeps them exact. */
class TerminalOutputTest {
    static String run(boolean terminal, String format) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        String mlp = Path.of(System.getProperty("bufq.root", "..")).resolve("examples/jax-mlp").toString();
        String[] args = {"--no-init", "--format", format,
                "-c", "js bufq.field('values', 'evil', v => 'a\\x1b[31m\\x07b', {type: 'string'})",
                "-c", "values where id = 0 show evil", mlp};
        int code = new Bufq(new Env(Map.of("NO_COLOR", "1"), terminal), DefaultEngine::new, in -> { throw new AssertionError("no REPL"); })
                .run(args, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"table", "markdown", "csv", "tsv", "json"})
    void controlCharactersAreVisibleOnATerminal(String format) {
        String shown = run(true, format);
        assertFalse(shown.contains("\033") || shown.contains("\007"), format + ": " + shown);
        // Visible, not dropped or blanked: JSON's own escapes, \xNN in every other format.
        String visible = format.equals("json") ? "a\\u001b[31m\\u0007b" : "a\\x1b[31m\\x07b";
        assertTrue(shown.contains(visible), format + ": " + shown);
    }

    @ParameterizedTest
    @ValueSource(strings = {"csv", "tsv", "markdown"})
    void pipedDataStaysExact(String format) {
        assertTrue(run(false, format).contains("a\033[31m\007b"));
    }
}
