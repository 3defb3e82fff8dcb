package bufq.shell.script;

import bufq.shell.cli.Bufq;
import bufq.shell.repl.PlainRepl;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.shell.session.Status;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** Every ```js block of scripts/README.md runs cleanly, and its ```console transcripts are real. */
class ReadmeExamplesTest {
    record Block(String lang, int line, String text) {}

    static List<Block> blocks() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(Harness.root().resolve("scripts/README.md")));
        // The scripting page of the docs shows transcripts too.
        List<String> top = Files.readAllLines(Harness.root().resolve("docs/scripting.md"));
        int from = top.indexOf("## Scripting in JavaScript");
        if (from >= 0) {
            int to = from + 1;
            while (to < top.size() && !top.get(to).startsWith("## ")) to++;
            lines.addAll(top.subList(from, to));
        }
        List<Block> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("```") || lines.get(i).length() == 3) continue;
            String lang = lines.get(i).substring(3).strip();
            int start = i + 1;
            StringBuilder b = new StringBuilder();
            for (i = start; i < lines.size() && !lines.get(i).equals("```"); i++) b.append(lines.get(i)).append('\n');
            out.add(new Block(lang, start + 1, b.toString()));
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> everyJsExampleRuns() throws Exception {
        List<Block> js = blocks().stream().filter(b -> b.lang().equals("js")).toList();
        assertTrue(js.size() >= 6, "README has its examples: " + js.size());
        return js.stream().map(b -> DynamicTest.dynamicTest("README.md line " + b.line(), () -> {
            try (Harness h = new Harness().load(Harness.root().resolve("examples/jax-mlp"))) {
                Status st = h.shell.scripts().eval(b.text(), "README.md:" + b.line());
                assertEquals(Status.OK, st);
                assertEquals("", h.err(), "no errors or warnings");
                if (b.text().contains("print(") || b.text().contains("console.log")) assertFalse(h.out().isBlank());
                if (b.text().contains("bufq.check(")) {
                    assertEquals(Status.OK, h.run("check"), h.err());
                    assertTrue(h.out().contains("no-huge-temps"), "the check ran: " + h.out());
                }
            }
        }));
    }

    @Test
    void consoleTranscriptsAreReal() throws Exception {
        int commands = 0;
        for (Block b : blocks()) {
            if (!b.lang().equals("console")) continue;
            String[] parts = ("\n" + b.text()).split("\n\\$ ");
            for (String part : parts) {
                if (part.isBlank()) continue;
                int nl = part.indexOf('\n');
                String command = part.substring(0, nl);
                String expected = part.substring(nl + 1);
                if (!expected.endsWith("\n")) expected += "\n";
                List<String> argv = shellWords(command);
                assertEquals("./bufq", argv.get(0));
                List<String> args = new ArrayList<>();
                for (String a : argv.subList(1, argv.size())) {
                    Path p = Harness.root().resolve(a);
                    args.add(!a.startsWith("-") && Files.exists(p) ? p.toString() : a);
                }
                ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
                int code = new Bufq(new Env(Map.of(), false), DefaultEngine::new, PlainRepl::new).run(args.toArray(String[]::new),
                        new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
                assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
                assertEquals(expected, out.toString(StandardCharsets.UTF_8), command);
                commands++;
            }
        }
        assertTrue(commands >= 5, "the transcripts of both READMEs are there: " + commands);
    }

    /** Splits a command line with single and double quotes, as sh does for these simple cases. */
    static List<String> shellWords(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean in = false;
        char quote = 0;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) quote = 0;
                else w.append(c);
            } else if (c == '\'' || c == '"') {
                quote = c;
                in = true;
            } else if (Character.isWhitespace(c)) {
                if (in) out.add(w.toString());
                w.setLength(0);
                in = false;
            } else {
                w.append(c);
                in = true;
            }
        }
        if (in) out.add(w.toString());
        return out;
    }
}
