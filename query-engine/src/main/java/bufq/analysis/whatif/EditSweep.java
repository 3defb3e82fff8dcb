package bufq.analysis.whatif;

import bufq.analysis.liveness.SweepInputs;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.Selection;
import bufq.lang.QueryException;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.analysis.liveness.Liveness;
import bufq.model.TilingModel;
import bufq.analysis.liveness.UseSchedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.BitSet;

/**
 * Applies edits to a copy of a module's live ranges and sizes and recomputes occupancy and the peak
 * with the same sweep as the module's own ({@link Liveness#compute}). The loaded module is never
 * changed. A what-if moves ranges and sizes under the current schedule and offsets: XLA's scheduler
 * and buffer assignment are not re-run, so its figures bound what a change could save. Edits change
 * assigned sizes, which occupancy counts; live (logical) bytes stay those of the values' shapes,
 * except for dropped values, which are gone.
 */
public final class EditSweep {
    private final HloModule module;
    private final EvalContext ctx;
    private final Function<Edit.Where, Selection> selections;
    private final Function<String, TilingModel> tilings;
    private final Liveness before;
    private final int steps;

    // The edited copy: one entry per value, then the second parts of rematerialised values.
    private final int n;
    private int[] allocation, color, start, end, owner;
    private long[] offset, size, logical;
    private int entries;
    private int[] second;   // per value, the entry of its second part once remat split it (-1: none); null before any remat

    private EditSweep(HloModule m, Function<Edit.Where, Selection> selections, TilingModel tiling, Function<String, TilingModel> tilings) {
        this.module = m;
        this.ctx = new EvalContext(m, tiling);
        this.selections = selections;
        this.tilings = tilings;
        this.before = Liveness.of(m);
        this.steps = m.steps();
        SweepInputs in = SweepInputs.of(m);
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
        return run(m, edits, w -> selection(w, catalog), tiling, tilings);
    }

    /**
     * As {@link #run(HloModule, List, Catalog, TilingModel, Function)}, each {@code where} selecting
     * through the selection {@code selections} gives for it: a caller that compiled its conditions
     * once (to say what they read, whether they wait for a script) runs them as compiled.
     */
    public static Outcome run(HloModule m, List<Edit> edits, Function<Edit.Where, Selection> selections, TilingModel tiling,
                              Function<String, TilingModel> tilings) throws QueryException {
        if (m.steps() == 0 || Liveness.of(m).peakTime() < 0)
            throw new QueryException(0, 1, m.handle() + " has no live ranges, so there is no peak to change");
        EditSweep w = new EditSweep(m, selections, tiling, tilings);
        List<Outcome.Effect> effects = new ArrayList<>();
        Liveness now = w.before;
        for (Edit e : edits) {
            int[] chosen = w.choose(e);
            long bytes = 0;
            for (int i : chosen) bytes = Math.addExact(bytes, m.values().get(i).size());
            Liveness next = w.applyAndSweep(e, chosen, now);
            effects.add(new Outcome.Effect(e, chosen.length, bytes, next.peakBytes(), now.peakBytes() - next.peakBytes()));
            now = next;
        }
        return new Outcome(m, w.before, now, effects, w.editedRanges());
    }

    /**
     * An edit selecting at most this share of the entries is swept again only in the allocations
     * it touches ({@link Liveness#patch}); a larger one (and {@code tiling}) sweeps everything.
     */
    private static final int PATCH_SHARE = 8;   // 1/8

    /**
     * Applies edit {@code e} to the values {@code chosen} and returns the liveness after it: the
     * allocations of the chosen values swept before and after the edit and patched into
     * {@code now} when they are few, else a full sweep.
     */
    private Liveness applyAndSweep(Edit e, int[] chosen, Liveness now) throws QueryException {
        int[] members = e instanceof Edit.Tiling || chosen.length > entries / PATCH_SHARE ? null : membersOfAllocations(chosen);
        if (members == null) {
            apply(e, chosen);
            SizeBounds.checkTotal(size, entries, e);
            return liveness();
        }
        SweepInputs was = inputs(members, members.length);
        int entriesBefore = entries;
        apply(e, chosen);
        SizeBounds.checkTotal(size, entries, e);
        int[] is = Arrays.copyOf(members, members.length + entries - entriesBefore);   // and the parts remat added
        for (int k = entriesBefore; k < entries; k++) is[members.length + k - entriesBefore] = k;
        return Liveness.patch(now, Liveness.compute(steps, was, -1), Liveness.compute(steps, inputs(is, is.length), -1));
    }

