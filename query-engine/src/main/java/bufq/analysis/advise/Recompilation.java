package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.units.Units;
import bufq.model.HloModule;
import bufq.model.HloValue;

import java.util.List;

/**
 * What a {@code jax.checkpoint} rebuild is expected to save, beside the what-if's figure for a
 * remat edit. The what-if frees each value after its last use before the peak and makes it again
 * just before its next use; a real recompilation only does that where the backend's scheduler
 * places each recomputation next to its use. XLA:CPU does not: on the corpus's real pairs
 * (transformer-4layer and attention-2layer, each compiled with and without {@code jax.checkpoint}
 * per layer on jaxlib 0.10.2) every layer's recomputed values are live together at the new peak,
 * and the remat build's peak was higher (+2.7% and +1.0%), where the what-if promised 22% and 43%.
 * On such a backend the estimate is no saving; elsewhere the what-if's figure stands, as a bound.
 */
final class Recompilation {
    private Recompilation() {}

    /**
     * @param saves  what {@code advise} shows as saved
     * @param kind   what kind of figure it is
     * @param finding text added to the finding (empty for an exact figure)
     */
    record Figure(long saves, String kind, String finding) {}

    /** The measured error of the CPU estimate on the corpus pairs: the remat build's peak change. */
    static final String CPU_ERROR = "real jax.checkpoint builds on XLA:CPU: +2.7% and +1.0% of the peak (corpus pairs)";

    /**
     * Real scan-over-layers builds with {@code jax.checkpoint}: on XLA:CPU two transformers' what-if
     * figures were 89% to 118% of what the recompilation saved (68% and 83% of the peak), so the
     * estimate is the what-if's figure over 1.18; on XLA:TPU a training step's peak fell from 6.98 to
     * 1.88 GiB (memory_analysis), more than its what-if's figure.
     */
    static final double SCAN_SHARE = 1 / 1.18;
    static final String SCAN_ERROR = "estimate: the what-if's figure / 1.18; real lax.scan + jax.checkpoint builds saved"
            + " 0.85x to 1.12x the what-if on XLA:CPU, and more than it on XLA:TPU (6.98 -> 1.88 GiB peak)";

    /**
     * A real blocked-attention build on XLA:TPU: {@code tpu/oom/activations} compiled again with
     * Pallas's {@code flash_attention} (in a {@code shard_map}) in place of the einsum-softmax-einsum
     * peaked 8,247,177,216 B lower, where the what-if of its score arrays cut to one block in eight
     * promised 16,030,629,888 B: the other residuals the scores kept company stay. The same program with
     * {@code jax.nn.dot_product_attention}'s default (XLA) implementation saved nothing: it makes the
     * scores whole.
     */
    static final double ATTENTION_TPU_SHARE = 8_247_177_216.0 / 16_030_629_888.0;
    static final String ATTENTION_TPU_ERROR = "estimate: the what-if's figure x 0.51; a real Pallas flash_attention build"
            + " of a TPU training step saved 7.7 of the what-if's 14.9 GiB";

    /** The figure kinds {@code advise} prints, documented in {@code help advise} and docs/commands.md. */
    static final String EXACT = "exact: whatif", BOUND = "upper bound: whatif", ESTIMATE = "estimate: recompilation";

    /**
     * The largest share of the what-if's figure that a real recompilation of {@code change}'s kind
     * delivered on {@code m}'s backend: the cap of every row {@code advise} lists (1 where the edit is
     * the change itself, a size under the schedule kept).
     */
    static double share(HloModule m, String change, boolean remat) {
        boolean cpu = "cpu".equals(m.info().backend());
        if (OffloadRule.NAME.equals(change)) return cpu ? 0 : 1;
        if (AttentionRule.NAME.equals(change) && "tpu".equals(m.info().backend())) return ATTENTION_TPU_SHARE;
        if (!remat) return 1;
        if (ScanRematRule.NAME.equals(change)) return SCAN_SHARE;
        return cpu ? 0 : 1;
    }

    /** Whether {@code a}'s edits free and remake values (a remat): what only a recompilation's schedule delivers. */
    static boolean remat(Advice a) {
        return !a.edits().isEmpty() && a.edits().get(0) instanceof Edit.Remat;
    }

    /**
     * Sharding a weight the model reads can bring back a gathered copy of it for each use: FSDP-style,
     * XLA all-gathers the weight before the op that reads it, and the next one ahead while it runs;
     * the what-if cuts the weight and never makes those copies. Real rebuilds on XLA:TPU saved 77% of
     * the what-if's figure (a wide tensor-parallel MLP, its weights cut over the data axis too: 1.0 GiB
     * of gathered weights and collectives at its peak) to more than all of it (a replicated embedding,
     * whose failing program gathered it already; a replicated Adam state). The estimate is the least
     * share, where the values cut include a weight the model reads.
     */
    static final double SHARD_SHARE = 0.77;
    static final String SHARD_ERROR = "estimate: the what-if's figure x 0.77, for the all-gathered copies of the weights it cuts"
            + " (a sharded weight is gathered whole for its use); real XLA:TPU rebuilds saved 0.77x (a wide tensor-parallel MLP"
            + " sharded FSDP-style) to more than 1x the what-if";

