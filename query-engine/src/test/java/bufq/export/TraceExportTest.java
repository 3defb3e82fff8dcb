package bufq.export;

import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@SuppressWarnings("unchecked")
class TraceExportTest {
    static Map<String, Object> trace(HloModule m) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TraceExport.write(m, new OutputStreamWriter(out, StandardCharsets.UTF_8));
        return (Map<String, Object>) Json.parse(out.toString(StandardCharsets.UTF_8));
    }

    /** Occupied bytes of one colour at {@code t}, computed here from the values (not bufq's sweep). */
    static long occupied(HloModule m, int t, int color) {
        Map<Integer, List<long[]>> byAllocation = new HashMap<>();
        for (HloValue v : m.values())
            if (v.color() == color && v.liveAt(t)) byAllocation.computeIfAbsent(v.allocation(), k -> new ArrayList<>()).add(new long[] {v.offset(), v.offset() + v.size()});
        long total = 0;
        for (List<long[]> ranges : byAllocation.values()) {
            ranges.sort((a, b) -> Long.compare(a[0], b[0]));
            long end = Long.MIN_VALUE;
            for (long[] r : ranges) {
                total += Math.max(0, r[1] - Math.max(r[0], end));
                end = Math.max(end, r[1]);
            }
        }
        return total;
    }

    @Test
    void everyValueIsASliceOverItsRangeWithItsFiguresAndNoLaneOverlaps() throws Exception {
        for (HloModule m : List.of(ExportCorpus.pair(true), ExportCorpus.gpuWithSources())) {
            Map<String, Object> trace = trace(m);
            Map<String, Object> other = (Map<String, Object>) trace.get("otherData");
            assertEquals(TraceExport.TIME_UNIT, other.get("time_unit"));
            List<Map<String, Object>> events = (List<Map<String, Object>>) trace.get("traceEvents");
            Map<Long, Map<String, Object>> slices = new HashMap<>();
            Map<String, Long> laneEnd = new HashMap<>();
            int schedule = 0;
            for (Map<String, Object> e : events) {
                if (!"X".equals(e.get("ph"))) continue;
                long ts = (Long) e.get("ts"), dur = (Long) e.get("dur");
                assertTrue(dur >= 1);
                if ("step".equals(e.get("cat"))) {
                    assertEquals(schedule, ts);
                    assertEquals(schedule < m.sequence().size() ? m.sequence().get(schedule) : "(end)", e.get("name"));
                    schedule++;
                    continue;
                }
                String lane = e.get("pid") + "/" + e.get("tid");
                assertTrue(laneEnd.getOrDefault(lane, -1L) <= ts, "slices of lane " + lane + " overlap at " + ts);
                laneEnd.put(lane, ts + dur);
                Map<String, Object> args = (Map<String, Object>) e.get("args");
                assertEquals(null, slices.put((Long) args.get("id"), e));
            }
            assertEquals(m.steps(), schedule);
            long ranged = m.values().stream().filter(v -> v.hasRange() && v.rangeEnd() >= v.rangeStart()).count();
            assertEquals(ranged, slices.size());
            for (HloValue v : m.values()) {
                if (!v.hasRange() || v.rangeEnd() < v.rangeStart()) continue;
                Map<String, Object> e = slices.get(v.id());
                Map<String, Object> args = (Map<String, Object>) e.get("args");
                assertEquals(v.label(), e.get("name"));
                assertEquals((long) v.rangeStart(), e.get("ts"));
                assertEquals((long) v.rangeEnd() - v.rangeStart() + 1, e.get("dur"));
                assertEquals(v.allocation() + 2L, e.get("pid"));
                assertEquals(v.size(), args.get("size"));
                assertEquals(v.offset(), args.get("offset"));
                assertEquals(v.shape().text(), args.get("shape"));
                var ins = m.instruction(v.name());
                assertEquals(ins == null ? null : ins.opName(), args.get("op_name"));
            }
        }
    }

    @Test
    void theCounterIsTheOccupiedBytesOfEachColourAtEveryStep() throws Exception {
        for (HloModule m : List.of(ExportCorpus.pair(false), ExportCorpus.gpuWithSources(), ExportCorpus.withStacks())) {
            List<Map<String, Object>> events = (List<Map<String, Object>>) trace(m).get("traceEvents");
            Map<String, long[]> byColor = new HashMap<>();
            int peak = -1;
            for (Map<String, Object> e : events) {
                if ("i".equals(e.get("ph")) && "peak".equals(e.get("name"))) peak = (int) (long) (Long) e.get("ts");
                if (!"C".equals(e.get("ph"))) continue;
                int ts = (int) (long) (Long) e.get("ts");
                for (var a : ((Map<String, Object>) e.get("args")).entrySet()) {
                    long[] series = byColor.computeIfAbsent(a.getKey(), k -> new long[m.steps() + 1]);
                    Arrays.fill(series, ts, series.length, (Long) a.getValue());
                }
            }
            assertEquals(Liveness.of(m).peakTime(), peak);
            assertEquals(Liveness.of(m).colors().size(), byColor.size());
            long atPeak = 0;
            for (int c : Liveness.of(m).colors()) {
                long[] series = byColor.get("color " + c);
                assertNotNull(series, "a counter track for color " + c);
                for (int t = 0; t < m.steps(); t++) assertEquals(occupied(m, t, c), series[t], m.handle() + " color " + c + " step " + t);
                assertEquals(0, series[m.steps()]);
                atPeak += series[peak];
            }
            // The pprof export of the peak holds the same bytes.
            assertEquals(atPeak, PprofExport.write(m, peak, "peak", ProfileStacks.STACK, new ByteArrayOutputStream()).bytes());
        }
    }

    @Test
    void aModuleWithoutLiveRangesHasNothingToTrace() throws Exception {
        HloModule m = ExportCorpus.load(Corpus.require("jax-0.10.2/multi-module-dir-analysis-off"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> trace(m));
        assertTrue(e.getMessage().endsWith("has no live ranges: no schedule to trace"), e.getMessage());
    }
}