    /** Every entry held in an allocation that holds one of {@code chosen}; null when an allocation number is negative. */
    private int[] membersOfAllocations(int[] chosen) {
        BitSet touched = new BitSet();
        for (int i : chosen) {
            if (allocation[i] < 0) return null;
            touched.set(allocation[i]);
        }
        int[] out = new int[Math.min(entries, 16)];
        int c = 0;
        for (int k = 0; k < entries; k++) {
            if (allocation[k] < 0 || !touched.get(allocation[k])) continue;
            if (c == out.length) out = Arrays.copyOf(out, Math.min(entries, 2 * c));
            out[c++] = k;
        }
        return Arrays.copyOf(out, c);
    }

    /** The entries {@code which[0..count)} as sweep inputs (fresh arrays). */
    private SweepInputs inputs(int[] which, int count) {
        SweepInputs in = new SweepInputs(new int[count], new int[count], new long[count], new long[count], new long[count],
                new int[count], new int[count]);
        for (int x = 0; x < count; x++) {
            int k = which[x];
            in.allocation()[x] = allocation[k];
            in.color()[x] = color[k];
            in.offset()[x] = offset[k];
            in.size()[x] = size[k];
            in.logicalSize()[x] = logical[k];
            in.start()[x] = start[k];
            in.end()[x] = end[k];
        }
        return in;
    }

    private Liveness liveness() {
        SweepInputs in = new SweepInputs(Arrays.copyOf(allocation, entries), Arrays.copyOf(color, entries),
                Arrays.copyOf(offset, entries), Arrays.copyOf(size, entries), Arrays.copyOf(logical, entries),
                Arrays.copyOf(start, entries), Arrays.copyOf(end, entries));
        return Liveness.compute(steps, in, before.claimedPeakTime());
    }

    /** For each entry: the value it belongs to and its range after the edits (an end before the start: not live). */
    private Outcome.Ranges editedRanges() {
        return new Outcome.Ranges(Arrays.copyOf(owner, entries), Arrays.copyOf(start, entries), Arrays.copyOf(end, entries),
                Arrays.copyOf(size, entries), Arrays.copyOf(logical, entries));
    }

    /** The positions (in the module's values) edit {@code e} selects: every value for {@code tiling}. */
    private int[] choose(Edit e) throws QueryException {
        if (e instanceof Edit.Tiling t) {
            if (tilings.apply(t.name()) == null)
                throw new QueryException(t.offset(), t.offset() + t.name().length(), "unknown tiling model '" + t.name() + "'");
            int[] all = new int[n];
            for (int i = 0; i < n; i++) all[i] = i;
            return all;
        }
        int[] chosen = e instanceof Edit.Donate d && d.parameter() != null ? parameter(d) : select(e.where());
        if (e instanceof Edit.Donate) chosen = parametersOnly(chosen);   // only parameters can be donated: the tally counts them
        return chosen;
    }

    /**
     * Applies edit {@code e} to the values {@code chosen}. An edit applies to every part of a value:
     * after {@code remat} also to the part that comes back after the peak.
     */
    private void apply(Edit e, int[] chosen) throws QueryException {
        if (e instanceof Edit.Tiling t) {
            retile(tilings.apply(t.name()));
            return;
        }
        for (int i : chosen) {
            HloValue v = module.values().get(i);
            int j = second == null ? -1 : second[i];   // the returning part, if any
            if (e instanceof Edit.Drop) {
                drop(i);
                if (j >= 0) drop(j);
            } else if (e instanceof Edit.End x) {
                long at = x.atLastUse() ? UseSchedule.lastUse(module, v) : x.instruction() != null ? timeOf(x) : x.step();
                if (at >= 0) endAt(i, j, (int) Math.min(at, Integer.MAX_VALUE));
            } else if (e instanceof Edit.Donate) {
                endAt(i, j, Math.max(UseSchedule.lastUse(module, v), start[i]));
            } else if (e instanceof Edit.Scale x) {
                // The logical size scales too, or steps.live_bytes of the copy kept the old figure.
                scale(i, x.factor(), e.where());
                if (j >= 0) scale(j, x.factor(), e.where());
            } else if (e instanceof Edit.Resize x) {
                resize(i, x.bytes());
                if (j >= 0) resize(j, x.bytes());
            } else if (e instanceof Edit.Remat) {
                if (j < 0) remat(i, v);
            }
        }
    }

    private void scale(int k, double factor, Edit.Where where) throws QueryException {
        size[k] = SizeBounds.scaled(size[k], factor, where);
        logical[k] = Math.round(logical[k] * factor);
    }

