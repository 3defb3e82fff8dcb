package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.model.HloInstruction;
import bufq.model.HloUse;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.List;

/**
 * Large f32 buffers live at the peak: bf16 candidates, and what halving them would save. On XLA:CPU
 * a bf16 dot is computed in f32: the compiler converts its operands up and its result down around
 * it, so a dot's f32 operands and results stay f32 and bf16 copies come beside them (a real bf16
 * build of a dot-heavy program grew by 1.6 GiB). There the values a dot makes or reads are left
 * out, and said.
 */
final class HalfPrecisionRule implements Rule {
    /** A buffer counts as large from this share of the peak. */
    static final double SHARE = 0.01;

    static final String NAME = "f32";

    @Override public String name() { return NAME; }

    @Override public String description() {
        return "f32 values live at the peak, each at least 1% of it: bf16 candidates (on XLA:CPU not a dot's operands or"
                + " results, which it computes in f32); saving if each were halved";
    }

    @Override public List<Advice> find(Facts f) {
        boolean cpu = "cpu".equals(f.module().info().backend());
        List<HloValue> big = new ArrayList<>();
        int dots = 0, kept = 0;
        for (HloValue v : f.atPeak()) {
            if (v.size() < SHARE * f.peakBytes()) break;   // largest first
            if (v.shape() == null || !"f32".equals(v.shape().dtype())) continue;
            if (cpu && dotBound(f, v)) {
                dots++;
                continue;
            }
            if (!cpu && keptInF32(f, v)) {
                kept++;
                continue;
            }
            big.add(v);
        }
        if (big.isEmpty()) return List.of();
        return List.of(new Advice(name(), big.size() + " large f32 " + (big.size() == 1 ? "buffer is" : "buffers are")
                + " live at the peak: bf16 would halve them" + (dots == 0 ? "" : " (" + dots + " more made or read by a dot are"
                + " left out: XLA:CPU computes bf16 dots in f32, converting around each)")
                + (kept == 0 ? "" : " (" + kept + " more made by a dot or in a softmax are left out: mixed precision keeps"
                + " those in f32 on purpose)"),
                List.of(Edit.Scale.of(Facts.byId(big), 0.5)), big, 0, null, Advice.Effect.LOWERS_PRECISION));
    }

    /**
     * Whether a dot makes {@code v} in f32, or it is a softmax's (a step of one, or scores it reads): what mixed precision keeps in f32 on
     * purpose (a dot's f32 accumulation, the softmax's upcast), so a bf16 build does not halve it. On
     * the TPU corpus's training step, whose f32 values at the peak are such, a bf16 build of the
     * parameters lowered the peak by 0.28 GiB, far from half of them.
     */
    static boolean keptInF32(Facts f, HloValue v) {
        HloInstruction i = f.module().instruction(v.name());
        return dot(i) || AttentionRule.softmaxStep(i) || AttentionRule.square(v) != null && AttentionRule.attention(f, v);
    }

    /** Whether a dot makes or reads {@code v} (a dot, a fusion rooted at one, a matmul call). */
    static boolean dotBound(Facts f, HloValue v) {
        if (dot(f.module().instruction(v.name()))) return true;
        for (HloUse u : v.uses()) if (dot(f.module().instruction(u.user()))) return true;
        return false;
    }

    private static boolean dot(HloInstruction i) {
        if (i == null) return false;
        String op = i.opcode() == null ? "" : i.opcode();
        if (op.equals("dot") || op.equals("convolution")) return true;
        String n = i.opName() == null ? "" : i.opName();
        if (n.endsWith("dot_general") || n.endsWith("conv_general_dilated")) return true;
        return op.equals("custom-call") && i.attributes() != null && i.attributes().contains("matmul");
    }
}
