package bufq.shell.api;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArgGrammarTest {
    static final ArgGrammar BLAME = ArgGrammar.of("blame")
            .choice("by", List.of("op_name", "source", "opcode"), List.of("src"))
            .count("depth", 0).step("at", "claimed_peak").count("limit", 0).flag("--force");

    @Test
    void theSynopsisIsMadeFromTheDeclaration() {
        assertEquals("blame [by op_name|source|opcode] [depth N] [at claimed_peak|STEP] [limit N] [--force]", BLAME.synopsis());
    }

    @Test
    void readsKeywordsInAnyOrderWithTheirSpans() throws Exception {
        ParsedArgs p = BLAME.parse("limit 3 by src --force");
        assertEquals("src", p.text("by"));
        assertEquals(new ParsedArgs.Word("src", 11, 14), p.word("by"));
        assertEquals(3, p.count("limit").getAsInt());
        assertTrue(p.has("--force"));
        assertFalse(p.has("depth"));
    }

    @Test
    void aWrongWordGetsACaretAndADidYouMean() {
        ArgumentError e = assertThrows(ArgumentError.class, () -> BLAME.parse("by sorce"));
        assertEquals("blame by sorce\n         ^^^^^\nblame by takes op_name, source or opcode, not 'sorce'; did you mean 'source'?",
                e.render("blame by sorce", 6));
        e = assertThrows(ArgumentError.class, () -> BLAME.parse("dpeth 3"));
        assertEquals(List.of("depth"), e.diagnostic().suggestions());
        assertEquals(0, e.diagnostic().start());
        e = assertThrows(ArgumentError.class, () -> BLAME.parse("limit x"));
        assertEquals("'limit' takes a whole number >= 0, not 'x'", e.getMessage());
        e = assertThrows(ArgumentError.class, () -> BLAME.parse("by"));
        assertEquals("'by' needs a value; usage: " + BLAME.synopsis(), e.getMessage());
    }

    static final ArgGrammar EXPORT = ArgGrammar.of("export")
            .positionalChoice("format", List.of("pprof", "parquet"), List.of()).positional("FILE", ArgKind.FILE)
            .positional("ENTITY", ArgKind.TEXT).optional().repeated().hidden()
            .oneOf(false, g -> g.value("--svg", ArgKind.FILE).value("--html", ArgKind.FILE))
            .value("--partition", ArgKind.TEXT).as("KEY=VALUE").repeated().flag("--force");

    @Test
    void positionalsGroupsAndRepeatsHaveTheirSynopsis() {
        assertEquals("export pprof|parquet FILE [--svg FILE | --html FILE] [--partition KEY=VALUE]... [--force]", EXPORT.synopsis());
        assertEquals("set [NAME [VALUE]]", ArgGrammar.of("set").positional("NAME", ArgKind.TEXT).optional()
                .rest("VALUE", "VALUE").optional().synopsis());
        assertEquals("load PATH...", ArgGrammar.of("load").positional("PATH", ArgKind.FILE).repeated().synopsis());
    }

    @Test
    void readsPositionalsRepeatsAndFlagValuesWithEquals() throws Exception {
        ParsedArgs p = EXPORT.parse("parquet out values steps --partition run=1 --partition=day=2 --force");
        assertEquals("parquet", p.text("format"));
        assertEquals("out", p.text("FILE"));
        assertEquals(List.of("values", "steps"), p.texts("ENTITY"));
        assertEquals(List.of("run=1", "day=2"), p.texts("--partition"));
        assertTrue(p.has("--force"));
    }

    @Test
    void groupsMissingArgumentsAndMistypedFlagsAreErrorsAtTheirWord() {
        ArgumentError e = assertThrows(ArgumentError.class, () -> EXPORT.parse("pprof f --svg a --html b"));
        assertEquals("give '--svg FILE' or '--html FILE', not both", e.getMessage());
        assertEquals(16, e.diagnostic().start());
        e = assertThrows(ArgumentError.class, () -> EXPORT.parse("pprof"));
        assertTrue(e.getMessage().startsWith("expected FILE; usage: export"), e.getMessage());
        e = assertThrows(ArgumentError.class, () -> EXPORT.parse("parqet f"));
        assertEquals(List.of("parquet"), e.diagnostic().suggestions());
        e = assertThrows(ArgumentError.class, () -> EXPORT.parse("pprof f --forse"));
        assertEquals(List.of("--force"), e.diagnostic().suggestions());
        assertEquals(8, e.diagnostic().start());
    }

    @Test
    void theRestOfTheLineIsTakenAsTyped() throws Exception {
        ArgGrammar js = ArgGrammar.of("js").rest("CODE", "CODE");
        assertEquals("print(\"a b\")  ;", js.parse("print(\"a b\")  ;").text("CODE"));
        assertEquals("x(\"open", js.parse("x(\"open").text("CODE"), "an open quote is the code's business");
        ArgumentError e = assertThrows(ArgumentError.class, () -> BLAME.parse("by \"src"));
        assertEquals("unterminated string", e.getMessage());
    }

    @Test
    void formsParseByTheFirstThatFitsAndErrWhereTheyReadFurthest() throws Exception {
        ArgGrammar set = ArgGrammar.forms(
                ArgGrammar.of("set").positional("NAME", ArgKind.TEXT).optional().rest("VALUE", "VALUE").optional(),
                ArgGrammar.of("set").positionalChoice("category", List.of("category"), List.of()).rest("RULE", "RULE").optional());
        assertEquals("set [NAME [VALUE]] | set category [RULE]", set.synopsis());
        assertTrue(set.parse("category kv = size > 1").has("category"), "the form led by its word is tried first");
        assertEquals("16 GiB", set.parse("capacity 16 GiB").text("VALUE"));
    }

    @Test
    void partsAndKindsAreDeclaredForHelpAndCompletion() throws Exception {
        ArgGrammar edit = ArgGrammar.forms(
                ArgGrammar.of("drop").condition("where", "values").as("COND").required(),
                ArgGrammar.of("scale").condition("where", "values").as("COND").required().value("by", ArgKind.FACTOR).required());
        assertEquals("drop where COND | scale where COND by F", edit.synopsis(), "a condition shows its placeholder, not its entity");
        assertEquals("values", edit.forms().get(1).args().get(0).entity());
        ArgGrammar whatif = ArgGrammar.of("whatif").rest("EDITS", "EDIT [; EDIT ...]").parts(edit);
        assertEquals(edit, whatif.parts());
        assertEquals("whatif EDIT [; EDIT ...]", whatif.synopsis());
        assertEquals("drop where x; scale where y by 2", whatif.parse("drop where x; scale where y by 2").text("EDITS"));
        ArgGrammar why = ArgGrammar.of("why").rest("VALUE", "ID|NAME|QUERY", ArgKind.VALUE);
        assertEquals("values where label = \"a b\"", why.parse("values where label = \"a b\"").text("VALUE"), "a value's query as typed");
        assertThrows(IllegalArgumentException.class, () -> ArgGrammar.of("x").rest("N", "N", ArgKind.COUNT), "a count is one word");
    }
}
