package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.shell.run.Shell;
import bufq.shell.session.Status;
import bufq.testing.Corpus;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code why} and the {@code uses} entity through the command line, on corpus dumps. */
class WhyCliTest {
    private static String dump(String dir) {
        return Corpus.require("jax-0.10.2/" + dir).toString();
    }

    private static CliTest.Result run(String dump, String... statements) {
        List<String> args = new ArrayList<>();
        for (String s : statements) args.addAll(List.of("-c", s));
        args.add(dump);
        return CliTest.run(DefaultEngine::new, Map.of(), args, "");
    }

    @Test
    void anIdANameATupleElementAndAQuerySelectValues() {
        String rnn = dump("rnn-scan");
        CliTest.Result byId = run(rnn, "why 87");
        assertEquals(0, byId.code(), byId.err());
        assertTrue(byId.out().startsWith("what it is: wrapped_add (id 87)\n"), byId.out());
        assertTrue(byId.out().contains("carry   held as tuple.23 {0}\n"), byId.out());
        assertEquals(byId.out(), run(rnn, "why wrapped_add").out(), "a name selects the same value");
        CliTest.Result element = run(rnn, "why while.15{1}");
        assertEquals(0, element.code(), element.err());
        assertTrue(element.out().startsWith("what it is: while.15{1} (id 180)"), element.out());
        CliTest.Result query = run(rnn, "why values where live at peak order by size desc limit 2");
        assertEquals(0, query.code(), query.err());
        assertEquals(2, query.out().split("what it is: ", -1).length - 1, query.out());
    }

