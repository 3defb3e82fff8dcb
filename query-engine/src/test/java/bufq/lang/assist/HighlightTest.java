package bufq.lang.assist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import bufq.eval.Catalog;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class HighlightTest {
    private static String styles(Highlight.Result r, String q) {
        return r.spans().stream().map(s -> q.substring(s.start(), s.end()) + ":" + s.style()).collect(Collectors.joining(" "));
    }

    @Test
    void stylesEachToken() {
        String q = "values where name ~ \"f\" and live at fusion.2 show count() as n limit 4KiB";
        Highlight.Result r = Highlight.of(q, Catalog.standard());
        assertEquals("values:ENTITY where:KEYWORD name:FIELD ~:OPERATOR \"f\":STRING and:KEYWORD live:KEYWORD at:KEYWORD "
                + "fusion.2:INSTRUCTION show:KEYWORD count:FUNCTION (:OPERATOR ):OPERATOR as:KEYWORD n:NAME limit:KEYWORD 4KiB:NUMBER",
                styles(r, q));
        assertEquals("expected a whole number of rows after 'limit' but found '4KiB'", r.error().message());
    }

    @Test
    void errorsAndIncompleteInput() {
        Highlight.Result bad = Highlight.of("values where colr = 1 @", Catalog.standard());
        assertEquals(22, bad.error().start());  // syntax errors come before name errors
        assertEquals("@:ERROR", styles(bad, "values where colr = 1 @").replaceAll(".* ", ""));
        Highlight.Result open = Highlight.of("values where color = 1 and", Catalog.standard());
        assertEquals(true, open.incomplete());
        Highlight.Result ok = Highlight.of("steps", Catalog.standard());
        assertNull(ok.error());
        assertEquals(0, Highlight.of(null, Catalog.standard()).spans().size());
    }
}
