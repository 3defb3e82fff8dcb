package bufq.whatif;

import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.Query;
import bufq.lang.Diagnostic;
import bufq.lang.QueryException;
import bufq.model.BufferAllocation;
import bufq.model.DumpPart;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.Liveness;
import bufq.model.TilingModel;
import bufq.model.UseSchedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Applies edits to a copy of a module's live ranges and sizes and recomputes occupancy and the peak
 * with the same sweep as the module's own ({@link Liveness#compute}). The loaded module is never
 * changed. A what-if moves ranges and sizes under the current schedule and offsets: XLA's scheduler
 * and buffer assignment are not re-run, so its figures bound what a change could save. Edits change
 * assigned sizes, which occupancy counts; live (logical) bytes stay those of the values' shapes,
 * except for dropped values, which are gone.
 */
public final class WhatIf {
    private final HloModule module;
    private final EvalContext ctx;
    private final Catalog catalog;
    private final Function<String, TilingModel> tilings;
    private final Liveness before;
    private final int steps;
    private Map<HloValue, Integer> positions;   // built on first selection

    // The edited copy: one entry per value, then the second parts of rematerialised values.
    private final int n;
    private int[] allocation, color, start, end, owner;
    private long[] offset, size, logical;
    private int entries;

    private WhatIf(HloModule m, Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings) {
        this.module = m;
        this.ctx = new EvalContext(m, tiling);
        this.catalog = catalog;
        this.tilings = tilings;
        this.before = m.liveness();
        this.steps = m.steps();
        Liveness.Inputs in = Liveness.Inputs.of(m);
        n = m.values().size();
        allocation = in.allocation();
        color = in.color();
        offset = in.offset();
        size = in.size();
        logical = in.logicalSize();
        start = in.start();
        end = in.end();
        owner = new int[n];
        for (int i = 0; i < n; i++) owner[i] = i;
        entries = n;
    }

    /**
     * Applies {@code edits} in order and recomputes after each.
     *
     * @param catalog  the fields {@code where} conditions may use (scripts' fields included)
     * @param tiling   the tiling model conditions on {@code padded_size} see
     * @param tilings  tiling models by name for {@code tiling NAME}; null for an unknown name
     * @throws QueryException a condition that does not compile or run, a name the module lacks; the
     *                        span is an offset in the whatif statement
     */
    public static Outcome run(HloModule m, List<Edit> edits, Catalog catalog, TilingModel tiling,
                              Function<String, TilingModel> tilings) throws QueryException {
        if (m.steps() == 0 || m.liveness().peakTime() < 0)
            throw new QueryException(0, 1, m.handle() + " has no live ranges, so there is no peak to change");
        WhatIf w = new WhatIf(m, catalog, tiling, tilings);
        List<Outcome.Effect> effects = new ArrayList<>();
        Liveness now = w.before;
        for (Edit e : edits) {
            int[] chosen = w.apply(e);
            long bytes = 0;
            for (int i : chosen) bytes = Math.addExact(bytes, m.values().get(i).size());
            Liveness next = w.liveness();
            effects.add(new Outcome.Effect(e, chosen.length, bytes, next.peakBytes(), now.peakBytes() - next.peakBytes()));
            now = next;
        }
        return new Outcome(m, w.before, now, effects, w.editedRanges());
    }

    private Liveness liveness() {
        Liveness.Inputs in = new Liveness.Inputs(Arrays.copyOf(allocation, entries), Arrays.copyOf(color, entries),
                Arrays.copyOf(offset, entries), Arrays.copyOf(size, entries), Arrays.copyOf(logical, entries),
                Arrays.copyOf(start, entries), Arrays.copyOf(end, entries));
        return Liveness.compute(steps, in, before.claimedPeakTime());
    }

    /** For each entry: the value it belongs to and its range after the edits (an end before the start: not live). */
    private Outcome.Ranges editedRanges() {
        return new Outcome.Ranges(Arrays.copyOf(owner, entries), Arrays.copyOf(start, entries), Arrays.copyOf(end, entries),
                Arrays.copyOf(size, entries));
    }

    /** Applies one edit; returns the positions (in the module's values) it selected. */
    private int[] apply(Edit e) throws QueryException {
        if (e instanceof Edit.Tiling t) return retile(t);
        int[] chosen = e instanceof Edit.Donate d && d.parameter() != null ? parameter(d) : select(e.where());
        for (int i : chosen) {
            HloValue v = module.values().get(i);
            if (e instanceof Edit.Drop) {
                size[i] = 0;
                logical[i] = 0;
                end[i] = start[i] - 1;
            } else if (e instanceof Edit.End x) {
                long at = x.atLastUse() ? UseSchedule.lastUse(module, v) : x.instruction() != null ? timeOf(x) : x.step();
                if (at >= 0) shorten(i, (int) Math.min(at, Integer.MAX_VALUE));
            } else if (e instanceof Edit.Donate) {
                BufferAllocation a = module.allocation(v.allocation());
                if (a != null && a.isParameter()) shorten(i, Math.max(UseSchedule.lastUse(module, v), start[i]));
            } else if (e instanceof Edit.Scale x) {
                size[i] = Math.round(size[i] * x.factor());
            } else if (e instanceof Edit.Resize x) {
                size[i] = x.bytes();
            } else if (e instanceof Edit.Remat) {
                remat(i, v);
            }
        }
        return chosen;
    }

