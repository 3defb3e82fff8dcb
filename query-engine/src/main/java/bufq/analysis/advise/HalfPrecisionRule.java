package bufq.analysis.advise;

import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.List;

/** Large f32 buffers live at the peak: bf16 candidates, and what halving them would save. */
final class HalfPrecisionRule implements Rule {
    /** A buffer counts as large from this share of the peak. */
    static final double SHARE = 0.01;

    @Override public String name() { return "f32"; }

    @Override public String description() {
        return "f32 values live at the peak, each at least 1% of it: bf16 candidates; saving if each were halved";
    }

    @Override public List<Advice> find(Facts f) {
        List<HloValue> big = new ArrayList<>();
        for (HloValue v : f.atPeak()) {
            if (v.size() < SHARE * f.peakBytes()) break;   // largest first
            if (v.shape() != null && "f32".equals(v.shape().dtype())) big.add(v);
        }
        if (big.isEmpty()) return List.of();
        return List.of(new Advice(name(), big.size() + " large f32 " + (big.size() == 1 ? "buffer is" : "buffers are")
                + " live at the peak: bf16 would halve them", "scale where " + Facts.byId(big) + " by 0.5", big, 0));
    }
}