    /** A new assigned size; the logical size keeps its share of it (all of it for an unpadded value). */
    private void resize(int k, long bytes) {
        logical[k] = size[k] > 0 ? Math.round(logical[k] * ((double) bytes / size[k])) : Math.min(logical[k], bytes);
        size[k] = bytes;
    }

    private void drop(int k) {
        size[k] = 0;
        logical[k] = 0;
        end[k] = start[k] - 1;
    }

    /**
     * Ends the value at step {@code t}: its first part {@code i} as {@link #shorten} does; its
     * returning part {@code j} (-1: none) is cut at {@code t} too, or not live at all when {@code t}
     * comes before it starts.
     */
    private void endAt(int i, int j, int t) {
        shorten(i, t);
        if (j < 0 || end[j] < start[j] || t >= end[j]) return;
        end[j] = t >= start[j] ? t : start[j] - 1;
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
            if (second == null) {
                second = new int[n];
                Arrays.fill(second, -1);
            }
            second[i] = k;
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

    private void retile(TilingModel model) {
        // Every part, the returning parts of rematerialised values too.
        for (int k = 0; k < entries; k++) {
            HloValue v = module.values().get(owner[k]);
            if (size[k] <= 0 || v.shape() == null || !v.shape().isArray() || v.logicalSize() <= 0) continue;
            // Earlier edits scaled the value: keep their ratio on the new model's size.
            size[k] = Math.round(model.paddedBytes(v, module) * (v.size() > 0 ? (double) size[k] / v.size() : 1.0));
        }
    }

    private long timeOf(Edit.End x) throws QueryException {
        int t = module.timeOf(x.instruction());
        if (t < 0) {
            throw new QueryException(x.targetOffset(), x.targetOffset() + x.instruction().length(),
                    "no scheduled instruction '" + x.instruction() + "' in " + module.handle());
        }
        return t;
    }

    private int[] parametersOnly(int[] chosen) {
        int k = 0;
        int[] out = new int[chosen.length];
        for (int i : chosen) {
            BufferAllocation a = module.allocation(module.values().get(i).allocation());
            if (a != null && a.isParameter()) out[k++] = i;
        }
        return Arrays.copyOf(out, k);
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
     * Whether a what-if reads the Used values section, beyond the allocation section and the live ranges: its
     * conditions' (as their compilation says), the uses behind {@code last_use}, {@code donate} and
     * {@code remat}, and everything when a query follows (the edited copy carries positions, uses
     * and instructions). A condition that does not compile needs nothing (running it fails first).
     */
    public static boolean readsUsedValues(List<Edit> edits, String query, Function<Edit.Where, Selection> selections) {
        if (query != null) return true;
        for (Edit e : edits) {
            if (e instanceof Edit.Remat || e instanceof Edit.Donate || e instanceof Edit.End x && x.atLastUse()) return true;
            if (e.where() != null && e.where().ids() == null && selections.apply(e.where()).readsUsedValues()) return true;
        }
        return false;
    }

    /** The entity a {@code where} condition selects from. */
    public static final String ENTITY = "values";

    /** The values {@code w} keeps, as a selection: errors point into its condition in the statement. */
    public static Selection selection(Edit.Where w, Catalog catalog) {
        return Selection.where(ENTITY, w.condition(), w.offset(), catalog);
    }

    /** Positions of the values {@code where} selects, in module order. */
    private int[] select(Edit.Where w) throws QueryException {
        if (w.ids() != null) {   // a built edit's values, by id: nothing to compile
            int[] out = new int[w.ids().size()];
            int k = 0;
            for (long id : w.ids()) {
                HloValue v = module.value(id);
                if (v != null) out[k++] = position(v);
            }
            return Arrays.stream(out, 0, k).sorted().distinct().toArray();
        }
        List<Object> rows = selections.apply(w).rows(ctx);
        // Rows come in module order: one walk along the values finds their positions (no map of a
        // million boxed positions); a row out of that order is looked up by id.
        int[] out = new int[rows.size()];
        List<HloValue> values = module.values();
        int p = 0;
        boolean inOrder = true;
        for (int k = 0; k < out.length; k++) {
            HloValue v = (HloValue) rows.get(k);
            if (inOrder) {
                int q = p;
                while (q < n && values.get(q) != v) q++;
                if (q < n) {
                    out[k] = q;
                    p = q + 1;
                    continue;
                }
                inOrder = false;   // from here on, by id
            }
            out[k] = position(v);
        }
        if (!inOrder) Arrays.sort(out);
        return out;
    }

    private int position(HloValue v) {
        int p = module.positionOf(v);
        if (p < 0) throw new IllegalStateException("a selected value is not one of " + module.handle() + "'s");
        return p;
    }
}
