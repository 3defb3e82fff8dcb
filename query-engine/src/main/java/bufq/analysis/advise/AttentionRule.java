package bufq.analysis.advise;

import bufq.units.Units;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.List;

/**
 * Attention scores held whole: values live at the peak shaped {@code [..., q, k]} with equal, long
 * last two axes (a sequence against itself). A memory-efficient attention computes them a block of
 * queries at a time, so only one block is live: measured as every such value cut to one of
 * {@link #CHUNKS} query blocks. What helps where {@code jax.checkpoint} does not (XLA:CPU schedules
 * its recomputations together).
 */
final class AttentionRule implements Rule {
    /** Query blocks the measured change computes the scores in. */
    static final int CHUNKS = 8;
    /** The shortest sequence whose scores count: below it attention is not what fills memory. */
    static final long MIN_SEQUENCE = 128;

    @Override public String name() { return "attention"; }

    @Override public String description() {
        return "[.., s, s] attention scores live at the peak; saving if computed " + CHUNKS + " query blocks at a time";
    }

    @Override public List<Advice> find(Facts f) {
        List<HloValue> scores = new ArrayList<>();
        long bytes = 0;
        for (HloValue v : f.atPeak()) {
            if (v.shape() == null || v.shape().isTuple() || v.shape().rank() < 3) continue;
            int r = v.shape().rank();
            long q = v.shape().dim(r - 2), k = v.shape().dim(r - 1);
            if (q != k || k < MIN_SEQUENCE) continue;
            scores.add(v);
            bytes += v.size();
        }
        if (scores.isEmpty()) return List.of();
        HloValue first = scores.get(0);
        return List.of(new Advice(name(), scores.size() + " attention score arrays like " + first.shape().text() + " ("
                + Units.human(bytes) + ") are live at the peak: a memory-efficient attention (jax.nn.dot_product_attention,"
                + " a flash-attention kernel, or lax.map over " + CHUNKS + " query blocks) never holds them whole",
                "scale where " + Facts.byId(scores) + " by " + (1.0 / CHUNKS), scores, 0));
    }
}
