package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Tiling padding of the values live at the peak, by shape, where a shape pads 1% of the peak or more. */
final class PaddingRule implements Rule {
    static final double SHARE = 0.01;

    @Override public String name() { return "padding"; }

    @Override public String description() {
        return "shapes whose tiling padding at the peak is at least 1% of it; saving if they were not padded";
    }

    @Override public List<Advice> find(Facts f) {
        Map<String, List<HloValue>> byShape = new LinkedHashMap<>();
        for (HloValue v : f.atPeak()) {
            if (v.shape() == null || !v.shape().isArray() || v.size() <= v.logicalSize()) continue;
            byShape.computeIfAbsent(v.shape().text(), k -> new ArrayList<>()).add(v);
        }
        List<Advice> out = new ArrayList<>();
        for (Map.Entry<String, List<HloValue>> e : byShape.entrySet()) {
            List<HloValue> vs = e.getValue();
            long pad = 0;
            for (HloValue v : vs) pad += v.size() - v.logicalSize();
            if (pad < SHARE * f.peakBytes()) continue;
            long logical = vs.get(0).logicalSize();   // one shape, one logical size
            out.add(new Advice(name(), vs.size() + " x " + e.getKey() + " padded from " + logical + " bytes: change the layout or the dims",
                    Edit.Resize.of(Facts.byId(vs), logical), vs));
        }
        return out;
    }
}
