package bufq.analysis.whatif;

import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.Query;
import bufq.lang.QueryException;
import bufq.analysis.liveness.Steps;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloUse;
import bufq.model.HloValue;
import bufq.model.TilingModel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.OptionalInt;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The what-if semantics written out again, plainly, for tests: edits applied to a list of byte
 * segments, and occupancy summed step by step by merging each allocation's intervals. Shares no
 * code with {@link EditSweep} or the module's liveness sweep.
 */
final class Recompute {
    /** One live piece: bytes {@code [offset, offset + size)} of an allocation over steps {@code start..end}. */
    static final class Segment {
        final HloValue value;
        long size;
        int start, end;

        Segment(HloValue v, long size, int start, int end) {
            this.value = v;
            this.size = size;
            this.start = start;
            this.end = end;
        }
    }

    private Recompute() {}

    static List<Segment> of(HloModule m) {
        List<Segment> out = new ArrayList<>();
        for (HloValue v : m.values()) out.add(new Segment(v, v.size(), v.hasRange() ? v.rangeStart() : 0, v.hasRange() ? v.rangeEnd() : -1));
        return out;
    }

    /** Applies {@code edits} in order, as the whatif documentation describes them; {@code tiling none} and {@code tpu} only. */
    static List<Segment> apply(HloModule m, List<Edit> edits) throws QueryException {
        return apply(m, edits, n -> "none".equals(n) ? TilingModel.NONE : "tpu".equals(n) ? TilingModel.TPU : null);
    }

    /**
     * Applies {@code edits} in order, as the whatif documentation describes them. A value is the
     * list of its segments (two after {@code remat}); every edit applies to all of them.
     */
    static List<Segment> apply(HloModule m, List<Edit> edits, Function<String, TilingModel> tilings) throws QueryException {
        List<Segment> segs = of(m);
        Map<HloValue, List<Segment>> parts = new IdentityHashMap<>();
        for (Segment s : segs) parts.computeIfAbsent(s.value, k -> new ArrayList<>()).add(s);
        int peak = peakTime(m, of(m));
        for (Edit e : edits) {
            if (e instanceof Edit.Tiling t) {
                TilingModel model = tilings.apply(t.name());
                for (Segment s : segs) {
                    HloValue v = s.value;
                    if (s.size > 0 && v.shape() != null && v.shape().isArray() && v.logicalSize() > 0) {
                        // the value as held (a TPU thread-local scalar takes 4 KiB), times what earlier edits scaled it by
                        double ratio = v.size() > 0 ? (double) s.size / v.size() : 1.0;
                        s.size = Math.round(model.paddedBytes(v, m) * ratio);
                    }
                }
                continue;
            }
            List<HloValue> chosen = new ArrayList<>();
            if (e instanceof Edit.Donate d && d.parameter() != null) chosen.addAll(m.valuesNamed(d.parameter()));
            else for (Object o : Query.compile("values where " + e.where().condition(), Catalog.standard()).select(new EvalContext(m))) chosen.add((HloValue) o);
            for (HloValue v : chosen) {
                List<Segment> mine = parts.get(v);
                Segment s = mine.get(0);
                int last = -1;
                List<Integer> uses = new ArrayList<>();
                for (HloUse u : v.uses()) {
                    int t = m.timeOf(u.user());
                    last = Math.max(last, t);
                    if (t >= 0) uses.add(t);
                }
                if (e instanceof Edit.Drop) for (Segment p : mine) p.size = 0;
                else if (e instanceof Edit.Scale x) for (Segment p : mine) p.size = Math.round(p.size * x.factor());
                else if (e instanceof Edit.Resize x) for (Segment p : mine) p.size = x.bytes();
                else if (e instanceof Edit.End x) {
                    int at = x.atLastUse() ? last : x.instruction() != null ? m.timeOf(x.instruction()) : (int) x.step();
                    if (at >= 0) cut(segs, mine, at);
                } else if (e instanceof Edit.Donate) {
                    BufferAllocation a = m.allocation(v.allocation());
                    if (a != null && a.isParameter()) cut(segs, mine, Math.max(last, s.start));
                } else if (e instanceof Edit.Remat) {
                    if (mine.size() > 1 || s.start > peak || s.end < peak) continue;
                    int before = s.start;
                    Integer after = null;
                    for (int t : uses) {
                        if (t <= peak) before = Math.max(before, t);
                        else if (after == null || t < after) after = t;
                    }
                    if (before >= peak) continue;
                    if (after != null && after <= s.end) {
                        Segment back = new Segment(v, s.size, after, s.end);
                        segs.add(back);
                        mine.add(back);
                    }
                    s.end = before;
                }
            }
        }
        return segs;
    }

    /**
     * The value ends at step {@code at}: nothing of it is live after {@code at}. Its first segment
     * keeps at least its first step (a range never ends before it starts); a later segment starting
     * after {@code at} is gone.
     */
    private static void cut(List<Segment> segs, List<Segment> mine, int at) {
        for (int k = mine.size() - 1; k >= 0; k--) {
            Segment p = mine.get(k);
            if (p.end < p.start || at >= p.end) continue;
            if (at >= p.start) p.end = at;
            else if (k == 0) p.end = p.start;
            else {
                segs.remove(p);
                mine.remove(k);
            }
        }
    }

    /** Occupied bytes at each step: per allocation, the union of the live segments' byte ranges. */
    static long[] occupancy(HloModule m, List<Segment> segs) {
        long[] out = new long[m.steps()];
        // the device memory's (colour 0) where the module has other memory spaces, as Liveness counts
        int space = Steps.spaceFilter(m, OptionalInt.empty());
        for (int t = 0; t < out.length; t++) {
            Map<Integer, List<long[]>> byAlloc = new TreeMap<>();
            long loose = 0;
            for (Segment s : segs) {
                if (s.size <= 0 || s.start > t || s.end < t || space >= 0 && s.value.color() != space) continue;
                if (s.value.offset() < 0) loose += s.size;
                else byAlloc.computeIfAbsent(s.value.allocation(), k -> new ArrayList<>()).add(new long[] {s.value.offset(), s.value.offset() + s.size});
            }
            long sum = loose;
            for (List<long[]> iv : byAlloc.values()) {
                iv.sort(Comparator.comparingLong(a -> a[0]));
                long curS = -1, curE = -1;
                for (long[] a : iv) {
                    if (a[0] > curE) {
                        sum += curE - curS;
                        curS = a[0];
                        curE = a[1];
                    } else {
                        curE = Math.max(curE, a[1]);
                    }
                }
                sum += curE - curS;
            }
            out[t] = sum;
        }
        return out;
    }

    static int peakTime(HloModule m, List<Segment> segs) {
        long[] o = occupancy(m, segs);
        int best = -1;
        for (int t = 0; t < o.length; t++) if (best < 0 || o[t] > o[best]) best = t;
        return best;
    }
}
