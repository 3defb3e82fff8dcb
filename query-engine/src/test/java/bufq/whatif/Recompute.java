package bufq.whatif;

import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.Query;
import bufq.lang.QueryException;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloUse;
import bufq.model.HloValue;
import bufq.model.TilingModel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The what-if semantics written out again, plainly, for tests: edits applied to a list of byte
 * segments, and occupancy summed step by step by merging each allocation's intervals. Shares no
 * code with {@link WhatIf} or the module's liveness sweep.
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

    /** Applies {@code edits} in order, as the whatif documentation describes them. */
    static List<Segment> apply(HloModule m, List<Edit> edits) throws QueryException {
        List<Segment> segs = of(m);
        Map<HloValue, Segment> first = new IdentityHashMap<>();
        for (Segment s : segs) first.put(s.value, s);
        int peak = peakTime(m, of(m));
        for (Edit e : edits) {
            if (e instanceof Edit.Tiling t) {
                TilingModel model = "none".equals(t.name()) ? TilingModel.NONE : TilingModel.TPU;
                for (Segment s : segs) {
                    HloValue v = s.value;
                    if (s.size > 0 && v.shape() != null && v.shape().isArray() && v.logicalSize() > 0)
                        s.size = model.paddedBytes(v.shape());
                }
                continue;
            }
            List<HloValue> chosen = new ArrayList<>();
            if (e instanceof Edit.Donate d && d.parameter() != null) chosen.addAll(m.valuesNamed(d.parameter()));
            else for (Object o : Query.compile("values where " + e.where().condition(), Catalog.standard()).select(new EvalContext(m))) chosen.add((HloValue) o);
            for (HloValue v : chosen) {
                Segment s = first.get(v);
                int last = -1;
                List<Integer> uses = new ArrayList<>();
                for (HloUse u : v.uses()) {
                    int t = m.timeOf(u.user());
                    last = Math.max(last, t);
                    if (t >= 0) uses.add(t);
                }
                if (e instanceof Edit.Drop) s.size = 0;
                else if (e instanceof Edit.Scale x) s.size = Math.round(s.size * x.factor());
                else if (e instanceof Edit.Resize x) s.size = x.bytes();
                else if (e instanceof Edit.End x) {
                    int at = x.atLastUse() ? last : x.instruction() != null ? m.timeOf(x.instruction()) : (int) x.step();
                    if (at >= 0 && s.end >= s.start && at < s.end) s.end = Math.max(at, s.start);
                } else if (e instanceof Edit.Donate) {
                    BufferAllocation a = m.allocation(v.allocation());
                    int at = Math.max(last, s.start);
                    if (a != null && a.isParameter() && s.end >= s.start && at < s.end) s.end = at;
                } else if (e instanceof Edit.Remat) {
                    if (s.start > peak || s.end < peak) continue;
                    int before = s.start;
                    Integer after = null;
                    for (int t : uses) {
                        if (t <= peak) before = Math.max(before, t);
                        else if (after == null || t < after) after = t;
                    }
                    if (before >= peak) continue;
                    if (after != null && after <= s.end) segs.add(new Segment(v, s.size, after, s.end));
                    s.end = before;
                }
            }
        }
        return segs;
    }

    /** Occupied bytes at each step: per allocation, the union of the live segments' byte ranges. */
    static long[] occupancy(HloModule m, List<Segment> segs) {
        long[] out = new long[m.steps()];
        for (int t = 0; t < out.length; t++) {
            Map<Integer, List<long[]>> byAlloc = new TreeMap<>();
            long loose = 0;
            for (Segment s : segs) {
                if (s.size <= 0 || s.start > t || s.end < t) continue;
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
