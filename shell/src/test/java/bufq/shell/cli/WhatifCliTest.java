package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.testing.Corpus;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code whatif}, {@code advise} and {@code bufq.whatif} through the command line, on a corpus dump. */
class WhatifCliTest {
    private static String dump(String dir) {
        return Corpus.require("jax-0.10.2/" + dir).toString();
    }

    private static CliTest.Result run(String... argsThenDump) {
        return CliTest.run(DefaultEngine::new, Map.of(), List.of(argsThenDump), "");
    }

    private static List<String> cs(String... statements) {
        List<String> args = new ArrayList<>();
        for (String s : statements) args.addAll(List.of("-c", s));
        return args;
    }

    @Test
    void whatifPrintsThePeakBeforeAndAfterThenTheQueryOnTheEditedCopy() {
        List<String> args = cs("whatif remat where live at peak and size > 1MiB; steps order by live_bytes desc limit 1");
        args.add(dump("transformer-2layer"));
        CliTest.Result r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("whatif (jit_step)\ncase "), r.out());
        assertTrue(r.out().contains("\nnow "), r.out());
        assertTrue(r.out().contains("\nwhat if "), r.out());
        assertTrue(r.out().contains("a bound under the current schedule"), r.out());
        assertTrue(r.out().contains("\nleave the peak set\n"), r.out());
        assertTrue(r.out().contains("\ntime  instruction"), "the final query's table: " + r.out());
    }

    @Test
    void aBadEditIsACaretUnderTheStatement() {
        List<String> args = cs("whatif scale where size > 1MiB by x");
        args.add(dump("transformer-2layer"));
        CliTest.Result r = run(args.toArray(String[]::new));
        assertEquals(1, r.code());
        String line = "whatif scale where size > 1MiB by x";
        assertTrue(r.err().contains(line + "\n" + " ".repeat(line.indexOf(" x") + 1) + "^"), r.err());
        assertTrue(r.err().contains("expected a factor such as 0.5 after 'by'"), r.err());
        List<String> field = cs("whatif drop where colr = 1");
        field.add(dump("transformer-2layer"));
        r = run(field.toArray(String[]::new));
        assertTrue(r.err().contains("whatif drop where colr = 1\n                  ^^^^"), "the caret is under the field in the whatif: " + r.err());
    }

    @Test
    void adviseIsMarkdownReadyAndJsSearchesOverEdits() {
        List<String> args = new ArrayList<>(List.of("--format", "markdown"));
        args.addAll(cs("advise", "js print(bufq.whatif('scale where dtype = \"f32\" by 0.5').peak.bytes < bufq.module.peak.bytes)"));
        args.add(dump("transformer-2layer"));
        CliTest.Result r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("| rank | change | saves | peak_share | figure | jax | finding | whatif_saves | whatif |"), r.out());
        assertTrue(r.out().contains("| activations |"), r.out());
        assertTrue(r.out().contains("whatif remat where id"), r.out());
        assertTrue(r.out().strip().endsWith("true"), r.out());
    }

    @Test
    void scriptsAddRulesThatAdviseMeasures() {
        List<String> args = cs("js bufq.rule('halve-f32', m => [{finding: 'halve the f32 values at the peak', "
                        + "whatif: 'scale where dtype = \"f32\" and live at peak by 0.5'}])",
                "js bufq.rule('nothing', m => [{finding: 'changes nothing', whatif: 'drop where size < 0'}])",
                "advise", "js bufq.rule('bad', m => 3)", "advise");
        args.add(dump("transformer-2layer"));
        CliTest.Result r = run(args.toArray(String[]::new));
        assertTrue(r.out().contains("halve-f32"), r.out());
        assertTrue(r.out().contains("halve the f32 values at the peak"), r.out());
        assertTrue(!r.out().contains("changes nothing"), "a finding that saves nothing is left out: " + r.out());
        assertTrue(r.err().contains("advise: js:1:18: rule 'bad' returned 3; expected an array of {finding, whatif}"), r.err());
        assertEquals(1, r.code());
    }

    /** Every format says what a what-if figure is, and so does the module view scripts get. */
    @Test
    void theBoundNoteIsInEveryFormatAndInTheScriptView() {
        for (String format : List.of("json", "markdown", "table")) {
            List<String> args = new ArrayList<>(List.of("--format", format));
            args.addAll(cs("whatif drop where id = 580"));
            args.add(dump("transformer-2layer"));
            CliTest.Result r = run(args.toArray(String[]::new));
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains("bound under the current schedule"), format + ": " + r.out());
        }
        List<String> args = cs("js print(bufq.whatif('drop where id = 580').note)");
        args.add(dump("transformer-2layer"));
        CliTest.Result r = run(args.toArray(String[]::new));
        assertTrue(r.out().startsWith("a bound under the current schedule"), r.out());
    }

    /** The whatif line of each finding, as json carries it, parses and reproduces the saving (no "... 28 more"). */
    @Test
    void adviseJsonLinesReproduceTheirSavings() {
        List<String> args = new ArrayList<>(List.of("--format", "json"));
        args.addAll(cs("advise"));
        args.add(dump("transformer-2layer"));
        CliTest.Result r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        var m = java.util.regex.Pattern.compile("\"whatif_saves\": (\\d+), [^\\n]*\"whatif\": \"whatif ((?:[^\"\\\\]|\\\\.)*)\"").matcher(r.out());
        int lines = 0;
        while (m.find()) {
            lines++;
            String edit = m.group(2).replace("\\\"", "\"");
            assertFalse(edit.contains("more)"), edit);
            List<String> again = new ArrayList<>(List.of("--format", "json"));
            again.addAll(cs("whatif " + edit));
            again.add(dump("transformer-2layer"));
            CliTest.Result w = run(again.toArray(String[]::new));
            assertEquals(0, w.code(), edit + ": " + w.err());
            assertTrue(w.out().contains("\"saves\": " + m.group(1) + "}"), "the last edit's row saves " + m.group(1) + ": " + w.out());
        }
        assertTrue(lines >= 3, r.out());
    }

    /** A script's rule can name the values behind its finding; they fill the evidence table. */
    @Test
    void scriptRulesGiveEvidence() {
        List<String> args = cs("js bufq.rule('drop-580', m => [{finding: 'drop the broadcast', whatif: 'drop where id = 580', values: [580]}])",
                "advise");
        args.add(dump("transformer-2layer"));
        CliTest.Result r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        String evidence = r.out().substring(r.out().indexOf("\nevidence\n"));
        assertTrue(evidence.contains(" 580  broadcast_multiply_fusion.1"), evidence);
        List<String> bad = cs("js bufq.rule('bad-ids', m => [{finding: 'x', whatif: 'drop where id = 580', values: [999999]}])", "advise");
        bad.add(dump("transformer-2layer"));
        r = run(bad.toArray(String[]::new));
        assertEquals(1, r.code());
        assertTrue(r.err().contains("whose 'values' holds 999999, not the id of a value of jit_step"), r.err());
    }

    /** The whatif and advise transcripts of docs/commands.md are real: each shown line is in the output, in order, up to its "...". */
    @Test
    void readmeTranscriptsAreReal() throws Exception {
        List<String> readme = Files.readAllLines(CliTest.root().resolve("docs/commands.md"));
        int from = readme.indexOf("## What can I change? `whatif` and `advise`");
        assertTrue(from >= 0, "docs/commands.md has the whatif section");
        int checked = 0;
        for (int i = from + 1; i < readme.size() && !readme.get(i).startsWith("## "); i++) {
            String line = readme.get(i).replace("$ ./bufq --format vertical -c ", "$ ./bufq -c ");
            if (!line.startsWith("$ ./bufq -c ")) continue;
            List<String> format = line.equals(readme.get(i)) ? List.of() : List.of("--format", "vertical");
            String rest = line.substring("$ ./bufq -c ".length());
            int q = rest.charAt(0) == '\'' ? rest.indexOf('\'', 1) : rest.indexOf(' ');
            String statement = rest.charAt(0) == '\'' ? rest.substring(1, q) : rest.substring(0, q);
            String path = rest.substring(q + 1).strip().replace(Corpus.RELATIVE + "/jax-0.10.2/", "");
            List<String> argv = new ArrayList<>(format);
            argv.addAll(List.of("-c", statement, dump(path)));
            CliTest.Result r = run(argv.toArray(String[]::new));
            assertEquals(0, r.code(), r.err());
            List<String> out = List.of(r.out().split("\n"));
            int at = 0;
            for (int k = i + 1; !readme.get(k).equals("```") && !readme.get(k).equals("..."); k++) {
                String shown = readme.get(k).strip();
                if (shown.equals("...")) break;
                while (at < out.size() && !out.get(at).strip().equals(shown)) at++;
                assertTrue(at < out.size(), "README line " + (k + 1) + " is not in the output of " + statement + ": " + shown);
            }
            checked++;
        }
        assertEquals(2, checked, "transcripts checked");
    }
}
