package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.units.Units;
import bufq.model.HloInstruction;
import bufq.model.HloUse;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Attention scores held whole, found by their dataflow: a {@code [..., s, s]} value (s at least
 * {@link #MIN_SEQUENCE}) made or read by a product of two sequences (an einsum such as
 * {@code bqhd,bkhd->bhqk}, or {@code bhqk,bkhd->bqhd} reading one) or by a softmax's steps
 * ({@code exp}, {@code reduce_max}, {@code softmax}, {@code logsumexp}). A stack of square weights
 * ({@code [24, 2048, 2048]}) is neither. Every value of the scores' shape is counted, at the peak or
 * not (the probabilities, their gradient: an edit of the ones live at the peak alone moves the peak
 * a step), measured as all of them cut to one of {@link #CHUNKS} query blocks.
 */
final class AttentionRule implements Rule {
    /** Query blocks the measured change computes the scores in. */
    static final int CHUNKS = 8;
    /** The shortest sequence whose scores count: below it attention is not what fills memory. */
    static final long MIN_SEQUENCE = 128;

    private static final Pattern SOFTMAX = Pattern.compile("(^|[/(])(exp|reduce_max|softmax|logsumexp)($|[/)])");
    private static final Pattern EINSUM = Pattern.compile("([a-z]+),([a-z]+)->([a-z]+)");

    static final String NAME = "attention";

    @Override public String name() { return NAME; }

    @Override public String description() {
        return "[.., s, s] scores of a product of two sequences or a softmax; saving if computed " + CHUNKS + " query blocks at a time";
    }

    @Override public List<Advice> find(Facts f) {
        // the shapes (dtype aside: f32 scores and their bf16 twins) the dataflow says are scores
        Set<String> scoreShapes = new LinkedHashSet<>();
        for (HloValue v : f.atPeak()) {
            String key = square(v);
            if (key != null && !scoreShapes.contains(key) && attention(f, v)) scoreShapes.add(key);
        }
        if (scoreShapes.isEmpty()) return List.of();
        Set<Long> live = new HashSet<>();
        for (HloValue v : f.atPeak()) live.add(v.id());
        List<HloValue> scores = new ArrayList<>();
        long bytes = 0;
        for (HloValue v : f.module().values()) {
            String key = square(v);
            if (key == null || !scoreShapes.contains(key)) continue;
            scores.add(v);
            if (live.contains(v.id())) bytes += v.size();
        }
        scores.sort((a, b) -> Long.compare(b.size(), a.size()));
        HloValue first = scores.get(0);
        return List.of(new Advice(name(), scores.size() + " attention score arrays like " + first.shape().text() + " ("
                + Units.human(bytes) + " of them live at the peak) are made whole: compute attention a block of queries at a"
                + " time (a flash-attention kernel, or lax.map over " + CHUNKS + " query blocks under jax.checkpoint) so one"
                + " block's scores are live at once; jax.nn.dot_product_attention's default XLA implementation makes them whole",
                Edit.Scale.of(Facts.byId(scores), 1.0 / CHUNKS), scores));
    }

    /** {@code [lead..., s, s]} without dtype and layout, for s at least {@link #MIN_SEQUENCE}; null otherwise. */
    static String square(HloValue v) {
        if (v.shape() == null || v.shape().isTuple() || v.shape().rank() < 3) return null;
        int r = v.shape().rank();
        long q = v.shape().dim(r - 2), k = v.shape().dim(r - 1);
        return q == k && k >= MIN_SEQUENCE ? Arrays.toString(v.shape().dims()) : null;
    }

    /** Whether the instruction making {@code v}, or one reading it, is a softmax step or a product of two sequences. */
    static boolean attention(Facts f, HloValue v) {
        if (scoresOp(f.module().instruction(v.name()))) return true;
        for (HloUse u : v.uses()) if (scoresOp(f.module().instruction(u.user()))) return true;
        return false;
    }

    /** Whether {@code i} is a softmax's step ({@code exp}, {@code reduce_max}, {@code softmax}, {@code logsumexp}). */
    static boolean softmaxStep(HloInstruction i) {
        return i != null && i.opName() != null && SOFTMAX.matcher(i.opName()).find();
    }

    private static boolean scoresOp(HloInstruction i) {
        if (i == null || i.opName() == null) return false;
        if (SOFTMAX.matcher(i.opName()).find()) return true;
        Matcher m = EINSUM.matcher(i.opName());
        return m.find() && sequencePair(m.group(1), m.group(2), m.group(3));
    }

    /**
     * Whether an einsum makes or reads an s-by-s product of two sequences: its inputs are the same
     * kind of tensor but for one axis ({@code bqhd,bkhd}: queries and keys) and the output ends with
     * those two axes ({@code bhqk}); or it reads such scores against values ({@code bhqk,bkhd->bqhd}:
     * the values and the output differ in that one axis, and the scores end with it and the one
     * contracted). A projection ({@code btd,df->btf}) is neither.
     */
    static boolean sequencePair(String a, String b, String out) {
        int i = oneApart(a, b);
        if (i >= 0 && a.length() >= 3 && out.length() >= 2) {
            char x = a.charAt(i), y = b.charAt(i), p = out.charAt(out.length() - 2), q = out.charAt(out.length() - 1);
            if (p == x && q == y || p == y && q == x) return true;
        }
        return readsPair(a, b, out) || readsPair(b, a, out);
    }

    private static boolean readsPair(String in, String other, String out) {
        int i = oneApart(other, out);
        if (i < 0 || in.length() < 3) return false;
        // the scores' leading axes are batch axes (batch, heads) the values share: a plain matmul has none
        for (int k = 0; k < in.length() - 2; k++) if (other.indexOf(in.charAt(k)) < 0) return false;
        return in.charAt(in.length() - 2) == out.charAt(i) && in.charAt(in.length() - 1) == other.charAt(i);
    }

    /** The one position where two terms of equal length differ, or -1. */
    private static int oneApart(String a, String b) {
        if (a.length() != b.length()) return -1;
        int at = -1;
        for (int i = 0; i < a.length(); i++) {
            if (a.charAt(i) == b.charAt(i)) continue;
            if (at >= 0) return -1;
            at = i;
        }
        return at;
    }

}
