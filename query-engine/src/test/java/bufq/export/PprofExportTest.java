package bufq.export;

import bufq.eval.Step;
import bufq.lang.QueryException;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.blame.BlameBy;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.testing.ProtoFile;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PprofExportTest {
    static DecodedProfile export(HloModule m, int step, ProfileStacks by) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PprofExport.Summary s = PprofExport.write(m, step, "peak", by, out);
        DecodedProfile p = DecodedProfile.readGzipped(new ByteArrayInputStream(out.toByteArray()));
        assertEquals(s.samples(), p.samples.size());
        return p;
    }

    /** Occupied bytes at {@code t} computed here, apart from bufq: per allocation, the union of byte ranges. */
    static long occupied(HloModule m, int t) {
        Map<Integer, List<long[]>> byAllocation = new TreeMap<>();
        for (HloValue v : m.values())
            if (v.liveAt(t)) byAllocation.computeIfAbsent(v.allocation(), k -> new ArrayList<>()).add(new long[] {v.offset(), v.offset() + v.size()});
        long total = 0;
        for (List<long[]> ranges : byAllocation.values()) {
            ranges.sort((a, b) -> Long.compare(a[0], b[0]));
            long from = Long.MIN_VALUE, to = Long.MIN_VALUE;
            for (long[] r : ranges) {
                if (r[0] > to) {
                    if (to > from) total += to - from;
                    from = r[0];
                    to = r[1];
                } else {
                    to = Math.max(to, r[1]);
                }
            }
            if (to > from) total += to - from;
        }
        return total;
    }

    static long sum(DecodedProfile p, int index) {
        long s = 0;
        for (DecodedProfile.Sample x : p.samples) s += x.values().get(index);
        return s;
    }

    @Test
    void profileHasPprofsHeaderAndOneSamplePerLiveValueAddingUpToTheOccupiedBytes() throws Exception {
        HloModule m = ExportCorpus.pair(false);
        int t = Liveness.of(m).peakTime();
        DecodedProfile p = export(m, t, ProfileStacks.STACK);
        assertEquals("", p.strings.get(0));
        assertEquals(List.of("objects/count", "space/bytes"),
                p.sampleTypes.stream().map(v -> p.string(v[0]) + "/" + p.string(v[1])).toList());
        assertEquals("space", p.string(p.defaultSampleType));
        assertEquals(1, p.mappings);
        assertTrue(p.string(p.comments.get(0)).contains("step " + t), p.string(p.comments.get(0)));
        List<HloValue> live = LiveValues.at(m, t);
        assertEquals(live.size(), p.samples.size());
        assertEquals(live.size(), sum(p, 0));
        assertEquals(occupied(m, t), sum(p, 1));
        // Labels name each value, in order.
        for (int i = 0; i < live.size(); i++) {
            DecodedProfile.Sample s = p.samples.get(i);
            HloValue v = live.get(i);
            assertEquals(v.label(), s.strLabels().get("value"));
            assertEquals(v.shape().text(), s.strLabels().get("shape"));
            assertEquals(v.shape().dtype(), s.strLabels().get("dtype"));
            assertEquals(String.valueOf(v.allocation()), s.strLabels().get("allocation"));
            assertEquals(String.valueOf(v.color()), s.strLabels().get("color"));
        }
    }

    @Test
    void bySourceGivesBlameBySourceAndByOpNameItsEveryLevelWhereValuesShareBytes() throws Exception {
        for (HloModule m : List.of(ExportCorpus.gpuWithSources(), ExportCorpus.pair(true))) {
            int t = Liveness.of(m).peakTime();
            DecodedProfile bySource = export(m, t, ProfileStacks.SOURCE);
            Map<String, Long> leaves = new TreeMap<>();
            for (DecodedProfile.Sample s : bySource.samples) {
                List<String> stack = bySource.stack(s);
                assertEquals(1, stack.size());
                leaves.merge(stack.get(0), s.values().get(1), Long::sum);
            }
            assertEquals(ExportCorpus.blame(m, BlameBy.SOURCE), leaves, m.handle());
            // pprof's cumulative figure of a frame: each sample once per distinct frame on its stack.
            DecodedProfile byOp = export(m, t, ProfileStacks.OP_NAME);
            Map<String, Long> cumulative = new TreeMap<>();
            for (DecodedProfile.Sample s : byOp.samples)
                for (String f : new LinkedHashSet<>(byOp.stack(s))) cumulative.merge(f, s.values().get(1), Long::sum);
            assertEquals(ExportCorpus.blame(m, BlameBy.OP_NAME), cumulative, m.handle());
            assertEquals(occupied(m, t), sum(byOp, 1));
        }
    }

    @Test
    void theDefaultStackIsTheOpNamePathWithTheSourceLineAsLeaf() throws Exception {
        HloModule m = ExportCorpus.gpuWithSources();
        int t = Liveness.of(m).peakTime();
        DecodedProfile p = export(m, t, ProfileStacks.STACK);
        int withSource = 0;
        for (int i = 0; i < p.samples.size(); i++) {
            HloValue v = LiveValues.at(m, t).get(i);
            var ins = m.instruction(v.name());
            List<String> stack = p.stack(p.samples.get(i));
            DecodedProfile.Sample s = p.samples.get(i);
            long[] leaf = p.locations.get(s.locationIds().get(0));
            if (ins != null && ins.sourceFile() != null) {
                withSource++;
                assertEquals(ins.sourceFile() + ":" + ins.sourceLine(), stack.get(stack.size() - 1));
                assertEquals(ins.sourceFile(), p.string(p.functions.get(leaf[0])[1]));
                assertEquals(ins.sourceLine(), leaf[1]);
                if (ins.opName() != null) assertEquals(ins.opName(), stack.get(stack.size() - 2));
            }
        }
        assertTrue(withSource > 0, "the module has values with source lines");
    }

    @Test
    void aProtoDumpsWholePythonStackIsTheStack() throws Exception {
        HloModule m = ExportCorpus.withStacks();
        int t = Liveness.of(m).peakTime();
        DecodedProfile p = export(m, t, ProfileStacks.STACK);
        int withStack = 0;
        for (int i = 0; i < p.samples.size(); i++) {
            var ins = m.instruction(LiveValues.at(m, t).get(i).name());
            if (ins == null || ins.stack().isEmpty()) continue;
            withStack++;
            DecodedProfile.Sample s = p.samples.get(i);
            List<String> frames = new ArrayList<>();
            for (int k = s.locationIds().size() - 1; k >= 0; k--) {
                long[] loc = p.locations.get(s.locationIds().get(k));
                long[] fn = p.functions.get(loc[0]);
                frames.add(p.string(fn[1]) + ":" + loc[1] + " (" + p.string(fn[0]) + ")");
            }
            assertEquals(ins.stack(), frames);
        }
        assertTrue(withStack > 0, "the proto dump's values have stacks");
    }

    @Test
    void stepsByName() throws Exception {
        HloModule m = ExportCorpus.pair(false);
        assertEquals(Liveness.of(m).peakTime(), Step.resolve(m, "peak"));
        assertEquals(m.info().peakClaim().time(), Step.resolve(m, "claimed_peak"));
        assertEquals(7, Step.resolve(m, "7"));
        QueryException e = assertThrows(QueryException.class, () -> Step.resolve(m, "9999"));
        assertEquals("'at' takes peak, claimed_peak or a step from 0 to " + (m.steps() - 1) + ", not '9999'", e.getMessage());
        assertThrows(QueryException.class, () -> Step.resolve(m, "pek"));
    }

    @Test
    void theFieldNumbersAreTheDocumentedProtos() throws Exception {
        Map<String, Integer> documented = new HashMap<>();
        ProtoFile.read("query-engine/src/main/proto/profile.proto").messages().forEach((message, fields) ->
                fields.forEach((field, number) -> documented.put(snake(message) + "_" + field, number)));
        int checked = 0;
        for (var field : ProfileFields.class.getDeclaredFields()) {
            field.setAccessible(true);
            String key = field.getName().toLowerCase();
            assertEquals(documented.get(key), field.getInt(null), key + " in profile.proto");
            checked++;
        }
        assertEquals(documented.size(), checked, "every documented field has its constant: " + documented.keySet());
    }

    private static String snake(String camel) {
        return camel.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase();
    }
}