    /** Ends entry {@code i} at {@code t} if that is earlier; a range never grows and never ends before it starts. */
    private void shorten(int i, int t) {
        if (end[i] >= start[i] && t < end[i]) end[i] = Math.max(t, start[i]);
    }

    /**
     * Removes the idle stretch around the peak from the value's range ({@link UseSchedule#idleAt}):
     * it lives until the step before that stretch and again from the step after it, when it is read
     * again. A value read at the peak, or not live there, is left as it is.
     */
    private void remat(int i, HloValue v) {
        int peak = before.peakTime();
        if (!(start[i] <= peak && peak <= end[i])) return;
        UseSchedule.Stretch idle = UseSchedule.idleAt(module, v, peak);
        if (idle == null) return;
        int oldEnd = end[i];
        end[i] = Math.max(start[i], idle.from() - 1);
        if (idle.to() < oldEnd) {
            int k = grow();
            allocation[k] = allocation[i];
            color[k] = color[i];
            offset[k] = offset[i];
            size[k] = size[i];
            logical[k] = logical[i];
            start[k] = idle.to() + 1;
            end[k] = oldEnd;
            owner[k] = owner[i];
        }
    }

    private int grow() {
        if (entries == allocation.length) {
            int cap = entries + Math.max(16, entries / 8);
            allocation = Arrays.copyOf(allocation, cap);
            color = Arrays.copyOf(color, cap);
            offset = Arrays.copyOf(offset, cap);
            size = Arrays.copyOf(size, cap);
            logical = Arrays.copyOf(logical, cap);
            start = Arrays.copyOf(start, cap);
            end = Arrays.copyOf(end, cap);
            owner = Arrays.copyOf(owner, cap);
        }
        return entries++;
    }

    private int[] retile(Edit.Tiling t) throws QueryException {
        TilingModel model = tilings.apply(t.name());
        if (model == null) throw new QueryException(t.offset(), t.offset() + t.name().length(), "unknown tiling model '" + t.name() + "'");
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
            HloValue v = module.values().get(i);
            if (size[i] <= 0 || v.shape() == null || !v.shape().isArray() || v.logicalSize() <= 0) continue;
            // Earlier edits scaled the value: keep their ratio on the new model's size.
            size[i] = Math.round(model.paddedBytes(v, module) * (v.size() > 0 ? (double) size[i] / v.size() : 1.0));
        }
        return all;
    }

    private long timeOf(Edit.End x) throws QueryException {
        int t = module.timeOf(x.instruction());
        if (t < 0) {
            throw new QueryException(x.targetOffset(), x.targetOffset() + x.instruction().length(),
                    "no scheduled instruction '" + x.instruction() + "' in " + module.handle());
        }
        return t;
    }

    private int[] parameter(Edit.Donate d) throws QueryException {
        List<HloValue> vs = module.valuesNamed(d.parameter());
        int at = d.parameterOffset();
        if (vs.isEmpty()) throw new QueryException(at, at + d.parameter().length(), "no value named '" + d.parameter() + "' in " + module.handle());
        List<Integer> out = new ArrayList<>();
        for (HloValue v : vs) {
            BufferAllocation a = module.allocation(v.allocation());
            if (a == null || !a.isParameter())
                throw new QueryException(at, at + d.parameter().length(), "'" + d.parameter() + "' is not an entry parameter (its allocation "
                        + v.allocation() + " is " + (a == null ? "unknown" : a.kind()) + ")");
            out.add(position(v));
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The dump parts a what-if reads beyond the allocation section and the live ranges: its
     * conditions' (as their compilation says), the uses behind {@code last_use}, {@code donate} and
     * {@code remat}, and everything when a query follows (the edited copy carries positions, uses
     * and instructions). A condition that does not compile needs nothing (running it fails first).
     */
    public static Set<DumpPart> needs(List<Edit> edits, String query, Catalog catalog) {
        Set<DumpPart> out = EnumSet.noneOf(DumpPart.class);
        if (query != null) out.add(DumpPart.USED_VALUES);
        for (Edit e : edits) {
            if (e instanceof Edit.Remat || e instanceof Edit.Donate || e instanceof Edit.End x && x.atLastUse()) {
                out.add(DumpPart.USED_VALUES);
            }
            if (e.where() == null) continue;
            try {
                out.addAll(Query.compile(PREFIX + e.where().condition(), catalog).needs());
            } catch (QueryException ignored) {
                // reported when the what-if runs
            }
        }
        return out;
    }

    private static final String PREFIX = "values where ";

    /** Positions of the values {@code where} selects, in module order. */
    private int[] select(Edit.Where w) throws QueryException {
        List<Object> rows;
        try {
            rows = Query.compile(PREFIX + w.condition(), catalog).select(ctx);
        } catch (QueryException e) {
            int shift = w.offset() - PREFIX.length();
            var d = e.diagnostic();
            int s = Math.max(w.offset(), d.start() + shift), t = Math.max(s + 1, d.end() + shift);
            throw new QueryException(new Diagnostic(s, t, d.message(), d.suggestions()));
        }
        int[] out = new int[rows.size()];
        for (int k = 0; k < out.length; k++) out[k] = position((HloValue) rows.get(k));
        Arrays.sort(out);
        return out;
    }

    private int position(HloValue v) {
        if (positions == null) {
            positions = new IdentityHashMap<>(n * 2);
            for (int i = 0; i < n; i++) positions.put(module.values().get(i), i);
        }
        return positions.get(v);
    }
}
