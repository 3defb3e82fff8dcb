package bufq.shell.repl;

import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Arg;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.analysis.fit.HeldArray;
import bufq.analysis.fit.Program;
import bufq.analysis.liveness.Liveness;
import bufq.shell.run.Shell;
import bufq.shell.session.Status;
import bufq.model.HloModule;
import bufq.model.HloValue;
import org.jline.reader.Candidate;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.*;

/** The completer on parsed lines, with the bundled example loaded: what Tab offers where. */
class ReplCompleterTest {
    @TempDir Path tmp;
    Shell shell;
    ReplParser parser;
    ReplCompleter completer;
    LineReader reader;

    @BeforeEach
    void setUp() throws IOException {
        Transcript t = new Transcript(tmp);
        shell = t.open(InputStream.nullInputStream());
        parser = new ReplParser(() -> shell.engine().entities(), code -> shell.scripts().incomplete(code));
        completer = new ReplCompleter(shell, () -> shell.engine().catalog(), parser);
        reader = LineReaderBuilder.builder().terminal(t.terminal).parser(parser).build();
    }

    /** Candidates for the cursor at the end of {@code line}, as JLine would offer them (prefix-filtered). */
    List<String> at(String line) {
        ReplParser.ReplLine l = parser.split(line, line.length());
        List<Candidate> cs = new ArrayList<>();
        completer.complete(reader, l, cs);
        String prefix = l.word().substring(0, l.wordCursor());
        return ReplCompleter.values(cs).stream().filter(v -> v.startsWith(prefix)).toList();
    }

    /** Tab completed nothing after 'whatif ' or inside 'whatif remat where si'. */
    @Test
    void whatifCompletesEditsConditionsAndTheQueryAfter() {
        assertTrue(at("whatif ").containsAll(List.of("drop", "remat", "donate", "scale", "size", "tiling", "end")), at("whatif ").toString());
        assertEquals(List.of("remat"), at("whatif rem"));
        assertEquals(List.of("where"), at("whatif remat "));
        List<String> s = at("whatif remat where si");
        assertEquals(List.of("size"), s);
        assertTrue(at("whatif scale where dtype = \"f32\" and s").containsAll(List.of("size", "shape", "start")));
        assertTrue(at("whatif tiling ").containsAll(List.of("tpu", "none")), at("whatif tiling ").toString());
        List<String> second = at("whatif drop where size > 1; ");
        assertTrue(second.containsAll(List.of("remat", "values", "steps")), second.toString());
        assertTrue(at("whatif drop where size > 1; steps order by occ").contains("occupied_bytes"),
                at("whatif drop where size > 1; steps order by occ").toString());
    }

    @Test
    void startOfLineOffersEntitiesAndCommands() {
        assertEquals(List.of("values"), at("val"));
        List<String> all = at("");
        assertTrue(all.containsAll(List.of("values", "allocations", "instructions", "steps", "load", "use", "help", "quit")), all.toString());
        assertEquals(List.of("summary"), at("summ"));
    }

    @Test
    void fieldsOfTheEntityAfterWhereShowAndOrderBy() {
        List<String> s = at("values where s");
        assertTrue(s.containsAll(List.of("size", "shape", "start")), s.toString());
        assertTrue(s.stream().allMatch(w -> w.startsWith("s")), s.toString());
        assertTrue(at("values where ").containsAll(List.of("id", "label", "color", "size", "live", "not")));
        assertTrue(at("values show label, ").contains("offset"));
        assertTrue(at("values order by ").contains("size"));
        assertTrue(at("allocations where ").contains("num_values"), at("allocations where ").toString());
        assertFalse(at("allocations where ").contains("label"), "values' fields are not allocations' fields");
        assertTrue(at("values group by ").contains("color"));
    }

    @Test
    void keywordsAndClausesAfterACompleteCondition() {
        List<String> c = at("values where size > 1KiB ");
        assertTrue(c.containsAll(List.of("and", "or", "order by", "limit")), c.toString());
        assertEquals(List.of("at", "during"), at("values where live "));
    }

    @Test
    void instructionNamesAfterLiveAt() {
        List<String> c = at("values where live at ");
        assertTrue(c.containsAll(List.of("peak", "Arg_1.2", "copy-start")), c.toString());
        assertEquals(List.of("copy-start", "copy-start.1"), at("values where live at copy-s").subList(0, 2));
        // "0.." is one word for JLine, so the candidate carries it: Tab keeps what was typed.
        assertTrue(at("values where live during 0..").contains("0..Arg_2.3"), at("values where live during 0..").toString());
    }

