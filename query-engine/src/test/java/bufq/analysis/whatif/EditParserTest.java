package bufq.analysis.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import bufq.lang.QueryException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EditParserTest {
    private static final Set<String> ENTITIES = Set.of("values", "steps", "allocations", "instructions");

    private static EditParser.Parsed parse(String s) throws QueryException { return EditParser.parse(s, ENTITIES); }

    @Test
    void everyEditKind() throws QueryException {
        EditParser.Parsed p = parse("drop where size > 1MiB; end where live at peak and size > 4MiB at last_use; end where id = 3 at 17;"
                + " end where id = 4 at fusion.2; donate Arg_0.1; donate where allocation = 0; scale where dtype = \"f32\" by 0.5;"
                + " size where shape = \"f32[2]\" = 4KiB; remat where op_name ~ \"jvp\"; tiling none");
        List<Edit> e = p.edits();
        assertEquals(10, e.size());
        assertEquals("size > 1MiB", assertInstanceOf(Edit.Drop.class, e.get(0)).where().condition());
        Edit.End last = assertInstanceOf(Edit.End.class, e.get(1));
        assertEquals("live at peak and size > 4MiB", last.where().condition());
        assertEquals(true, last.atLastUse());
        assertEquals(17, ((Edit.End) e.get(2)).step());
        assertEquals("fusion.2", ((Edit.End) e.get(3)).instruction());
        assertEquals("Arg_0.1", ((Edit.Donate) e.get(4)).parameter());
        assertEquals("allocation = 0", e.get(5).where().condition());
        assertEquals(0.5, ((Edit.Scale) e.get(6)).factor());
        assertEquals("dtype = \"f32\"", e.get(6).where().condition());
        assertEquals(4096, ((Edit.Resize) e.get(7)).bytes());
        assertEquals("shape = \"f32[2]\"", e.get(7).where().condition());
        assertInstanceOf(Edit.Remat.class, e.get(8));
        assertEquals("none", ((Edit.Tiling) e.get(9)).name());
        assertNull(p.query());
    }

    @Test
    void conditionOffsetsPointIntoTheStatement() throws QueryException {
        String s = "drop where id = 1;  scale where size > 2 by 2";
        Edit.Where w = parse(s).edits().get(1).where();
        assertEquals("size > 2", s.substring(w.offset(), w.offset() + w.condition().length()));
    }

    @Test
    void namesAfterAtDonateAndTilingKnowWhereTheyAre() throws QueryException {
        String s = "drop where id = 1; end where id = 2 at fusion.3; donate Arg_0; tiling page64k";
        List<Edit> e = parse(s).edits();
        assertEquals(s.indexOf("fusion.3"), ((Edit.End) e.get(1)).targetOffset());
        assertEquals(s.indexOf("Arg_0"), ((Edit.Donate) e.get(2)).parameterOffset());
        assertEquals(s.indexOf("page64k"), ((Edit.Tiling) e.get(3)).offset());
    }

    @Test
    void aSemicolonInAStringDoesNotSplit() throws QueryException {
        EditParser.Parsed p = parse("drop where op_name = \"a;b\"");
        assertEquals(1, p.edits().size());
        assertEquals("op_name = \"a;b\"", p.edits().get(0).where().condition());
    }

    @Test
    void aFinalQueryRunsOnTheEditedCopy() throws QueryException {
        String s = "drop where size > 1MiB; steps order by occupied_bytes desc limit 5;";
        EditParser.Parsed p = parse(s);
        assertEquals("steps order by occupied_bytes desc limit 5", p.query());
        assertEquals(s.indexOf("steps"), p.queryOffset());
    }

    private static QueryException fails(String s, String at, String message) {
        QueryException e = assertThrows(QueryException.class, () -> parse(s), s);
        assertEquals(message, e.diagnostic().message(), s);
        assertEquals(at.isEmpty() ? s.length() : s.indexOf(at), e.diagnostic().start(), s);
        return e;
    }

    @Test
    void aMisspeltEditOrKeywordGetsADidYouMean() {
        assertEquals(List.of("where"), fails("end wher x at 3", "wher", "expected 'where' and a condition on values after 'end'")
                .diagnostic().suggestions());
        assertEquals(List.of("drop"), fails("drp where id = 1", "drp",
                "unknown edit 'drp'; expected drop, end, donate, scale, size, remat, tiling, or a query as the last part")
                .diagnostic().suggestions());
        assertEquals(List.of("by"), fails("scale where id = 1 bi 0.5", "bi", "expected 'by FACTOR' after the condition")
                .diagnostic().suggestions());
        assertEquals(List.of(), fails("scale where id = 1", "", "expected 'by FACTOR' after the condition").diagnostic().suggestions());
        // the last part may be a query: a misspelt entity is named too
        assertEquals(List.of("steps"), fails("drop where id = 1; stesp limit 3", "stesp",
                "unknown edit 'stesp'; expected drop, end, donate, scale, size, remat, tiling, or a query as the last part")
                .diagnostic().suggestions());
    }

    @Test
    void errorsSayWhatWasExpectedWhere() {
        fails("end wher x at 3", "wher", "expected 'where' and a condition on values after 'end'");
        fails("drop where id = 1; shrink where id = 2", "shrink",
                "unknown edit 'shrink'; expected drop, end, donate, scale, size, remat, tiling, or a query as the last part");
        fails("scale where id = 1", "", "expected 'by FACTOR' after the condition");
        fails("scale where id = 1 by 2MiB", "2MiB", "expected a factor such as 0.5 after 'by'");
        fails("size where id > 1", "", "expected '= BYTES' (e.g. = 4MiB) after the condition");
        fails("end where id = 1 at 2.5", "2.5", "expected a step (a whole number)");
        fails("steps limit 3; drop where id = 1", "steps", "a query must be the last part of a whatif");
        fails("values limit 3", "values", "a whatif needs at least one edit before its query");
        fails("drop where", "", "expected a condition after 'where'");
        fails("drop where id = 1;; drop where id = 2", "; drop", "expected an edit (drop, end, donate, scale, size, remat, tiling)");
        fails("tiling", "", "expected a tiling model's name after 'tiling'");
    }

    @Test
    void factorsAndSizesThatWouldOverflowAreRefusedWhereTheyAreWritten() {
        // These overflowed a long in the sweep; 1e18 was already refused (a letter in a factor).
        fails("scale where true by 9223372036854775807", "9223372036854775807", "a factor must be from 0 to 1048576");
        fails("scale where true by 2000000", "2000000", "a factor must be from 0 to 1048576");
        fails("size where true = 9223372036854775807", "9223372036854775807", "a size must be from 0 to 65536TiB (2^56 bytes)");
        fails("size where true = 65537TiB", "65537TiB", "a size must be from 0 to 65536TiB (2^56 bytes)");
    }
}
