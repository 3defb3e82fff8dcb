package bufq.analysis.whatif;

import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;
import bufq.testing.Corpus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every edit kind on real dumps, against {@link Recompute}: the peak (bytes and step) and the
 * occupancy at every step of the edited copy must be what a plain recomputation gives.
 */
class WhatIfCorpusTest {
    static final List<String> MODULES = List.of("jax-0.10.2/transformer-2layer", "jax-0.10.2/rnn-scan", "jax-0.10.2/bf16-mlp",
            "jax-0.10.2/cnn", "jax-0.10.2/pairs/transformer-4layer",
            "public/patrick-toulme_justabyte__tpp-ref_hlo_module_0031.jit_reference_attention-buffer-assignment.txt",
            "public/jackmcarthur_lorrax_sandbox__MoS2-02_mos2_3x3_nosym-21_lorrax_scan_C-profile__module_0657.jit__scan_window.sm_8.0_gpu-buffer-assignment.txt");

    static HloModule load(String rel) throws IOException {
        Path p = Corpus.require(rel);
        try {
            return DumpLoader.load(List.of(p)).get(0);
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /** Edits that touch something on any module with a peak: the peak's values, parameters, everything. */
    static List<String> edits(HloModule m) {
        long largest = 0;
        for (HloValue v : LiveValues.at(m, Liveness.of(m).peakTime())) largest = Math.max(largest, v.size());
        int mid = Liveness.of(m).peakTime() / 2;
        List<String> out = new ArrayList<>(List.of("drop where live at peak and size >= " + largest, "end where live at peak at last_use",
                "end where live at peak at " + mid, "end where live at peak at " + m.sequence().get(mid),
                "remat where live at peak", "scale where live at peak by 0.5",
                "size where live at peak and size > 1KiB = 1KiB", "donate where allocation >= 0", "tiling none", "tiling tpu",
                "scale where live at peak by 0.5; tiling none",
                "remat where live at peak and size > 1MiB; drop where size < 4KiB; scale where dtype = \"f32\" by 0.5"));
        String parameter = parameterName(m);
        if (parameter != null) out.add("donate " + parameter);
        // Every edit kind after remat on the same values, and before it: each applies to both parts of a rematerialised value.
        String same = "live at peak";
        List<String> kinds = new ArrayList<>(List.of("drop where " + same, "end where " + same + " at last_use",
                "end where " + same + " at " + (Liveness.of(m).peakTime() + 1), "end where " + same + " at " + m.sequence().get(mid),
                "scale where " + same + " by 0.5", "size where " + same + " = 1KiB", "donate where " + same, "remat where " + same,
                "tiling none"));
        if (parameter != null) kinds.add("donate " + parameter);
        for (String k : kinds) {
            out.add("remat where " + same + "; " + k);
            out.add(k + "; remat where " + same);
        }
        return out;
    }

    /** The name of an entry parameter that is the only value of that name, or null. */
    static String parameterName(HloModule m) {
        for (HloValue v : m.values()) {
            var a = m.allocation(v.allocation());
            if (a != null && a.isParameter() && v.hasRange() && m.valuesNamed(v.name()).size() == 1) return v.name();
        }
        return null;
    }

    @TestFactory
    Stream<DynamicTest> everyEditAgreesWithAPlainRecomputation() throws IOException {
        Corpus.require(Corpus.dir());
        List<DynamicTest> tests = new ArrayList<>();
        for (String rel : MODULES) {
            HloModule m = load(rel);
            for (String text : edits(m)) tests.add(DynamicTest.dynamicTest(rel + ": " + text, () -> check(m, text)));
        }
        return tests.stream();
    }

    static void check(HloModule m, String text) throws QueryException {
        List<Edit> edits = EditParser.parse(text, Set.copyOf(Catalog.standard().entities())).edits();
        Outcome o = EditSweep.run(m, edits, Catalog.standard(), TilingModel.TPU,
                n -> "none".equals(n) ? TilingModel.NONE : "tpu".equals(n) ? TilingModel.TPU : null);
        List<Recompute.Segment> segs = Recompute.apply(m, edits);
        long[] expected = Recompute.occupancy(m, segs);
        assertArrayEquals(expected, o.after().occupiedBytesByStep(OptionalInt.empty()), text);
        int peak = Recompute.peakTime(m, segs);
        assertEquals(peak, o.after().peakTime(), text);
        assertEquals(expected[peak], o.after().peakBytes(), text);
        assertEquals(o.before().peakBytes() - o.after().peakBytes(), o.saved());
        if (text.startsWith("drop where live at peak")) assertTrue(o.effects().get(0).values() >= 1, text);
        if (text.equals("donate where allocation >= 0")) {   // the tally counts what can be donated: parameters
            long parameters = m.values().stream().filter(v -> m.allocation(v.allocation()) != null && m.allocation(v.allocation()).isParameter()).count();
            assertEquals(parameters, o.effects().get(0).values(), text);
        }
        if (text.equals("scale where live at peak by 0.5")) {   // every byte held at the peak belongs to a value halved
            int t = o.before().peakTime();
            assertTrue(o.after().occupiedBytes(t) < o.before().occupiedBytes(t), text);
        }
        // The edited copy as a module gives the same figures again.
        HloModule edited = o.editedModule();
        assertArrayEquals(expected, Liveness.of(edited).occupiedBytesByStep(OptionalInt.empty()), text);
        // Live bytes, value counts and the peak per colour too: a patched sweep must equal a full one.
        assertArrayEquals(Liveness.of(edited).liveBytesByStep(OptionalInt.empty()), o.after().liveBytesByStep(OptionalInt.empty()), text);
        for (int t = 0; t < m.steps(); t++) assertEquals(Liveness.of(edited).liveValues(t), o.after().liveValues(t), text + " at " + t);
        for (int c : o.after().colors()) {
            assertEquals(Liveness.of(edited).peakTime(c), o.after().peakTime(c), text + " colour " + c);
            assertArrayEquals(Liveness.of(edited).occupiedBytesByStep(OptionalInt.of(c)), o.after().occupiedBytesByStep(OptionalInt.of(c)), text);
        }
        for (var a : m.allocations())
            assertEquals(Liveness.of(edited).allocationUse(a.index()), o.after().allocationUse(a.index()), text + " allocation " + a.index());
        assertTrue(edited.handle().endsWith("(what if)"));
    }

    /** The part that comes back after the peak goes with the value: remat then drop is drop. */
    @org.junit.jupiter.api.Test
    void anEditAfterRematReachesTheReturningPart() throws Exception {
        HloModule m = load("jax-0.10.2/transformer-2layer");
        Set<String> entities = Set.copyOf(Catalog.standard().entities());
        java.util.function.Function<String, TilingModel> none = n -> null;
        Outcome both = EditSweep.run(m, EditParser.parse("remat where id = 580; drop where id = 580", entities).edits(), Catalog.standard(), TilingModel.TPU, none);
        Outcome drop = EditSweep.run(m, EditParser.parse("drop where id = 580", entities).edits(), Catalog.standard(), TilingModel.TPU, none);
        assertArrayEquals(drop.after().occupiedBytesByStep(OptionalInt.empty()), both.after().occupiedBytesByStep(OptionalInt.empty()));
        assertEquals(4L << 20, both.before().occupiedBytes(133) - both.after().occupiedBytes(133), "step 133 no longer holds the returning part");
        for (int k = 0; k < both.ranges().owner().length; k++)
            if (m.values().get(both.ranges().owner()[k]).id() == 580) assertEquals(0, both.ranges().size()[k], "part " + k);
        Outcome scaled = EditSweep.run(m, EditParser.parse("remat where id = 580; scale where id = 580 by 0.5", entities).edits(), Catalog.standard(), TilingModel.TPU, none);
        assertEquals(2L << 20, scaled.before().occupiedBytes(133) - scaled.after().occupiedBytes(133), "step 133 holds the returning half-size part");
    }

    /** {@code tiling tpu} on a TPU dump gives back the sizes XLA printed, 4 KiB thread-local scalars included. */
    @org.junit.jupiter.api.Test
    void tpuTilingOnATpuDumpReproducesItsOccupancy() throws Exception {
        for (String rel : List.of("public/patrick-toulme_justabyte__tpp-ref_hlo_module_0031.jit_reference_attention-buffer-assignment.txt",
                "public/patrick-toulme_justabyte__tcp-hlo_module_0015.jit__unstack-buffer-assignment.txt",
                "public/patrick-toulme_justabyte__tcp-hlo_module_0051.jit_mini_attention-buffer-assignment.txt")) {
            HloModule m = load(rel);
            List<Edit> edits = EditParser.parse("tiling tpu", Set.copyOf(Catalog.standard().entities())).edits();
            Outcome o = EditSweep.run(m, edits, Catalog.standard(), TilingModel.TPU, n -> "tpu".equals(n) ? TilingModel.TPU : null);
            assertArrayEquals(o.before().occupiedBytesByStep(OptionalInt.empty()), o.after().occupiedBytesByStep(OptionalInt.empty()), rel);
            assertArrayEquals(o.before().occupiedBytesByStep(OptionalInt.empty()), Recompute.occupancy(m, Recompute.apply(m, edits)), rel);
        }
    }
}