    /** What Tab inserts: the prefix common to every candidate's value, as JLine computes it. */
    static String inserted(List<Candidate> cs) {
        String common = null;
        for (Candidate c : cs) {
            String v = c.value();
            if (common == null) { common = v; continue; }
            int k = 0;
            while (k < common.length() && k < v.length() && common.charAt(k) == v.charAt(k)) k++;
            common = common.substring(0, k);
        }
        return common == null ? "" : common;
    }

    @Test
    void aCutListNeverInsertsItsOwnPrefix() {
        // the 28 MB module's order: thousands of params_* first, other names after the cut
        List<String> names = new ArrayList<>();
        for (int i = 0; i < ReplCompleter.MAX_NAMES + 5; i++) names.add("params_" + i);
        names.add("fusion.1");
        List<Candidate> cs = new ArrayList<>();
        ReplCompleter.addCapped(cs, "", names, "instructions");
        assertEquals(ReplCompleter.MAX_NAMES + 1, cs.size());
        assertEquals("", inserted(cs), "Tab must not insert 'params_' while fusion.1 matches too");
        // when every match shares a prefix, that prefix is still offered
        cs.clear();
        ReplCompleter.addCapped(cs, "0..", names.subList(0, ReplCompleter.MAX_NAMES + 5), "instructions");
        assertEquals("0..params_", inserted(cs));
        assertTrue(cs.get(cs.size() - 1).displ().contains("5 more"), cs.get(cs.size() - 1).displ());
        // a list that is not cut has no extra candidate
        cs.clear();
        ReplCompleter.addCapped(cs, "", List.of("a.1", "a.2"), "instructions");
        assertEquals(List.of("a.1", "a.2"), ReplCompleter.values(cs));
    }

    /** The candidates themselves (value and description), for the cursor at the end of {@code line}. */
    List<Candidate> candidates(String line) {
        List<Candidate> cs = new ArrayList<>();
        completer.complete(reader, parser.split(line, line.length()), cs);
        return cs;
    }

    @Test
    void peakNumbersWithTheirStepsAfterPeakParen() {
        HloModule m = shell.current();
        int peak = Liveness.of(m).peakTime();
        for (String line : List.of("values where live at peak(", "values where live during 0..peak(")) {
            List<Candidate> cs = candidates(line);
            Candidate first = cs.stream().filter(c -> c.value().endsWith("1")).findFirst().orElseThrow(() -> new AssertionError(line + ": " + cs));
            assertTrue(first.descr().startsWith("step " + peak + ", "), line + ": " + first.descr());
            assertFalse(ReplCompleter.values(cs).contains("size"), line + ": no fields inside peak(");
        }
        assertTrue(at("values where live during 0..").contains("0..peak("), at("values where live during 0..").toString());
    }

    @Test
    void whyCompletesValueNamesIdsAndQueries() {
        HloModule m = shell.current();
        HloValue v = m.values().get(m.values().size() - 1);
        String name = v.name();
        List<String> byName = at("why " + name.substring(0, Math.min(3, name.length())));
        assertTrue(byName.contains(name), byName.toString());
        List<String> byId = at("why " + v.id());
        assertTrue(byId.contains(Long.toString(v.id())), byId.toString());
        assertTrue(at("why val").contains("values"), at("why val").toString());
        List<String> query = at("why values where live at ");
        assertTrue(query.contains("peak("), query.toString());
    }

    @Test
    void valuesOfEveryStringFieldAfterEquals() {
        assertTrue(at("values where opcode = ").size() > 0, at("values where opcode = ").toString());
        assertTrue(at("values where dtype = ").contains("\"f32\""), at("values where dtype = ").toString());
        // only the field's values: not every field and keyword an operand may also be
        List<String> categories = at("values where category = ");
        assertFalse(categories.isEmpty(), categories.toString());
        assertTrue(categories.stream().allMatch(v -> v.startsWith("\"")), categories.toString());
        assertTrue(categories.size() <= 9, categories.toString());
    }

    @Test
    void quotedNamesInStringPositions() {
        List<String> c = at("values where label = \"Arg_1");
        assertTrue(c.contains("\"Arg_1.2\""), c.toString());
        assertTrue(c.stream().allMatch(v -> v.startsWith("\"Arg_1")), c.toString());
        assertTrue(at("values where label = ").contains("\"Arg_1.2\""));
        assertTrue(at("values where label in (\"Arg_1.2\", ").contains("\"Arg_2.3\""));
        assertTrue(at("values where name ~ ").isEmpty() || !at("values where size = ").contains("\"Arg_1.2\""),
                "no names for a number field");
        assertFalse(at("values where size = ").contains("\"Arg_1.2\""));
    }

