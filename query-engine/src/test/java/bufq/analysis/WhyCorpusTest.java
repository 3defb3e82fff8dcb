package bufq.analysis;

import bufq.analysis.why.Why;
import bufq.analysis.why.WhyReport;

import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.dump.DumpLoader;
import bufq.dump.file.ModuleSource;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloUse;
import bufq.model.HloValue;
import bufq.analysis.liveness.RangeEnd.Reason;
import bufq.analysis.liveness.RangeEnd;
import bufq.analysis.liveness.UseSchedule;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code why} on the real corpus, held to the dump's own text ({@link RawDump}): every reason a
 * range ends is checked against the printed uses, positions, ranges and allocation flags, and idle
 * stretches are recomputed from the printed uses on every module.
 */
class WhyCorpusTest {
    private static Path corpus() {
        return Corpus.require(Corpus.dir());
    }

    private record Loaded(HloModule module, RawDump raw) {}

    private static Loaded load(String dir) throws Exception {
        Path p = Corpus.require("jax-0.10.2/" + dir);
        ModuleSource src = DumpLoader.discover(List.of(p)).get(0);
        return new Loaded(src.load(), RawDump.read(src.files()));
    }

    private static final List<String> WALKED = List.of("transformer-2layer", "rnn-scan", "pairs/transformer-4layer",
            "pairs/transformer-4layer-remat");

    @Test
    void everyValueLiveAtThePeakIsExplained() throws Exception {
        for (String dir : WALKED) {
            Loaded l = load(dir);
            HloModule m = l.module();
            int peak = Liveness.of(m).peakTime();
            List<HloValue> live = LiveValues.at(m, peak);
            assertFalse(live.isEmpty(), dir);
            for (WhyReport r : Why.of(m, live)) {
                for (Output o : r.tables()) assertTrue(o instanceof Table);
                assertEquals(1, r.what().size());
                assertFalse(r.end().size() == 0, dir);
                assertFalse(r.end().cell(0, 0).equals(Reason.UNEXPLAINED.word()), dir + ": " + r.end());
            }
        }
    }

    @Test
    void everyReasonHoldsAgainstTheDumpsOwnText() throws Exception {
        Map<Reason, Integer> seen = new EnumMap<>(Reason.class);
        for (String dir : WALKED) {
            Loaded l = load(dir);
            HloModule m = l.module();
            RawDump raw = l.raw();
            for (HloValue v : m.values()) {
                RangeEnd e = RangeEnd.of(m, v);
                seen.merge(e.reason(), 1, Integer::sum);
                RawDump.Value rv = raw.values.get(v.id());
                int[] range = rv == null ? null : raw.range(rv);
                String where = dir + " value " + v.id() + " " + v.label() + ": " + e;
                if (range == null) {
                    assertEquals(Reason.NO_RANGE, e.reason(), where);
                    continue;
                }
                int end = range[1];
                assertEquals(end, e.end(), where);
                String alloc = raw.allocationOf.get(v.id());
                boolean parameterAllocation = alloc.matches("size \\d+, parameter \\d+.*");
                boolean donated = alloc.contains("maybe-live-out");
                switch (e.reason()) {
                    case UNDONATED_PARAMETER -> {
                        assertEquals(raw.maxTime, end, where);
                        assertEquals("parameter", rv.opcode(), where);
                        assertTrue(parameterAllocation && !donated, where);
                    }
                    case LIVE_OUT -> assertEquals(raw.maxTime, end, where);
                    case LAST_USE -> {
                        int last = -1;
                        for (String u : rv.users()) if (raw.step(u) <= end) last = Math.max(last, raw.step(u));
                        assertEquals(end, last, where);
                    }
                    case LOOP_INIT -> assertTrue(rv.users().stream().anyMatch(u -> raw.step(u) > end), where);
                    case CARRY -> assertTrue(rv.positions().stream().anyMatch(p -> raw.step(p) >= 0 && raw.step(p) + 1 == end), where);
                    case ALIAS -> assertTrue(rv.positions().stream().anyMatch(p -> raw.step(p) == end), where);
                    case LOOP_PARAMETER -> assertTrue("parameter".equals(rv.opcode()) && !parameterAllocation, where);
                    case NO_USES -> assertTrue(rv.users().isEmpty(), where);
                    default -> throw new AssertionError("unexpected reason: " + where);
                }
                if (e.reason() == Reason.LAST_USE && "parameter".equals(rv.opcode()) && parameterAllocation) {
                    assertTrue(donated, "a parameter that ends at its last use is donated: " + where);
                    assertTrue(e.detail().contains("donated"), where);
                }
            }
        }
        for (Reason r : List.of(Reason.LAST_USE, Reason.LIVE_OUT, Reason.UNDONATED_PARAMETER, Reason.CARRY, Reason.LOOP_INIT))
            assertTrue(seen.getOrDefault(r, 0) > 0, "no " + r + " in " + seen);
    }

