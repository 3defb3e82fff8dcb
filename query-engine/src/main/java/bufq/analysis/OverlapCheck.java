package bufq.analysis;

import bufq.model.BufferAllocation;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.Module;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code overlap}: two values of one allocation whose byte ranges intersect while both are live.
 * A hand-over, where an instruction's output takes its dying operand's bytes so the two ranges
 * touch at exactly one step (one ends where the other starts), is how XLA reuses memory, not a
 * conflict. Values without a live range cannot be judged and are skipped.
 */
final class OverlapCheck implements CheckRule {
    static final int MAX_FINDINGS = 100;

    @Override public String name() { return "overlap"; }

    @Override public void run(Module m, Reporter r) {
        int found = 0;
        for (BufferAllocation a : m.allocations()) {
            List<HloValue> vs = new ArrayList<>();
            for (HloValue v : m.valuesIn(a.index())) if (v.range() != null && v.size() > 0) vs.add(v);
            vs.sort(Comparator.comparingLong(HloValue::offset));
            // Sweep by offset: only values starting before the current one's end can intersect it.
            for (int i = 0; i < vs.size(); i++) {
                HloValue x = vs.get(i);
                long xEnd = x.offset() + x.size();
                for (int j = i + 1; j < vs.size() && vs.get(j).offset() < xEnd; j++) {
                    HloValue y = vs.get(j);
                    if (!conflict(x.range(), y.range())) continue;
                    if (++found <= MAX_FINDINGS) {
                        r.error(x.label(), "bytes [" + x.offset() + ", " + xEnd + ") live " + x.range() + " overlap "
                                + y.label() + " bytes [" + y.offset() + ", " + (y.offset() + y.size()) + ") live "
                                + y.range() + " in allocation " + a.index() + " at steps " + both(x.range(), y.range()));
                    }
                }
            }
        }
        if (found > MAX_FINDINGS) r.error(m.handle(), (found - MAX_FINDINGS) + " more overlapping pairs not listed");
    }

    /** Live at a common step, other than a one-step hand-over. */
    static boolean conflict(LiveRange a, LiveRange b) {
        int from = Math.max(a.start(), b.start()), to = Math.min(a.end(), b.end());
        if (from > to) return false;
        boolean touch = from == to && (a.end() == b.start() || b.end() == a.start());
        return !touch;
    }

    private static String both(LiveRange a, LiveRange b) {
        int from = Math.max(a.start(), b.start()), to = Math.min(a.end(), b.end());
        return from == to ? Integer.toString(from) : from + "-" + to;
    }
}