    @Test
    void commandArguments() {
        assertEquals(List.of("004_0cb419b3147a3cb6"), at("use "));
        assertTrue(at("set ").containsAll(List.of("rawsizes", "maxrows", "color", "tiling", "format", "category")));
        assertEquals(List.of("auto", "on", "off"), at("set color "));
        assertTrue(at("set tiling ").containsAll(List.of("tpu", "none")));
        assertTrue(at("format ").containsAll(List.of("table", "csv", "json")));
        assertEquals(List.of("steps"), at("fields st"));
        assertEquals(List.of("on", "off"), at("timer o"));
    }

    @Test
    void everyHelpTopicOfferedIsOneHelpKnows() {
        List<String> topics = at("help ");
        assertTrue(topics.containsAll(List.of("query", "formats", "settings", "load", "use")), topics.toString());
        for (String topic : topics) assertEquals(Status.OK, shell.execute("help " + topic), "help " + topic);
    }

    @Test
    void pathsAfterLoadRunAndOutput() throws IOException {
        Files.writeString(tmp.resolve("report.bq"), "values\n");
        Files.createDirectories(tmp.resolve("dumps"));
        assertEquals(List.of(tmp + "/report.bq"), at("run " + tmp + "/rep"));
        assertTrue(at("load " + tmp + "/du").get(0).startsWith(tmp + "/dumps"), at("load " + tmp + "/du").toString());
        assertEquals(List.of(tmp + "/report.bq"), at("output " + tmp + "/rep"));
    }

    @Test
    void reportCommandsCompleteFromTheirSynopsis() throws IOException {
        assertEquals(List.of("by", "depth", "at", "limit"), at("blame "));
        assertEquals(List.of("op_name", "source", "opcode", "stack", "category", "path"), at("blame by "));
        assertEquals(List.of("depth", "at", "limit"), at("blame by source "));
        // a step: the grammar's named steps, then the module's scheduled instructions
        List<String> steps = at("blame by category at ");
        assertEquals("claimed_peak", steps.get(0), steps.toString());
        assertTrue(steps.contains("copy-start"), steps.toString());
        assertEquals(List.of(), at("blame depth "), "a number: nothing to offer");
        assertEquals(List.of("color", "space"), at("peak "));
        assertTrue(at("timeline ").containsAll(List.of("color", "width", "--svg", "--html", "--force")), at("timeline ").toString());
        Files.writeString(tmp.resolve("chart.svg"), "");
        assertEquals(List.of(tmp + "/chart.svg"), at("timeline --svg " + tmp + "/cha"));
        assertTrue(at("diff ").contains("004_0cb419b3147a3cb6"), at("diff ").toString());
        assertTrue(at("diff 004_0cb419b3147a3cb6 ").contains("004_0cb419b3147a3cb6"), "B is a module too");
    }

    /** After each command, the keywords its grammar declares; after a keyword of choices, the choices. */
    @Test
    void everyCommandOffersItsGrammarsKeywords() {
        for (Command c : shell.commands().all()) {
            ArgGrammar g = c.grammar().parts() != null ? c.grammar().parts() : c.grammar();
            List<ArgGrammar> forms = g.forms().isEmpty() ? List.of(g) : g.forms();
            Set<String> expected = new TreeSet<>();
            for (ArgGrammar f : forms) {
                if (c.grammar().parts() != null) {
                    expected.add(f.command());
                    assertTrue(at(c.name() + " " + f.command() + " ").containsAll(keywords(f)), c.name() + " " + f.command());
                } else {
                    expected.addAll(keywords(f));
                }
                for (Arg a : f.args()) {
                    if (a.positional() || a.kind() != ArgKind.CHOICE) continue;
                    String line = c.name() + " " + (c.grammar().parts() != null ? f.command() + " " : "") + a.word() + " ";
                    assertTrue(at(line).containsAll(a.choices()), line + ": " + at(line));
                }
            }
            List<String> offered = at(c.name() + " ");
            assertTrue(offered.containsAll(expected), c.name() + ": " + offered + " lacks some of " + expected);
        }
        assertTrue(at("whatif end where size > 1 at ").contains("last_use"), at("whatif end where size > 1 at ").toString());
        assertTrue(at("whatif size where id = 1 ").contains("="), at("whatif size where id = 1 ").toString());
        // 'at' inside the condition is the condition's: what a query takes after 'live at peak'
        assertTrue(at("whatif end where live at peak ").contains("and"), at("whatif end where live at peak ").toString());
    }

    private static List<String> keywords(ArgGrammar f) {
        List<String> out = new ArrayList<>();
        for (Arg a : f.args()) if (!a.positional() && !a.hidden()) out.add(a.word());
        return out;
    }

