package bufq.analysis.category;

import bufq.dump.DumpLoader;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.liveness.OccupiedShares;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The built-in categories held to answer keys written by hand from a program's dataflow: every
 * value live at the peak of the named Adam step ({@code train/mlp-adam}), a mixed-precision
 * gradient ({@code bf16-mlp}), a scan's gradient ({@code rnn-scan}) and a tensor-parallel TPU step
 * ({@code tpu/tp-mlp}, in hbm), all copied into the checkout, with the category its HLO says ({@code category/*-peak.key}). The measure is the one users
 * feel: the share of the peak's occupied bytes filed in another category than the key's.
 */
class CategoryAnswerKeyTest {
    @Test
    void everyValueLiveAtTheAdamStepsPeakIsInTheKeysCategory() throws Exception {
        HloModule m = held("jax-0.10.2/train/mlp-adam", "category/mlp-adam-peak.key");
        Categories c = Categories.of(m);
        assertTrue(c.reason(m.positionOf(m.valuesNamed("copy.3").get(0))).contains("params[1]['w']"), "why says what the copy copies");
    }

    /** A gradient function without an optimizer: its weights are what it returns the gradients of. */
    @Test
    void theMixedPrecisionGradientsPeakIsInTheKeysCategory() throws Exception {
        held("jax-0.10.2/bf16-mlp", "category/bf16-mlp-peak.key");
    }

    /** Two while loops: the forward scan's stacked outputs are residuals, the backward scan's zero carries gradients and cotangents. */
    @Test
    void theScansPeakIsInTheKeysCategory() throws Exception {
        held("jax-0.10.2/rnn-scan", "category/rnn-scan-peak.key");
    }

    /**
     * A TPU step, per chip: a Megatron tensor-parallel MLP's adamw update. The key was written from the
     * optimized HLO text beside the dump (every instruction's operands, users and op_name, the fused
     * ones' too) and meta.json (which arguments are params, opt_state, batch): forward values that a
     * transpose( instruction reads, through XLA's copies to and from vmem, are residuals (an all-reduce's
     * output too); backward values of a bias's or weight's per-chip shape flowing into the adamw fusions
     * are gradients (an all-reduce over the data axis of one too); the other backward values cotangents;
     * the tuple tables of asynchronous copies temporaries.
     */
    @Test
    void theTensorParallelTpuStepsPeakIsInTheKeysCategory() throws Exception {
        HloModule m = held("tpu/tp-mlp", "category/tp-mlp-peak.key");
        assertEquals("gradients", Categories.of(m).name(m.positionOf(m.valueByKey("all-reduce.31{}"))), "an all-reduced gradient");
    }

    /** Loads {@code dump} and holds every value live at its peak to the key: none of the occupied bytes misfiled. */
    private static HloModule held(String dump, String keyResource) throws Exception {
        HloModule m = DumpLoader.load(List.of(Corpus.require(dump))).get(0);
        Map<String, String> key = key(keyResource);
        int t = Liveness.of(m).peakTime();
        // device memory (colour 0) only: a TPU's vmem and smem are other memory spaces, never added in
        int[] live = Arrays.stream(LiveValues.positions(m, t, t)).filter(p -> m.values().get(p).color() == 0).toArray();
        List<HloValue> values = new ArrayList<>();
        for (int p : live) values.add(m.values().get(p));
        long[] shares = OccupiedShares.of(values);
        Categories c = Categories.of(m);
        long total = 0, misfiled = 0;
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < live.length; i++) {
            String label = values.get(i).label();
            String expected = key.get(label);
            assertNotNull(expected, label + " is live at the peak but not in the key");
            total += shares[i];
            String got = c.name(live[i]);
            if (!got.equals(expected)) {
                misfiled += shares[i];
                wrong.add(label + ": " + got + ", the key says " + expected);
            }
        }
        assertEquals(key.size(), live.length, "the key lists exactly the values live at the peak");
        assertEquals(Liveness.of(m).occupiedBytes(t, 0), total);
        assertEquals(0, misfiled, dump + ": misfiled " + misfiled + " of " + total + " B: " + wrong);
        return m;
    }

    /** A key: one value per line, its label, a tab, its category; {@code #} starts a comment. */
    static Map<String, String> key(String resource) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (InputStream in = CategoryAnswerKeyTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertNotNull(in, resource);
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                int hash = line.indexOf('#');
                String s = (hash < 0 ? line : line.substring(0, hash)).strip();
                if (s.isEmpty()) continue;
                String[] f = s.split("\t");
                out.put(f[0].strip(), f[1].strip());
            }
        }
        return out;
    }
}