    @Test
    void namedCases() throws Exception {
        Loaded t = load("transformer-2layer");
        HloModule m = t.module();
        // A donated parameter (allocation 0: parameter 0, maybe-live-out) ends at its last use.
        HloValue w1 = m.valueByKey("params_0___w1__.1");
        RangeEnd donated = RangeEnd.of(m, w1);
        assertEquals(Reason.LAST_USE, donated.reason());
        assertEquals(18, donated.end());
        assertEquals(18, t.raw().ranges.get("params_0___w1__.1{}")[1]);
        assertTrue(donated.detail().contains("donated parameter (0)"), donated.detail());
        // The batch is not donated: live to the end though its last use is earlier.
        HloValue x = m.valueByKey("x.1");
        RangeEnd undonated = RangeEnd.of(m, x);
        assertEquals(Reason.UNDONATED_PARAMETER, undonated.reason());
        assertEquals(146, undonated.end());
        assertEquals(UseSchedule.lastUse(m, x), undonated.lastUse());
        assertTrue(undonated.lastUse() < 146);
        assertTrue(undonated.detail().contains("donating it would free its bytes after step " + undonated.lastUse()));
        // The updated weights are the program's outputs.
        HloValue out = m.valueByKey("multiply_subtract_fusion.11");
        assertEquals(Reason.LIVE_OUT, RangeEnd.of(m, out).reason());
        assertEquals(146, out.rangeEnd());

        Loaded r = load("rnn-scan");
        HloModule rnn = r.module();
        // The loop counter's increment is the body's result at tuple.23 {0}: held until while.15 (step 44).
        HloValue add = rnn.valueByKey("wrapped_add");
        RangeEnd carry = RangeEnd.of(rnn, add);
        assertEquals(Reason.CARRY, carry.reason());
        assertEquals("tuple.23 {0}", carry.position().toString());
        assertEquals(43, r.raw().step("tuple.23"));
        assertEquals(44, r.raw().ranges.get("wrapped_add{}")[1]);
        assertEquals("while.15", rnn.sequence().get(carry.end()));
        // The state handed to the loop ends where the loop begins.
        RangeEnd init = RangeEnd.of(rnn, rnn.valueByKey("copy.4"));
        assertEquals(Reason.LOOP_INIT, init.reason());
        assertEquals("while.15", init.use().user());
    }

    /**
     * The at-the-peak part against a plain per-step union of byte ranges: for every value live at the
     * peak, its saving is the highest step's bytes before minus after ending its range at its last
     * use at or before the peak (or its birth), each step's bytes recounted here from scratch.
     */
    @Test
    void atThePeakSavingsAgreeWithAPlainUnionOfByteRanges() throws Exception {
        for (String dir : List.of("transformer-2layer", "rnn-scan")) {
            HloModule m = load(dir).module();
            int steps = m.steps();
            long[] base = new long[steps];
            for (int t = 0; t < steps; t++) base[t] = occupied(m.values(), t, null);
            int peak = 0;
            for (int t = 1; t < steps; t++) if (base[t] > base[peak]) peak = t;
            long before = base[peak];
            assertEquals(peak, Liveness.of(m).peakTime(), dir);
            assertEquals(before, Liveness.of(m).peakBytes(), dir);
            List<HloValue> live = LiveValues.at(m, peak);
            long heldSum = 0;
            int saving = 0;
            for (HloValue v : live) {
                Table t = Why.of(m, List.of(v)).get(0).peak();
                String where = dir + " value " + v.id() + " " + v.label();
                assertEquals(Boolean.TRUE, t.cell(0, t.columnIndex("live")), where);
                assertEquals((long) peak, t.cell(0, t.columnIndex("peak")), where);
                heldSum += (Long) t.cell(0, t.columnIndex("held"));
                int freeAt = v.rangeStart();
                for (HloUse u : v.uses()) {
                    int s = m.timeOf(u.user());
                    if (s > freeAt && s <= peak) freeAt = s;
                }
                assertEquals((long) freeAt, t.cell(0, t.columnIndex("free_at")), where);
                long after = 0;
                for (int s = 0; s < steps; s++) {
                    long bytes = s > freeAt && v.liveAt(s) ? occupied(m.values(), s, v) : base[s];
                    after = Math.max(after, bytes);
                }
                long expected = freeAt == peak ? 0 : before - after;
                assertEquals(expected, t.cell(0, t.columnIndex("saves")), where);
                if (expected > 0) saving++;
            }
            assertEquals(before, heldSum, dir + ": the values' held bytes add up to the peak");
            assertTrue(saving > 0, dir + ": some value live at the peak saves bytes when freed earlier");
        }
    }