    @Test
    void completionReadsTheGrammar() {
        ArgGrammar map = shell.commands().byName("map").grammar();
        assertEquals(List.of("allocation", "width", "--svg", "--html", "--force"), GrammarCompleter.after(map, List.of()).words());
        assertEquals(ArgKind.FILE, GrammarCompleter.after(map, List.of("3", "--html")).want());
        assertEquals(List.of("width", "--svg", "--html", "--force"), GrammarCompleter.after(map, List.of("allocation", "3")).words());
        assertEquals(List.of("allocation", "width", "--force"), GrammarCompleter.after(map, List.of("3", "--svg", "a.svg")).words(),
                "one of --svg and --html");
        ArgGrammar diff = shell.commands().byName("diff").grammar();
        assertEquals(ArgKind.MODULE, GrammarCompleter.after(diff, List.of("a")).want());
        Set<ArgKind> offered = EnumSet.of(ArgKind.MODULE, ArgKind.FILE);
        assertFalse(offered.contains(GrammarCompleter.after(diff, List.of("a", "b")).want()), "both modules given");
        assertFalse(offered.contains(GrammarCompleter.after(diff, List.of("a", "b", "limit")).want()));
    }

    /**
     * Names are listed in natural order ({@code .2} before {@code .10}): JLine shows candidates by
     * their rank, then by plain string order, so the order JLine would show is checked.
     */
    @Test
    void namesAreListedInNaturalOrder() {
        for (String line : List.of("values where live at ", "why ", "values where name = ")) {
            ReplParser.ReplLine l = parser.split(line, line.length());
            List<Candidate> cs = new ArrayList<>();
            completer.complete(reader, l, cs);
            List<String> shown = cs.stream().filter(c -> c.group() != null && List.of("instructions", "values", "name").contains(c.group()))
                    .sorted().map(Candidate::value).toList();
            List<String> natural = new ArrayList<>(shown);
            natural.sort(bufq.table.NaturalOrder.INSTANCE);
            assertEquals(natural, shown, line);
        }
        List<Candidate> cs = new ArrayList<>();
        ReplCompleter.addCapped(cs, "", List.of("param.1", "fusion.10", "fusion.2", "fusion.1", "fusion.100"), "instructions");
        assertEquals(List.of("fusion.1", "fusion.2", "fusion.10", "fusion.100", "param.1"),
                cs.stream().sorted().map(Candidate::value).toList(), "as JLine lists them");
    }

    // Tab after settings that take a value, after fit and its keep/drop lists, and paths after oom

    @Test
    void settingValuesAreOfferedAndEachIsTakenBySet() {
        assertTrue(at("set device ").containsAll(List.of("none", "v4", "v5e", "v5p", "h100")), at("set device ").toString());
        assertEquals(List.of("v5e", "v5p"), at("set device v5"));
        List<String> capacities = at("set capacity ");
        assertTrue(capacities.containsAll(List.of("none", "16GiB", "80GB")), capacities.toString());
        assertTrue(at("set reserved ").contains("0"), at("set reserved ").toString());
        assertTrue(at("set maxwidth ").contains("0"), at("set maxwidth ").toString());
        assertEquals(List.of("auto", "on", "off"), at("set color "));
        assertTrue(at("set format ").containsAll(List.of("table", "csv", "json", "ndjson")), at("set format ").toString());
        assertEquals(Status.OK, shell.execute("set format ndjson"));
        assertEquals("ndjson", shell.printer().format().name());
        shell.execute("format table");
        for (String s : List.of("device", "capacity", "reserved", "maxrows", "maxwidth", "timeout", "threshold", "color")) {
            for (String v : at("set " + s + " ")) assertEquals(Status.OK, shell.execute("set " + s + " " + v), "set " + s + " " + v);
        }
    }

    @Test
    void fitOffersProgramsThenArraysAfterKeepAndDrop() {
        String handle = shell.modules().set().entries().get(0).handle();
        List<String> first = at("fit ");
        assertTrue(first.containsAll(List.of(handle, "where", "keep", "drop")), first.toString());
        List<String> drop = at("fit drop ");
        assertTrue(drop.containsAll(List.of("all", "none", "parameters", "outputs", handle, handle + ":outputs")), drop.toString());
        List<HeldArray> arrays = Program.of(shell.current()).arrays();
        assertFalse(arrays.isEmpty());
        assertTrue(drop.contains(arrays.get(0).name()), drop.toString());
        assertTrue(at("fit keep outputs, ").contains("parameters"), at("fit keep outputs, ").toString());
        assertTrue(at("fit keep outputs drop ").contains(arrays.get(0).name()));
        assertFalse(at("fit keep ").contains("where"), at("fit keep ").toString());
    }

    @Test
    void oomCompletesPaths() throws IOException {
        Files.writeString(tmp.resolve("err.log"), "RESOURCE_EXHAUSTED\n");
        assertEquals(List.of(tmp + "/err.log"), at("oom " + tmp + "/er"));
        assertEquals(List.of(tmp + "/err.log"), at("load " + tmp + "/er"));
    }
}