    @Test
    void everyPartIsATableInJson() {
        CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(),
                List.of("--format", "json", "-c", "why x.1", dump("transformer-2layer")), "");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("{\"reason\": \"undonated_parameter\", \"detail\": \"entry parameter 12, not donated\"}"), r.out());
        assertTrue(r.out().contains("\"peak_inside\": "), r.out());
        assertTrue(r.out().contains("\"why_it_ends\": ["), "parts are named by their titles: " + r.out());
    }

    @Test
    void theIssuesExampleOrdersByAProduct() {
        String t = dump("pairs/transformer-4layer");
        CliTest.Result product = run(t, "values where live at peak and idle_at_peak order by size * idle_steps desc limit 10 show id");
        CliTest.Result field = run(t, "values where live at peak and idle_at_peak order by idle_byte_steps desc limit 10 show id");
        assertEquals(0, product.code(), product.err());
        assertEquals(field.out(), product.out(), "size * idle_steps is idle_byte_steps");
        assertTrue(product.out().contains("(10 rows)"), product.out());
        CliTest.Result shown = run(t, "values where id = 1324 order by size * idle_steps + 1 desc show id");
        assertEquals(0, shown.code(), shown.err());
        assertTrue(shown.out().contains("1324"), shown.out());
    }

    @Test
    void aBareTupleNameListsTheTupleFirstThenItsElements() {
        CliTest.Result r = run(dump("rnn-scan"), "why while.15");
        assertEquals(0, r.code(), r.err());
        List<String> titles = r.out().lines().filter(l -> l.startsWith("what it is: ")).toList();
        assertTrue(titles.get(0).startsWith("what it is: while.15{} "), titles.toString());
        assertTrue(titles.get(1).startsWith("what it is: while.15{0} "), titles.toString());
    }

    @Test
    void aPositionThatDefinesNoValueShowsTheOpcodeItIsNamedAfter() {
        CliTest.Result r = run(dump("transformer-2layer"), "why x.1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.matches(" *\\d+  bitcast  +bitcast( .*)?")), r.out());
        assertTrue(r.out().contains("opcode of bitcast: from the name"), r.out());
        assertTrue(r.out().contains("live from step 0, before its instruction at step 12 (a parameter is live from the start of the "
                + "program); its idle stretches start after step 0, the start of its live range"), "born and idle agree: " + r.out());
    }

    @Test
    void badSelectionsAreOneLineErrors() {
        String t = dump("transformer-2layer");
        for (String[] c : new String[][] {
                {"why 999999", "no value with id 999999"},
                {"why no_such_instruction", "no value named no_such_instruction"},
                {"why x.1{3}", "no value x.1{3}"},
                {"why allocations where temp", "why takes a query on values, not on allocations"},
                {"why values group by color show count()", "cannot group or aggregate"},
                {"why values where colr = 1", "did you mean 'color'"},
                {"why", "usage: why"}}) {
            CliTest.Result r = run(t, c[0]);
            assertEquals(1, r.code(), c[0]);
            assertTrue(r.err().contains(c[1]), c[0] + ": " + r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
    }

    @Test
    void usesAndIdleFieldsAnswerQueries() {
        CliTest.Result r = run(dump("rnn-scan"), "uses where value = 87",
                "values where id = 146 show last_use, first_use, use_count, idle_steps, idle_at_peak, end_reason");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("   87  wrapped_add  tuple.23        0    43  tuple"), r.out());
        assertTrue(r.out().contains("undonated_parameter"), r.out());
    }

    @Test
    void peaksListsTheHighestFirstAndPeakNSelectsOne() {
        String t = dump("transformer-2layer");
        CliTest.Result r = run(t, "peaks min_share 5%");
        assertEquals(0, r.code(), r.err());
        String[] rows = r.out().split("\n");
        assertTrue(rows[3].startsWith("   1    82   82  copy_bitcast_fusion.5"), r.out());
        assertTrue(rows[4].startsWith("   2   120  120  add_bitcast_fusion.1"), r.out());
        assertTrue(r.out().contains("'live at peak(N, min_share 5%)' selects what is live at peak N"), r.out());
        CliTest.Result second = run(t, "values where live at peak(1) show count()",
                "values where live at 82 show count()", "values where live at peak(2, min_share 5%) show count()",
                "values where live at 120 show count()");
        String[] counts = second.out().split("\n");
        assertEquals(counts[2], counts[6], "peak(1) is the highest step: " + second.out());
        assertEquals(counts[10], counts[14], "peak(2, min_share 5%) is row 2 of 'peaks min_share 5%': " + second.out());
        for (String[] c : new String[][] {{"peaks min_share 20", "min_share takes a percentage"},
                {"peaks min_share 120%", "min_share takes a percentage"}, {"peaks color 7", "no color 7"},
                {"values where live at peak(5)", "has 1 peak with a prominence of at least 20% of the highest; see 'peaks'"},
                {"values where live at peak(3, min_share 5%)", "has 2 peaks with a prominence of at least 5% of the highest; "
                        + "see 'peaks min_share 5%'"},
                {"values where live at peak(1, color 9)", "has no color 9"},
                {"values where live at peak(1, colour 0)", "expected 'color N' or 'min_share P'"},
                {"values where live at peak(1, min_share 150%)", "expected a percentage from 0% to 100%"}}) {
            CliTest.Result bad = run(t, c[0]);
            assertEquals(1, bad.code(), c[0]);
            assertTrue(bad.err().contains(c[1]), c[0] + ": " + bad.err());
        }
    }

    @Test
    void theScriptApiReturnsTheSameParts() {
        String rnn = dump("rnn-scan");
        CliTest.Result js = run(rnn, "js const w = bufq.why(87); print(Object.keys(w).join(','), w.what_it_is[0].value, "
                + "w.why_it_ends[0].reason, w.why_it_ends[0].detail, w.idle_stretches[0].from, w.idle_stretches[0].steps, "
                + "w.uses.length, w.at_the_peak[0].live, w.at_the_peak[0].saves)");
        assertEquals(0, js.code(), js.err());
        assertEquals("what_it_is,born,uses,why_it_ends,idle_stretches,at_the_peak wrapped_add carry held as tuple.23 {0} 36 7 3 false 0\n",
                js.out());
        CliTest.Result byName = run(rnn, "js print(JSON.stringify(bufq.why('wrapped_add')) === JSON.stringify(bufq.why(87)),"
                + " bufq.why('while.15{1}').what_it_is[0].id)");
        assertEquals("true 180\n", byName.out(), byName.err());
        CliTest.Result json = CliTest.run(DefaultEngine::new, Map.of(), List.of("--format", "json", "-c", "why 87", rnn), "");
        for (String key : List.of("what_it_is", "born", "uses", "why_it_ends", "idle_stretches", "at_the_peak"))
            assertTrue(json.out().contains("\"" + key + "\": ["), "the script's keys are the json keys: " + key);
        CliTest.Result two = CliTest.run(DefaultEngine::new, Map.of(), List.of("--format", "json", "-c", "why while.15", rnn), "");
        assertTrue(two.out().startsWith("[\n  {\n    \"what_it_is\": ["), "several values: an array of objects: " + two.out());
        assertFalse(two.out().contains("what_it_is_2"), two.out());
        assertTrue(json.out().contains("\"idle_stretches\": [\n    {\"from\": 36, \"to\": 42, \"steps\": 7, \"byte_steps\": 28,"), json.out());
        assertTrue(json.out().contains("\"at_the_peak\": [\n    {\"peak\": 50, \"live\": false, \"held\": 0,"), json.out());
        CliTest.Result ambiguous = run(rnn, "js bufq.why('while.15')");
        assertTrue(ambiguous.err().contains("names 7 values"), ambiguous.err());
        CliTest.Result bad = run(rnn, "js bufq.why(99999)");
        assertEquals(1, bad.code());
        assertTrue(bad.err().contains("bufq.why(id): no value with id 99999"), bad.err());
    }

    @Test
    void ctrlCStopsWhyBetweenTwoValues() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Shell s = Bufq.shell(new DefaultEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), false));
        s.modules().load(List.of(Path.of(dump("rnn-scan"))));
        assertEquals(Status.OK, s.execute("why 87"), "reads the uses once, before the interrupt");
        out.reset();
        Thread.currentThread().interrupt();
        try {
            assertEquals(Status.ERROR, s.execute("why 87"));
        } finally {
            Thread.interrupted();
        }
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("error: cancelled (Ctrl-C)"), err.toString(StandardCharsets.UTF_8));
        assertEquals(Status.OK, s.execute("why 87"), "the next statement runs");
    }
}