    /** The figure of sharding {@code values} (weights and their optimizer state) that the what-if saves {@code whatifSaves} for. */
    static Figure sharded(HloModule m, List<HloValue> values, long whatifSaves) {
        boolean read = false;
        for (HloValue v : values) read |= "weights".equals(Facts.category(m, v));
        if (!read) return new Figure(whatifSaves, EXACT, "");   // optimizer state alone: never gathered
        return new Figure((long) (whatifSaves * SHARD_SHARE), ESTIMATE, "; " + SHARD_ERROR);
    }

    /**
     * XLA:TPU spends memory a program is offered and does not need: with room to spare its scheduler
     * keeps more prefetches (copy-start) in flight and its rematerialisation undoes fewer values. Real
     * training steps that failed to compile and were changed just enough to fit peaked at 89% to 92.4%
     * of the 15.75 GiB offered (a ViT-L at 512x512 microbatched 2 ways: 14.0 GiB, its 2.1 GiB of
     * prefetches seven times the failing build's; a U-Net: 91%; a NeRF with jax.checkpoint: 89.5%; a
     * WaveNet microbatched: 92.4%), where the what-if's schedule gave the ViT and the U-Net 65% and
     * 74%. So on XLA:TPU a change of a program over what it is offered saves at most what brings its
     * peak to 93% of the offer.
     */
    static final double TPU_FILL = 0.93;

    /**
     * {@code f}, for a program that must save {@code need} bytes of the {@code offered}: on XLA:TPU cut to
     * what brings the peak to {@link #TPU_FILL} of the offer, an estimate, where it promised more;
     * else as it is.
     */
    static Figure filled(HloModule m, Figure f, long need, long offered) {
        if (!"tpu".equals(m.info().backend()) || need <= 0 || offered <= 0) return f;
        long cap = need + (long) ((1 - TPU_FILL) * offered);
        if (f.saves() <= cap) return f;
        return new Figure(cap, ESTIMATE, f.finding() + "; estimate: what brings the peak to " + Math.round(TPU_FILL * 100) + "% of the "
                + Units.human(offered) + " offered (the what-if: " + Units.human(f.saves()) + "): XLA:TPU spends memory a program"
                + " does not need on prefetches and fewer recomputations, and real training steps changed just enough to fit"
                + " peaked at 89% to 92.4% of their offer, where the what-if's schedule gave two of them 65% and 74%");
    }

    /** The figure of a change of the target allocation (measured by a what-if, or by {@code fit} with no edits). */
    static Figure of(HloModule m, Advice.Change c) {
        if (!c.edits().isEmpty() && ShardRule.NAME.equals(c.change())) return sharded(m, c.values(), c.saves());
        return new Figure(c.saves(), c.figure(), "");
    }

    static Figure of(HloModule m, Advice a, long whatifSaves) {
        if (ShardRule.NAME.equals(a.rule())) return sharded(m, a.values(), whatifSaves);
        if (OffloadRule.NAME.equals(a.rule())) {   // a remat edit, but nothing is recomputed
            if (!"cpu".equals(m.info().backend())) return new Figure(whatifSaves, BOUND, "");
            // XLA:CPU's "device" is the host: an offload to host memory frees none of it
            return new Figure(0, BOUND, "; on XLA:CPU the device is the host, so an offload frees nothing (the what-if's "
                    + Units.human(whatifSaves) + " is what a GPU or TPU build's device memory would save at most)");
        }
        if (!a.edits().isEmpty() && a.edits().get(0) instanceof Edit.Drop)   // not made at all: the best case of any rewrite
            return new Figure(whatifSaves, BOUND, "");
        if (AttentionRule.NAME.equals(a.rule()) && "tpu".equals(m.info().backend()))
            return new Figure((long) (whatifSaves * share(m, a.rule(), false)), ESTIMATE, "; " + ATTENTION_TPU_ERROR);
        if (!remat(a)) return new Figure(whatifSaves, EXACT, "");
        if (ScanRematRule.NAME.equals(a.rule())) {
            // a loop keeps each recomputation in its iteration, on every backend: the what-if's figure,
            // cut to the least share of it the real builds delivered
            long saves = (long) (whatifSaves * share(m, a.rule(), true));
            return new Figure(saves, ESTIMATE, "; " + SCAN_ERROR);
        }
        if ("tpu".equals(m.info().backend()) && (a.rule().equals("activations") || a.rule().equals("remat-policy")))
            return new Figure(whatifSaves, ESTIMATE, "; XLA:TPU schedules each recomputation next to its use: a real"
                    + " jax.checkpoint-per-layer build of a training step saved more than its what-if (peak 6.98 -> 1.82 GiB,"
                    + " memory_analysis)");
        if (!"cpu".equals(m.info().backend()))
            return new Figure(whatifSaves, ESTIMATE, "; a jax.checkpoint build saves this only where each"
                    + " recomputation is scheduled next to its use (the figure is the what-if's bound)");
        return new Figure(0, ESTIMATE, "; on XLA:CPU a jax.checkpoint build does not"
                + " save this: its recomputations are scheduled together and live at the new peak (the what-if's "
                + Units.human(whatifSaves) + " assumes each comes just before its use); what helps: a memory-efficient"
                + " attention or a loop over chunks where these are attention scores, offloading the residuals to host"
                + " on a GPU or TPU (the offload row), bf16 (estimate 0 B; " + CPU_ERROR + ")");
    }
}
