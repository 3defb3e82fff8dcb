package bufq.shell.cli;

import bufq.shell.command.Commands;
import bufq.shell.repl.PlainRepl;
import bufq.shell.api.Command;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code --format json}: every command {@code help} lists prints nothing or one JSON document, and a
 * run of several statements prints one document too (an array of their results), so a script can
 * {@code json.load} any run. JSON.parse of the JavaScript engine is the strict parser.
 */
class JsonEveryCommandTest {
    private static final String MLP = CliTest.root().resolve("examples/jax-mlp").toString();
    private static final Context JS = Context.create("js");
    private static final Value PARSE = JS.eval("js", "JSON.parse");

    @AfterAll
    static void close() { JS.close(); }

    /** A statement for each command: its first example when it needs no file, else its bare name. */
    static List<String> statements() {
        List<String> out = new ArrayList<>();
        for (Command c : Commands.standard().all()) {
            String example = c.examples().isEmpty() ? c.name() : c.examples().get(0);
            boolean local = example.startsWith(c.name()) && !example.contains("/") && !example.contains(".")
                    && !example.contains("DUMP");
            // diff needs two sides; quit would end the run and another format end the document
            out.add(switch (c.name()) {
                case "diff" -> "diff 1 1";
                case "quit" -> "help";
                case "format" -> "format json";
                default -> local ? example : c.name();
            });
        }
        out.add("values order by size desc limit 3");
        out.add("js ({a: 1, b: [1, 'x', null], c: {d: true}})");
        return out;
    }

    static String run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        new Bufq(new Env(Map.of(), false), DefaultEngine::new, PlainRepl::new).run(args, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    static Value parse(String what, String text) {
        try {
            return PARSE.execute(text);
        } catch (PolyglotException e) {
            throw new AssertionError(what + " is not one JSON document (" + e.getMessage() + "):\n" + text);
        }
    }

    @Test
    void everyCommandPrintsNothingOrOneDocument() {
        for (String s : statements()) {
            String out = run("--format", "json", "-c", s, MLP);
            if (!out.isBlank()) parse(s, out);
        }
    }

    @Test
    void aJsValueIsJson() {
        Value v = parse("js", run("--format", "json", "-c", "js ({a: 1, b: [1, 'x', null], c: {d: true}})", MLP));
        assertEquals(1, v.getMember("a").asInt());
        assertEquals("x", v.getMember("b").getArrayElement(1).asString());
        assertTrue(v.getMember("c").getMember("d").asBoolean());
    }

    @Test
    void aRunOfSeveralStatementsIsOneArray() {
        List<String> args = new ArrayList<>(List.of("--format", "json"));
        for (String s : statements()) args.addAll(List.of("-c", s));
        args.add(MLP);
        Value all = parse("the whole run", run(args.toArray(String[]::new)));
        assertTrue(all.hasArrayElements());
        assertTrue(all.getArraySize() > 10, "one element per statement that printed: " + all.getArraySize());
        Value two = parse("two", run("--format", "json", "-c", "values limit 1", "-c", "summary", MLP));
        assertEquals(2, two.getArraySize());
        Value one = parse("one", run("--format", "json", "-c", "values limit 1", MLP));
        assertTrue(one.hasArrayElements() && one.getArraySize() == 1 && one.getArrayElement(0).hasMember("label"),
                "a single result is itself, not wrapped");
    }

    /** What a script prints ({@code print}) in json is an entry {@code {"print": LINE}}: the whole output stays one document. */
    @Test
    void printedLinesStayJson() {
        String out = run("--format", "json", "-c", "js print('a \"quoted\" line'); print(1, 2); 42", "-c", "values limit 1", MLP);
        Value all = parse("a run whose script prints", out);
        assertEquals(4, all.getArraySize(), out);
        assertEquals("a \"quoted\" line", all.getArrayElement(0).getMember("print").asString());
        assertEquals("1 2", all.getArrayElement(1).getMember("print").asString());
        assertEquals(42, all.getArrayElement(2).asInt());
        Value alone = parse("a print alone", run("--format", "json", "-c", "js print('x')", MLP));
        assertEquals("x", alone.getMember("print").asString());
        assertTrue(run("-c", "js print('plain')", MLP).equals("plain\n"), "other formats print the line as it is");
    }

    /** The interactive shell prints one document per statement, a script's printed lines and value included. */
    @Test
    void eachStatementOfTheShellIsOneDocument() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        bufq.shell.run.Shell shell = Bufq.shell(new DefaultEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new Env(Map.of(), true));
        try {
            shell.modules().load(List.of(java.nio.file.Path.of(MLP)));
            shell.execute("format json");
            shell.execute("js print('a'); print('b'); 7");
            Value v = parse("a statement that prints", out.toString(StandardCharsets.UTF_8));
            assertEquals(3, v.getArraySize());
            assertEquals("b", v.getArrayElement(1).getMember("print").asString());
            out.reset();
            shell.execute("values limit 1");
            assertEquals(1, parse("the next statement", out.toString(StandardCharsets.UTF_8)).getArraySize());
            out.reset();
            shell.execute("js print('alone')");
            assertEquals("alone", parse("a print alone", out.toString(StandardCharsets.UTF_8)).getMember("print").asString());
        } finally {
            shell.close();
        }
    }
}
