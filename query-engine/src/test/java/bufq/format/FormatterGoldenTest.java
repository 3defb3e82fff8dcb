package bufq.format;

import bufq.table.ColumnType;
import bufq.table.Table;
import bufq.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;


/**
 * Every format on a few tables against golden files in {@code golden/format/}. To regenerate after an
 * intended change: {@code mvn -o -pl query-engine test -Dtest=FormatterGoldenTest -Dbufq.updateGoldens=true},
 * then read the diff.
 */
class FormatterGoldenTest {
    static Table mixed() {
        return Table.builder().key("values_at_peak").title("values at peak")
                .column("name", ColumnType.STRING).column("size", ColumnType.BYTES).column("uses", ColumnType.INT)
                .column("share", ColumnType.PERCENT).column("avg", ColumnType.FLOAT).column("live_out", ColumnType.BOOL)
                .column("dims", ColumnType.LIST)
                .row("fusion.2{0}", 8192L, 3L, 0.125, 1234.56789, true, List.of(16L, 128L))
                .row("a|b \"quoted\", comma", 512L, 0L, 1.0, 2.0, false, List.of())
                .row("two\nlines\ttab \\ back", 83_886_080L, 12345L, 0.0004, 0.5, null, null)
                .row("3×f32[8,128] ├── é", null, null, null, null, false, List.of("x", "y,z"))
                .row("big", 5_000_000_000L, -7L, 0.999, 1e-7, true, List.of(1L))
                .note("2 more rows (set maxrows to see more)")
                .build();
    }

    static Table empty() {
        return Table.builder().key("result").column("id", ColumnType.INT).column("name", ColumnType.STRING).build();
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("mixed", mixed(), "table", FormatOptions.DEFAULT, "mixed.table.txt"),
                Arguments.of("mixed", mixed(), "table", new FormatOptions(true, false), "mixed.table-raw.txt"),
                Arguments.of("mixed", mixed(), "table", new FormatOptions(false, true), "mixed.table-color.txt"),
                Arguments.of("mixed", mixed(), "markdown", FormatOptions.DEFAULT, "mixed.markdown.md"),
                Arguments.of("mixed", mixed(), "csv", FormatOptions.DEFAULT, "mixed.csv"),
                Arguments.of("mixed", mixed(), "tsv", FormatOptions.DEFAULT, "mixed.tsv"),
                Arguments.of("mixed", mixed(), "json", FormatOptions.DEFAULT, "mixed.json"),
                Arguments.of("empty", empty(), "table", FormatOptions.DEFAULT, "empty.table.txt"),
                Arguments.of("empty", empty(), "markdown", FormatOptions.DEFAULT, "empty.markdown.md"),
                Arguments.of("empty", empty(), "csv", FormatOptions.DEFAULT, "empty.csv"),
                Arguments.of("empty", empty(), "json", FormatOptions.DEFAULT, "empty.json"));
    }

    @ParameterizedTest(name = "{0} as {2} -> {4}")
    @MethodSource("cases")
    void matchesGolden(String label, Table table, String format, FormatOptions options, String golden) throws IOException {
        StringBuilder out = new StringBuilder();
        Formatters.byName(format).write(table, options, out);
        String actual = out.toString();
        Golden.check(Golden.file("query-engine", "format/" + golden), actual);
    }
}
