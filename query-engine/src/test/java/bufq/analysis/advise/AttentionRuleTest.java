package bufq.analysis.advise;

import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Attention by its dataflow: an einsum of two sequences or a softmax step, never a stack of square weights. */
class AttentionRuleTest {
    @Test
    void anEinsumOfTwoSequencesMakesOrReadsScores() {
        assertTrue(AttentionRule.sequencePair("bqhd", "bkhd", "bhqk"), "q against k");
        assertTrue(AttentionRule.sequencePair("bhqk", "bkhd", "bqhd"), "the probabilities times v read the scores");
        assertFalse(AttentionRule.sequencePair("bd", "df", "bf"), "a projection");
        assertFalse(AttentionRule.sequencePair("btd", "df", "btf"), "a projection of a sequence");
    }

    @Test
    void aStackOfSquareWeightsIsNotAttention() throws Exception {
        // 24 layers of [2048, 2048] weights (and their Adam moments): equal last two dims, no softmax, no
        // sequence product; its attention's scores ([4, 16, 1024, 1024] per chip) are found
        HloModule m = DumpLoader.load(List.of(Corpus.require("tpu/oom/replicated-adam/dump"))).get(0);
        List<Advisor.Measured> found = Advisor.run(m, List.of(new AttentionRule()), Catalog.standard(), TilingModel.TPU, n -> null);
        assertFalse(found.isEmpty());
        for (Advisor.Measured x : found)
            for (bufq.model.HloValue v : x.advice().values())
                assertTrue(java.util.Arrays.toString(v.shape().dims()).equals("[4, 16, 1024, 1024]"), v.shape().text());
    }

    @Test
    void realAttentionIsFoundWithEveryTwin() throws Exception {
        HloModule m = DumpLoader.load(List.of(Corpus.require("jax-0.10.2/remat-pairs/attention-2layer"))).get(0);
        List<Advisor.Measured> found = Advisor.run(m, List.of(new AttentionRule()), Catalog.standard(), TilingModel.TPU, n -> null);
        assertFalse(found.isEmpty());
        // the scores and their twins (softmax output, gradient) in one edit: more values than are live at the peak
        assertTrue(found.get(0).advice().values().size() > 1, found.toString());
        assertTrue(found.get(0).saves() > 0);
    }
}