    /** Bytes held at step {@code t}: per allocation the union of its live values' byte ranges, without {@code skip}. */
    private static long occupied(List<HloValue> values, int t, HloValue skip) {
        Map<Integer, List<long[]>> byAllocation = new TreeMap<>();
        long loose = 0;
        for (HloValue v : values) {
            if (v == skip || !v.liveAt(t) || v.size() <= 0) continue;
            if (v.offset() < 0) loose += v.size();
            else byAllocation.computeIfAbsent(v.allocation(), a -> new ArrayList<>()).add(new long[] {v.offset(), v.offset() + v.size()});
        }
        long total = loose;
        for (List<long[]> ranges : byAllocation.values()) {
            ranges.sort(Comparator.comparingLong(r -> r[0]));
            long from = -1, to = -1;
            for (long[] r : ranges) {
                if (r[0] > to) {
                    total += to - from;
                    from = r[0];
                    to = r[1];
                } else to = Math.max(to, r[1]);
            }
            total += to - from;
        }
        return total;
    }

    /** Idle stretches from the printed uses and ranges, on every module of the corpus. */
    @Test
    void idleStretchesAgreeWithTheDumpOnEveryModule() throws Exception {
        int modules = 0, stretches = 0;
        for (ModuleSource src : DumpLoader.discover(List.of(corpus()))) {
            // The dump text is the oracle: protos (.hlo.pb, profiles) have none to read.
            if (!src.files().stream().allMatch(f -> f.endsWith(".txt"))) continue;
            HloModule m = src.load();
            RawDump raw = RawDump.read(src.files());
            modules++;
            for (HloValue v : m.values()) {
                RawDump.Value rv = raw.values.get(v.id());
                int[] range = rv == null ? null : raw.range(rv);
                List<int[]> expected = new ArrayList<>();
                if (range != null) {
                    TreeSet<Integer> busy = new TreeSet<>();
                    busy.add(range[0]);
                    for (String u : rv.users()) {
                        int s = raw.step(u);
                        if (s >= range[0] && s <= range[1]) busy.add(s);
                    }
                    int run = -1;
                    for (int t = range[0]; t <= range[1]; t++) {
                        if (!busy.contains(t) && run < 0) run = t;
                        if (busy.contains(t) && run >= 0) { expected.add(new int[] {run, t - 1}); run = -1; }
                    }
                    if (run >= 0) expected.add(new int[] {run, range[1]});
                }
                List<UseSchedule.Stretch> got = rv == null ? List.of() : UseSchedule.idleStretches(m, v);
                String where = src.files().get(0) + " value " + v.id();
                assertEquals(expected.size(), got.size(), where);
                for (int i = 0; i < got.size(); i++) {
                    assertEquals(expected.get(i)[0], got.get(i).from(), where);
                    assertEquals(expected.get(i)[1], got.get(i).to(), where);
                }
                stretches += got.size();
            }
        }
        assertTrue(modules >= 40, "swept " + modules);
        assertTrue(stretches > 1000, "found " + stretches);
    }

    @Test
    void bornListsThePythonStackOfAProtoDump() throws Exception {
        Path pb = Corpus.require("jax-0.10.2-proto/transformer-2layer/module_0000.jit_step.cpu_after_optimizations.hlo.pb");
        HloModule m = DumpLoader.discover(List.of(pb)).get(0).load();
        int withStack = 0;
        for (HloValue v : m.values()) {
            HloInstruction ins = m.instruction(v.name());
            List<String> stack = ins == null ? List.of() : ins.stack();
            Table born = Why.of(m, List.of(v)).get(0).born();
            assertEquals(1 + stack.size(), born.size(), v.label());
            assertEquals(v.name(), born.rows().get(0).get(1), v.label());
            for (int i = 0; i < stack.size(); i++) {
                assertEquals(stack.get(i), born.rows().get(1 + i).get(4), v.label() + " frame " + i);
                assertEquals(null, born.rows().get(1 + i).get(1), v.label() + " frame " + i);
            }
            if (stack.size() > 1) withStack++;
        }
        assertTrue(withStack > 0, "some value of the proto dump has a stack of more than one frame");
    }
}
