package bufq.shell.script;

import bufq.shell.cli.Bufq;
import bufq.shell.repl.PlainRepl;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.shell.run.Shell;
import bufq.shell.statement.StatementReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** {@code js} code spans lines while it is unfinished, in scripts, the plain REPL and the REPL's parser hook. */
class MultiLineTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '^', value = {
            "open brace            | function f() {                 | true",
            "open paren            | print(1,                       | true",
            "open bracket          | [1, 2,                         | true",
            "closed                | function f() { return 1 }      | false",
            "string with brace     | print('{')                     | false",
            "unclosed string       | print('abc                     | true",
            "template open         | `a ${1 +                       | true",
            "template unclosed     | `abc                           | true",
            "template closed       | `a ${ {x: 1}.x } b`            | false",
            "block comment open    | 1 /* more                      | true",
            "line comment brace    | 1 // {                         | false",
            "regex with bracket    | /[(]/.test('(')                | false",
            "division              | (4) / 2                        | false",
            "trailing backslash    | 1 + \\                         | true",
    })
    void incomplete(String what, String code, boolean more) {
        assertEquals(more, JsSource.incomplete(code), what);
    }

    @Test
    void statementReaderKeepsLineBreaksOfJs() throws Exception {
        String script = "js function twice(x) {\n  // a comment that would swallow the rest on one line\n  return 2 * x\n}\n"
                + "js twice(21)\nset maxrows 5\n";
        StatementReader r = new StatementReader(new BufferedReader(new StringReader(script)), List.of("values"), JsSource::incomplete);
        StatementReader.Statement s = r.next();
        assertEquals(1, s.line());
        assertEquals("js function twice(x) {\n  // a comment that would swallow the rest on one line\n  return 2 * x\n}", s.text());
        assertEquals("js twice(21)", r.next().text());
        assertEquals("set maxrows 5", r.next().text());
        assertNull(r.next());
        assertTrue(StatementReader.needsMore("js [1,", List.of(), JsSource::incomplete));
        assertFalse(StatementReader.needsMore("jsx [1,", List.of(), JsSource::incomplete), "only the js command");
    }

    @Test
    void bqScriptWithJsRuns(@TempDir Path dir) throws Exception {
        Path bq = Files.writeString(dir.resolve("s.bq"), "js function twice(x) {\n  return 2 * x // double\n}\njs print(twice(21))\n");
        try (Harness h = new Harness()) {
            assertEquals("42\n", h.ok("run " + bq));
        }
    }

    @Test
    void plainReplContinuesUnfinishedJs() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Shell s = Bufq.shell(new DefaultEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), true));
        String typed = "js const o = {\n  a: 1, // first\n  b: 2\n}\njs print(o.a + o.b)\nquit\n";
        assertEquals(0, new PlainRepl(new ByteArrayInputStream(typed.getBytes(StandardCharsets.UTF_8))).run(s));
        String o = out.toString(StandardCharsets.UTF_8);
        assertTrue(o.contains("   ...> "), o);
        assertTrue(o.contains("3\n"), o + err.toString(StandardCharsets.UTF_8));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        s.close();
    }

    @Test
    void replParserAsksForMoreUntilJsIsComplete() {
        bufq.shell.repl.ReplParser p = new bufq.shell.repl.ReplParser(() -> List.of("values"), JsSource::incomplete);
        org.jline.reader.Parser.ParseContext accept = org.jline.reader.Parser.ParseContext.ACCEPT_LINE;
        assertThrows(org.jline.reader.EOFError.class, () -> p.parse("js const o = {\n  a: 1, // }", 0, accept));
        String whole = "js const o = {\n  a: 1, // first\n  b: 2\n}";
        assertDoesNotThrow(() -> p.parse(whole, whole.length(), accept));
        assertEquals(whole, bufq.shell.repl.ReplParser.joined(whole), "line breaks reach the engine");
    }
}
