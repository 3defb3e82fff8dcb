package bufq.analysis;

import bufq.analysis.waste.Waste;
import bufq.analysis.blame.Blame;
import bufq.analysis.blame.BlameBy;
import bufq.analysis.blame.StackTree;
import bufq.units.Units;
import bufq.model.HloModule;
import bufq.model.StackTraceNode;
import bufq.model.TilingModel;
import bufq.table.Table;
import bufq.table.TextBlock;
import org.junit.jupiter.api.Test;

import bufq.testing.TestModules;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportsTest {
    @Test
    void paddingTotalsWorstAndByShape() {
        HloModule m = TestModules.unstack();
        List<?> out = Waste.padding(m, TilingModel.TPU);
        Table totals = (Table) out.get(0);
        // 1024-32 for the argument, 4 x (512-8) for the elements, tuples unpadded.
        assertEquals(992L + 4 * 504, totals.cell(0, totals.columnIndex("padding_bytes")));
        assertEquals(5L, totals.cell(0, totals.columnIndex("padded_values")));
        Table worst = (Table) out.get(1);
        assertEquals("Arg_0.1", worst.cell(0, 0));
        assertEquals(1024L, worst.cell(0, worst.columnIndex("padded")));
        assertTrue(totals.title().contains("tiling model 'tpu'"), totals.title());
        Table shapes = (Table) out.get(2);
        assertEquals("u32[2]{0:T(128)}", shapes.cell(0, 0));
        assertEquals(4L, shapes.cell(0, 1));
        assertEquals(2016L, shapes.cell(0, shapes.columnIndex("padding_total")));
    }

    @Test
    void paddingCountsOnlyValuesAssignedMoreThanTheirLogicalSize() {
        // "big" is assigned 64 of its 400 logical bytes: smaller, not padded; "pad" has 100 -> 128.
        HloModule m = new TestModules.Builder("small").steps("a", "b")
                .alloc(0, 1000, 0, "preallocated-temp")
                .value("big", 0, 0, 64, "u8[400]", "0-0").value("pad", 0, 128, 128, "u8[100]", "1-1").build();
        List<?> out = Waste.padding(m, ROUND_TO_128);
        Table totals = (Table) out.get(0);
        assertEquals(1L, totals.cell(0, totals.columnIndex("padded_values")));
        assertEquals(28L, totals.cell(0, totals.columnIndex("padding_bytes")), "never negative: big's 64 < 400 is no padding");
        assertTrue(String.join("\n", totals.notes()).contains("1 value is assigned less than its logical size"), totals.notes().toString());
        Table worst = (Table) out.get(1);
        assertEquals(1, worst.size());
        assertEquals("pad", worst.cell(0, 0));
        Table shapes = (Table) out.get(2);
        assertEquals(1, shapes.size());
        assertEquals("u8[100]", shapes.cell(0, 0));
    }

    /** A model that hands out 128-byte blocks. */
    static final TilingModel ROUND_TO_128 = new TilingModel() {
        @Override public String name() { return "round128"; }
        @Override public long paddedBytes(bufq.model.Shape s) { return (s.logicalBytes() + 127) / 128 * 128; }
    };

    @Test
    void paddingFollowsTheTilingModelNotTheDumpsSizes() {
        // Both values are assigned exactly their logical size; only the model pads them.
        HloModule m = new TestModules.Builder("model").steps("a", "b")
                .alloc(0, 1000, 0, "preallocated-temp")
                .value("x", 0, 0, 100, "u8[100]", "0-0").value("y", 0, 128, 300, "u8[300]", "1-1").build();
        Table none = (Table) Waste.padding(m, TilingModel.NONE).get(0);
        assertEquals(0L, none.cell(0, none.columnIndex("padded_values")));
        List<?> out = Waste.padding(m, ROUND_TO_128);
        Table totals = (Table) out.get(0);
        assertEquals(2L, totals.cell(0, totals.columnIndex("padded_values")));
        assertEquals(28L + 84, totals.cell(0, totals.columnIndex("padding_bytes")));
        assertEquals(512L, totals.cell(0, totals.columnIndex("padded_bytes")));
        assertTrue(totals.title().contains("tiling model 'round128'"), totals.title());
        Table worst = (Table) out.get(1);
        assertEquals("y", worst.cell(0, 0));
        assertEquals(300L, worst.cell(0, worst.columnIndex("assigned")));
        assertEquals(384L, worst.cell(0, worst.columnIndex("padded")));
    }

    @Test
    void fragmentationUnionsSharedBytesOverTime() {
        // Allocation 0 (1000 bytes): a [0,400) live 0-1, b [200,600) live 1-2 (shares bytes with a: union),
        // c [0,300) live 3-3 reuses a's bytes later. Peak of the union: step 1, [0,600) = 600.
        HloModule m = new TestModules.Builder("frag").steps("a", "b", "x", "c")
                .alloc(0, 1000, 0, "preallocated-temp").alloc(1, 64, 0, "parameter")
                .value("a", 0, 0, 400, "u8[400]", "0-1").value("b", 0, 200, 400, "u8[400]", "1-2")
                .value("c", 0, 0, 300, "u8[300]", "3-3").value("p", 1, 0, 64, "u8[64]", "0-4")
                .alloc(2, 5000, 1, "temp").value("w", 2, 0, 100, "u8[100]", "1-2", 1)
                .build();
        List<?> out = Waste.fragmentation(m);
        Table t = (Table) out.get(0);
        // Most waste first: allocation 2 (4900 of 5000 never used), then 0, then the full parameter.
        assertEquals(List.of(2L, 0L, 1L), List.of(t.cell(0, 0), t.cell(1, 0), t.cell(2, 0)));
        assertEquals(4900L, t.cell(0, t.columnIndex("fragmentation_bytes")));
        t = new Table(t.title(), t.columns(), t.rows().subList(1, 3), t.notes(), t.key());
        assertEquals(600L, t.cell(0, t.columnIndex("max_occupied_bytes")));
        assertEquals(1L, t.cell(0, t.columnIndex("max_time")));
        assertEquals(400L, t.cell(0, t.columnIndex("fragmentation_bytes")));
        assertEquals(0.4, (Double) t.cell(0, t.columnIndex("fragmentation_share")), 1e-9);
        assertEquals(0L, t.cell(1, t.columnIndex("fragmentation_bytes")));
        Table totals = (Table) out.get(1);
        assertEquals(64L, totals.cell(0, totals.columnIndex("parameter_allocation_bytes")));
        assertEquals(1000L, totals.cell(0, totals.columnIndex("preallocated_temp_allocation_bytes")));
        assertEquals(400L, totals.cell(0, totals.columnIndex("preallocated_temp_fragmentation_bytes")));
        assertEquals(1064L, totals.cell(0, totals.columnIndex("total_allocation_bytes")));
        assertEquals(List.of(0L, 1L), List.of(totals.cell(0, 0), totals.cell(1, 0)));
        assertEquals(4900L, totals.cell(1, totals.columnIndex("total_fragmentation_bytes")));
    }

    static HloModule blameModule() {
        return new TestModules.Builder("jit_step").steps("p", "d", "t", "e")
                .alloc(0, 4096, 0, "temp")
                .value("p", 0, 0, 1000, "u8[1000]", "0-4").value("d", 0, 1000, 600, "u8[600]", "1-2")
                .value("t", 0, 1600, 300, "u8[300]", "2-2").value("e", 0, 1900, 100, "u8[100]", "3-3")
                .instruction("p", "u8[1000]", "parameter", "params['layer/w']", null, -1)
                .instruction("d", "u8[600]", "divide", "jit(step)/jvp(a/b)/div", "m.py", 3)
                .instruction("t", "u8[300]", "tanh", "jit(step)/jvp(a/b)/tanh", "m.py", 4)
                .build();
    }

    @Test
    void blameByOpNamePrefixLevels() {
        Table t = (Table) Blame.atPeak(blameModule(), BlameBy.OP_NAME, 0).get(0);
        // Peak at step 2: p (1000) + d (600) + t (300) = 1900.
        assertTrue(t.title().contains("step 2"), t.title());
        assertEquals(List.of(1L, "params['layer/w']", 1000L), List.of(t.cell(0, 0), t.cell(0, 1), t.cell(0, 2)));
        assertEquals(List.of(1L, "jit(step)", 900L), List.of(t.cell(1, 0), t.cell(1, 1), t.cell(1, 2)));
        assertEquals(List.of(2L, "jit(step)/jvp(a/b)", 900L), List.of(t.cell(2, 0), t.cell(2, 1), t.cell(2, 2)));
        assertEquals("jit(step)/jvp(a/b)/div", t.cell(3, 1));
        Table depth1 = (Table) Blame.atPeak(blameModule(), BlameBy.OP_NAME, 1).get(0);
        assertEquals(2, depth1.size());
        Table bySource = (Table) Blame.atPeak(blameModule(), BlameBy.SOURCE, 0).get(0);
        assertEquals("(no source)", bySource.cell(0, 0));
        assertEquals("m.py:3", bySource.cell(1, 0));
        Table byOpcode = (Table) Blame.atPeak(blameModule(), BlameBy.OPCODE, 0).get(0);
        assertEquals("parameter", byOpcode.cell(0, 0));
    }

    @Test
    void stackTreeRebuiltLikeXla() {
        TextBlock tree = (TextBlock) Blame.atPeak(blameModule(), BlameBy.OP_NAME, 0).get(1);
        String expected = """
                stack trace breakdown, rebuilt from the model at peak step 2 (the dump printed none):
                  Stack trace breakdown for peak usage: 1 900 bytes
                    jit_step (100.0%, total: 1 900 bytes, current: 0 bytes, remaining: 1 900 bytes)
                      ├── params (52.6%, total: 1 000 bytes, current: 0 bytes, remaining: 1 900 bytes)
                      │   └── layer (52.6%, total: 1 000 bytes, current: 0 bytes, remaining: 1 900 bytes)
                      │       └── w (52.6%, total: 1 000 bytes, current: 1 000 bytes, remaining: 900 bytes)
                      ├── jit(step)/jvp(a/b)/div (31.6%, total: 600 bytes, current: 600 bytes, remaining: 300 bytes)
                      └── jit(step)/jvp(a/b)/tanh (15.8%, total: 300 bytes, current: 300 bytes, remaining: 0 bytes)
                """;
        assertEquals(expected, tree.text());
    }

    @Test
    void blamesTreeBucketsValuesWithoutOpNameOrdersNaturallyAndObeysMaxLines() {
        // Twelve copies without op_name and three equal fusions with one: copy.N would each be a level-1 row.
        TestModules.Builder b = new TestModules.Builder("big").steps("s0", "s1").alloc(0, 1 << 20, 0, "preallocated-temp");
        for (int i = 1; i <= 12; i++) {
            b.value("copy." + i, 0, i * 1000L, 100, "u8[100]", "0-1").instruction("copy." + i, "u8[100]", "copy", null, null, -1);
        }
        long offset = 100_000;
        for (String f : List.of("fusion.10", "fusion.2", "fusion.1")) {
            b.value(f, 0, offset += 1000, 500, "u8[500]", "0-1")
                    .instruction(f, "u8[500]", "fusion", "jit(f)/" + f, null, -1);
        }
        HloModule m = b.build();
        TextBlock tree = (TextBlock) Blame.atPeak(m, BlameBy.OP_NAME, 0, 0).get(1);
        String text = tree.text();
        assertFalse(text.contains("copy.1 "), text);
        assertTrue(text.contains("(no op_name, 12 values) (44.4%, total: 1 200 bytes"), text);
        int f1 = text.indexOf("jit(f)/fusion.1 "), f2 = text.indexOf("jit(f)/fusion.2 "), f10 = text.indexOf("jit(f)/fusion.10 ");
        assertTrue(f1 >= 0 && f1 < f2 && f2 < f10, "natural order: " + text);
        String cut = ((TextBlock) Blame.atPeak(m, BlameBy.OP_NAME, 0, 3).get(1)).text();
        assertEquals(1 + 1 + 3 + 1, cut.split("\n").length, cut);  // title, header, 3 node lines, the cut line
        assertTrue(cut.contains("... 2 more lines of the tree (set maxrows 0 shows all)"), cut);
    }

    @Test
    void dumpsOwnTreeIsPrintedAsGiven() {
        StackTraceNode leaf = new StackTraceNode("x", 100.0, 57600, 57600, 0, List.of());
        StackTraceNode root = new StackTraceNode("main.2", 100.0, 57600, 0, 57600, List.of(leaf));
        HloModule m = new TestModules.Builder("t").steps("x").alloc(0, 57600, 0, "parameter")
                .value("x", 0, 0, 57600, "u8[57600]", "0-1").tree(root, 57600).build();
        String text = StackTree.text(m);
        assertEquals("""
                  Stack trace breakdown for peak usage: 57 600 bytes
                    main.2 (100.0%, total: 57 600 bytes, current: 0 bytes, remaining: 57 600 bytes)
                      └── x (100.0%, total: 57 600 bytes, current: 57 600 bytes, remaining: 0 bytes)
                """, text);
    }

    @Test
    void bytesFormatting() {
        assertEquals("512B", Units.human(512));
        assertEquals("1.5KiB", Units.human(1536));
        // one formatter for charts, reports and tables: always one decimal above 1 KiB
        assertEquals("80.0MiB", Units.human(80L << 20));
        assertEquals(Units.human(80L << 20), Units.human(80L << 20));
        assertEquals("79 790 088", Units.grouped(79790088, ' '));
        assertEquals("100", Units.grouped(100, ' '));
    }
}
