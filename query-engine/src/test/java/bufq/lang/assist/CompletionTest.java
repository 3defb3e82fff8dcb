package bufq.lang.assist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.eval.Catalog;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CompletionTest {
    private static final Catalog C = Catalog.standard();

    /** text with '|' marking the cursor, then the expected first candidates (or a kind). */
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("|", "values allocations instructions steps", ""),
                Arguments.of("val|", "values", ""),
                Arguments.of("values |", "where group by show order by limit", ""),
                Arguments.of("values wh|", "where", ""),
                Arguments.of("values where co|", "color", ""),
                Arguments.of("values where |", "id name index label", "FIELD"),
                Arguments.of("values where color |", "= != < <= > >= ~ !~ in not in is and or", "OPERATOR"),
                Arguments.of("values where color = 1 |", "and or group by show order by limit", ""),
                Arguments.of("values where live |", "at during", ""),
                Arguments.of("values where live at |", "peak claimed_peak peak(", "INSTRUCTION"),
                Arguments.of("values where live at pe|", "peak peak(", ""),
                Arguments.of("values where live during 3|", "", "NUMBER"),
                Arguments.of("values where live during 3 |", "..", ""),
                Arguments.of("values where live during 3..|", "peak claimed_peak peak(", "INSTRUCTION"),
                Arguments.of("values where live at peak(|", "", "PEAK"),
                Arguments.of("values where live during 3..peak(|", "", "PEAK"),
                Arguments.of("values where live at peak(2, |", "color min_share", "KEYWORD"),
                Arguments.of("values where name is |", "not null", ""),
                Arguments.of("values where name ~ |", "", "VALUE"),
                Arguments.of("values show |", "id name", "FUNCTION"),
                Arguments.of("values show co|", "color count(", ""),
                Arguments.of("values show size |", "as where group by order by limit", ""),
                Arguments.of("values order by size |", "asc desc where group by show limit", ""),
                Arguments.of("steps order by li|", "live_bytes live_values", ""),
                Arguments.of("allocations where t|", "thread_local temp", ""),
                Arguments.of("values group |", "by", ""),
                Arguments.of("values limit |", "", "NUMBER"),
                Arguments.of("values where color = 1 and |", "id name", "FIELD"),
                Arguments.of("values where color = 1 and size > 3 lim|", "limit", ""));
    }

    @ParameterizedTest
    @MethodSource
    void cases(String marked, String expectedStart, String kind) {
        int cursor = marked.indexOf('|');
        String text = marked.replace("|", "");
        Completion.Context ctx = Completion.at(text, cursor, C);
        String got = String.join(" ", ctx.candidates());
        assertTrue(got.startsWith(expectedStart), marked + " -> " + got);
        if (!kind.isEmpty()) assertTrue(ctx.expected().contains(Completion.Kind.valueOf(kind)), marked + " -> " + ctx.expected());
    }

    @org.junit.jupiter.api.Test
    void replaceSpanCoversTheWordBeingTyped() {
        Completion.Context ctx = Completion.at("values where colo = 1", 17, C);
        assertEquals(13, ctx.replaceStart());
        assertEquals("colo", ctx.prefix());
        assertEquals(List.of("color"), ctx.candidates());
        assertEquals("values", ctx.entity());
    }

    @org.junit.jupiter.api.Test
    void neverThrows() {
        String q = "values where (name ~ \"x and live during 3..peak show count(), sum( order by 4KiB limit";
        for (int i = -1; i <= q.length() + 1; i++) Completion.at(q, i, C);
        Completion.at(null, 3, C);
    }

    @org.junit.jupiter.api.Test
    void valuePositionsNameTheComparedField() {
        assertEquals("name", Completion.at("values where name = \"fu", 24, C).field());
        assertEquals("opcode", Completion.at("instructions where opcode in (\"copy\", ", 38, C).field());
        assertEquals("op_name", Completion.at("instructions where op_name ~ ", 29, C).field());
        assertEquals(null, Completion.at("values where ", 13, C).field());
    }
}
