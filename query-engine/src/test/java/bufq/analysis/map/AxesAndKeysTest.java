package bufq.analysis.map;

import bufq.analysis.timeline.Timeline;
import bufq.format.chart.Ticks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.model.HloModule;
import bufq.table.ColumnType;
import bufq.table.Table;
import bufq.table.TextBlock;
import bufq.testing.TestModules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Picture axes at round values and the terminal map's offsets and keys (item 8). */
class AxesAndKeysTest {
    @Test
    void stepTicksSkipNothingAndStayRound() {
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8), Ticks.steps(9, 12));
        assertEquals(List.of(0, 5, 10, 15, 20, 25), Ticks.steps(30, 12));
        assertEquals(List.of(0, 100, 200, 300, 400, 500, 600, 700, 800, 900), Ticks.steps(1000, 12));
        assertEquals(List.of(0, 200, 400, 600, 800, 1000), Ticks.steps(1001, 8));
        assertEquals(List.of(0), Ticks.steps(1, 12));
    }

    @Test
    void byteTicksAreRoundPowersOfTwo() {
        long mib = 1L << 20;
        // the 1944.4MiB peak: not quarters (486.1MiB, 972.2MiB) but 512MiB steps
        assertEquals(List.of(0L, 512 * mib, 1024 * mib, 1536 * mib), Ticks.bytes(1944 * mib + 400 * 1024));
        for (long max : new long[] {1, 1000, 4096, 12345678, 85983236}) {
            List<Long> t = Ticks.bytes(max);
            long every = t.size() > 1 ? t.get(1) : 0;
            assertTrue(t.size() <= 6 && (t.size() >= 3 || max < 4), max + ": " + t);
            if (every > 0) assertEquals(1, Long.bitCount(every), max + ": " + t);
        }
    }

    @Test
    void svgAxisOfANineStepModuleLabelsEveryStep() {
        TestModules.Builder b = new TestModules.Builder("jit_nine");
        String[] names = new String[9];
        for (int i = 0; i < 9; i++) names[i] = "op." + i;
        b.steps(names).alloc(0, 4096, 0, "preallocated-temp");
        for (int i = 0; i < 9; i++) b.value("op." + i, 0, 0, 512, "f32[128]{0}", i + "-" + i);
        HloModule nine = b.build();
        String svg = Timeline.svg(nine, OptionalInt.empty());
        List<String> ticks = new ArrayList<>();
        Matcher m = Pattern.compile("text-anchor=\"middle\">(\\d+)<title>").matcher(svg);
        while (m.find()) ticks.add(m.group(1));
        List<String> every = new ArrayList<>();
        for (int t = 0; t < nine.steps(); t++) every.add(Integer.toString(t));
        assertEquals(every, ticks);
        assertTrue(Timeline.html(b.build(), OptionalInt.empty()).contains("svg{width:100%;height:auto}"));
    }

    @Test
    void keysNeverRunOut() {
        assertEquals("A", MapChart.key(0));
        assertEquals("9", MapChart.key(61));
        assertEquals("AA", MapChart.key(62));
        assertEquals("AB", MapChart.key(63));
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) assertTrue(seen.add(MapChart.key(i)), "key " + i + " repeats");
        assertFalse(seen.contains("?"));
    }

    @Test
    void mapPrintsOffsetsAsOffsetsAndListsEveryKeyItDraws() {
        // 100 values in one 1 GiB allocation, each 10 MiB at its own offset and step
        TestModules.Builder b = new TestModules.Builder("jit_big");
        String[] names = new String[100];
        for (int i = 0; i < 100; i++) names[i] = "fusion." + i;
        b.steps(names).alloc(0, 1L << 30, 0, "preallocated-temp");
        for (int i = 0; i < 100; i++) b.value("fusion." + i, 0, i * (10L << 20), 10L << 20, "f32[2621440]{0}", i + "-" + i);
        HloModule m = b.build();
        var out = AllocationMap.chart(m, 0, 80);
        String picture = ((TextBlock) out.get(0)).text();
        assertTrue(picture.contains("         0 ┤"), picture);
        assertTrue(picture.contains("1073741824 └"), picture);
        assertFalse(picture.contains("1.0GiB ┤"), picture);
        Table legend = (Table) out.get(1);
        assertEquals(ColumnType.INT, legend.columns().get(legend.columnIndex("offset")).type());
        for (int r = 0; r < legend.size(); r++)
            assertEquals(0L, (Long) legend.cell(r, legend.columnIndex("offset")) % (10L << 20), "exact offsets");
        Set<String> keys = new HashSet<>();
        for (int r = 0; r < legend.size(); r++) keys.add((String) legend.cell(r, 0));
        assertFalse(keys.contains("?"));
        // listed or counted as hidden: no value is left unaccounted for
        assertEquals(100, legend.size() + (legend.notes().isEmpty() ? 0 : Integer.parseInt(legend.notes().get(0).split(" ")[0])));
    }
}
