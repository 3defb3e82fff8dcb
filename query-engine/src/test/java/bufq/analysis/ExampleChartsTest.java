package bufq.analysis;

import bufq.analysis.blame.Blame;
import bufq.analysis.peak.Peak;
import bufq.analysis.blame.BlameBy;
import bufq.analysis.timeline.Timeline;
import bufq.analysis.map.AllocationMap;
import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.table.Table;
import bufq.table.TextBlock;
import bufq.testing.Golden;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Goldens of the terminal charts on the real jax-mlp example shipped in {@code examples/}. */
class ExampleChartsTest {
    static HloModule mlp() throws Exception {
        Path p = Paths.get(System.getProperty("bufq.root", "."), "examples", "jax-mlp");
        return DumpLoader.load(List.of(p)).get(0);
    }

    @Test
    void timelineAt80Columns() throws Exception {
        String t = ((TextBlock) Timeline.chart(mlp(), OptionalInt.empty(), 80).get(0)).text();
        Golden.check(Golden.file("query-engine", "analysis/timeline-jax-mlp-80.txt"), t);
        for (String line : t.split("\n")) {
            if (!line.startsWith("live bytes")) assertTrue(line.codePointCount(0, line.length()) <= 80, line);
        }
    }

    @Test
    void mapOfTheTempAllocationAt80Columns() throws Exception {
        HloModule m = mlp();
        int temp = m.allocations().stream().filter(a -> a.preallocatedTemp()).findFirst().orElseThrow().index();
        var out = AllocationMap.chart(m, temp, 80);
        Golden.check(Golden.file("query-engine", "analysis/map-jax-mlp-temp-80.txt"), ((TextBlock) out.get(0)).text());
        Table legend = (Table) out.get(1);
        assertEquals(m.valuesIn(temp).size(), legend.size());
    }

    @Test
    void peakAndBlameOnTheExample() throws Exception {
        HloModule m = mlp();
        Table s = (Table) Peak.report(m, OptionalInt.empty(), Peak.DEFAULT_SMALL_THRESHOLD, null).get(0);
        // Two steps hold the same most bytes; XLA printed the later, bufq reports the first and says so.
        assertEquals(19L, s.cell(0, s.columnIndex("peak_time")));
        assertEquals(20L, s.cell(0, s.columnIndex("claimed_peak_time")));
        assertEquals(s.cell(0, s.columnIndex("peak_bytes")), s.cell(0, s.columnIndex("occupied_at_claimed")));
        assertTrue(String.join(" ", s.notes()).contains("as step 19, the first step with that many, which is the peak"),
                s.notes().toString());
        Table blame = (Table) Blame.atPeak(m, BlameBy.OP_NAME, 0).get(0);
        // wrapped_copy.1 has no op_name: it goes to the one bucket for such values, not a row of its own.
        int row = -1;
        for (int i = 0; i < blame.size(); i++) {
            assertTrue(!"wrapped_copy.1".equals(blame.cell(i, 1)), blame.rows().toString());
            if ("(no op_name)".equals(blame.cell(i, 1))) row = i;   // BlameReport.NO_OP_NAME
        }
        assertTrue(row >= 0, blame.rows().toString());
        assertEquals(16L << 20, blame.cell(row, 2));
    }
}
