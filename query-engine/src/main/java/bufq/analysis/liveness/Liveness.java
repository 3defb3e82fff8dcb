package bufq.analysis.liveness;

import bufq.model.AllocationGroups;
import bufq.model.HloModule;
import bufq.model.ParallelPasses;
import bufq.model.PeakClaim;

import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a module's live ranges say about memory over time, computed once per module by one sweep
 * ({@link #of(HloModule)}) and shared by queries, analyses and scripts. Immutable and
 * thread-safe.
 *
 * <p>Two figures per program step {@code t} (a value is live at {@code t} when {@code start <= t <=
 * end}, both inclusive, ranges cut to the schedule):
 * <ul>
 *   <li>{@link #liveBytes(int) live bytes}: the sum of the logical sizes ({@code ShapeUtil::ByteSizeOf})
 *       of the values live then, as XLA prints them. Two values holding the same bytes (a hand-over,
 *       a while loop's carried values) count twice.
 *   <li>{@link #occupiedBytes(int) occupied bytes}: for each allocation, the union of the byte ranges
 *       {@code [offset, offset + size)} of its values live then, each byte once, summed over
 *       allocations; a value without an offset (negative) counts its size. This is memory as it is
 *       held.
 * </ul>
 * <p><b>Memory spaces.</b> Figures without a colour are of the device memory, colour 0 (HBM; RAM on
 * a CPU); the other spaces (TPU VMEM, SMEM, host offload) are asked for by colour, never added in.
 *
 * <p><b>The peak</b> is the first step where occupied bytes are largest ({@link #peakTime()}; per
 * colour {@link #peakTime(int)}); -1 when no value has a live range. The dump's own label, which XLA
 * picks by another rule, is {@link #claimedPeakTime()}.
 *
 * <p>{@link #compute} runs the same sweep on edited inputs (other ranges or sizes), so a what-if
 * gets occupancy and the peak without a second implementation.
 */
public final class Liveness {
    private final int steps;
    private final int[] colors;              // ascending
    private final long[] live, occupied;     // the device memory (deviceSeries)
    private final long[] liveAllSpaces;      // every colour summed, as XLA's own peak section counts
    private final long[][] liveByColor, occupiedByColor;   // per slot of colors
    private final int[] liveValues;
    private final int peakTime;
    private final int[] peakByColor;
    private final int claimedPeakTime;
    private final int[] allocationKeys;      // ascending allocation numbers that hold values
    private final long[] allocationMaxBytes;
    private final int[] allocationMaxTime;
    private final long[] liveByInstruction;  // null for edited inputs (compute)
    private final int xlaPeakMoment;
    private final FirstMaxTree firstMaxTree;

    /**
     * Live and occupied bytes per step, the peak and the dump's claimed peak of {@code m}: computed
     * once for the module (and its copies under other handles) by one sweep, then shared.
     *
     * @throws ArithmeticException when a byte sum overflows a long (not kept: asked again, it fails again)
     */
    public static Liveness of(HloModule m) {
        return m.derived(Liveness.class, Liveness::sweep);
    }

    private static Liveness sweep(HloModule m) {
        int[] extra = new int[m.allocations().size()];
        for (int i = 0; i < extra.length; i++) extra[i] = m.allocations().get(i).color();
        PeakClaim claim = m.info().peakClaim();
        boolean[] indexPrinted = new boolean[m.values().size()];
        SweepInputs in = SweepInputs.of(m, indexPrinted);
        LiveValues.offer(m, in.start(), in.end());
        return new Liveness(m.steps(), in, m.allocationGroups(), claim == null ? -1 : claim.time(), extra,
                SweepInputs.instructionBytes(m, in.logicalSize(), indexPrinted));
    }

    /**
     * Live and occupied bytes per step, the peak and per-allocation maxima for edited inputs: the
     * one sweep behind {@link #of(HloModule)}.
     *
     * @param steps           number of program steps (ranges are cut to {@code 0..steps-1})
     * @param claimedPeakTime the step a dump labels as its peak, or -1
     * @throws ArithmeticException when a byte sum overflows a long
     */
    public static Liveness compute(int steps, SweepInputs inputs, int claimedPeakTime) {
        return new Liveness(steps, inputs, null, claimedPeakTime, new int[0], null);
    }

    /**
     * {@code base} with some whole allocations replaced: {@code removed} is the sweep of those
     * allocations' values as {@code base} had them, {@code added} of the same allocations' values as
     * they are now (same steps). Live bytes and value counts add over values and occupancy over
     * allocations, so the result equals a full {@link #compute} on the edited inputs, at the cost
     * of the allocations that changed. A what-if that edits a few values uses it.
     *
     * @throws IllegalArgumentException when a colour or allocation of {@code removed} or
     *                                  {@code added} is not in {@code base}, or the step counts differ
     */
    public static Liveness patch(Liveness base, Liveness removed, Liveness added) {
        return new Liveness(base, removed, added);
    }

    private Liveness(Liveness base, Liveness removed, Liveness added) {
        if (removed.steps != base.steps || added.steps != base.steps) throw new IllegalArgumentException("step counts differ");
        steps = base.steps;
        claimedPeakTime = base.claimedPeakTime;
        colors = base.colors;
        int k = colors.length;
        liveByColor = new long[k][];
        occupiedByColor = new long[k][];
        for (int c = 0; c < k; c++) {
            liveByColor[c] = base.liveByColor[c].clone();
            occupiedByColor[c] = base.occupiedByColor[c].clone();
        }
        liveValues = base.liveValues.clone();
        for (int sign = -1; sign <= 1; sign += 2) {
            Liveness part = sign < 0 ? removed : added;
            for (int pc = 0; pc < part.colors.length; pc++) {
                int c = Arrays.binarySearch(colors, part.colors[pc]);
                if (c < 0) throw new IllegalArgumentException("colour " + part.colors[pc] + " is not in the base");
                long[] l = liveByColor[c], o = occupiedByColor[c], pl = part.liveByColor[pc], po = part.occupiedByColor[pc];
                for (int t = 0; t < steps; t++) {
                    l[t] = Math.addExact(l[t], sign * pl[t]);
                    o[t] = Math.addExact(o[t], sign * po[t]);
                }
            }
            for (int t = 0; t < steps; t++) liveValues[t] += sign * part.liveValues[t];
        }
        live = StepSeries.device(colors, liveByColor, steps);
        occupied = StepSeries.device(colors, occupiedByColor, steps);
        liveAllSpaces = k == 1 ? liveByColor[0] : StepSeries.sum(liveByColor, steps);
        boolean anyRange = false;
        for (int t = 0; t < steps && !anyRange; t++) anyRange = liveValues[t] > 0;
        if (StepSeries.deviceSlot(colors) >= 0) anyRange &= base.peakByColor[StepSeries.deviceSlot(colors)] >= 0;
        peakTime = anyRange ? StepSeries.firstMax(occupied) : -1;
        firstMaxTree = new FirstMaxTree(occupied, steps);
        peakByColor = new int[k];
        // Edits keep every value in its colour: a colour has a peak when it had one.
        for (int c = 0; c < k; c++) peakByColor[c] = anyRange && base.peakByColor[c] >= 0 ? StepSeries.firstMax(occupiedByColor[c]) : -1;
        liveByInstruction = null;   // an edited liveness has no instructions
        xlaPeakMoment = -1;
        allocationKeys = base.allocationKeys;
        allocationMaxBytes = base.allocationMaxBytes.clone();
        allocationMaxTime = base.allocationMaxTime.clone();
        for (int g = 0; g < added.allocationKeys.length; g++) {
            int at = Arrays.binarySearch(allocationKeys, added.allocationKeys[g]);
            if (at < 0) throw new IllegalArgumentException("allocation " + added.allocationKeys[g] + " is not in the base");
            allocationMaxBytes[at] = added.allocationMaxBytes[g];
            allocationMaxTime[at] = added.allocationMaxTime[g];
        }
    }

    /**
     * Sweeps run in this JVM: the tests count them to show that every command reads the one a module
     * holds. A statistic only; bufq itself never reads it.
     */
    private static final AtomicLong SWEEPS = new AtomicLong();

    /** How many full sweeps (a module's liveness, or {@link #compute} on edited inputs) this JVM has run. */
    public static long sweepsRun() { return SWEEPS.get(); }

    /** @param byInstruction per value, its defining instruction's bytes ({@link SweepInputs#instructionBytes}); null when unknown */
    private Liveness(int steps, SweepInputs in, AllocationGroups groups, int claimedPeakTime, int[] extraColors, long[] byInstruction) {
        SWEEPS.incrementAndGet();
        int n = in.count();
        this.steps = Math.max(0, steps);
        this.claimedPeakTime = claimedPeakTime;
        TreeSet<Integer> cs = new TreeSet<>();
        for (int c : extraColors) cs.add(c);
        int last = Integer.MIN_VALUE;
        for (int c : in.color()) if (c != last) { cs.add(c); last = c; }
        colors = cs.stream().mapToInt(Integer::intValue).toArray();
        int k = colors.length;
        long[][] liveDiff = new long[k][this.steps + 1], occDiff = new long[k][this.steps + 1];
        int[] countDiff = new int[this.steps + 1];
        boolean[] rangedColor = new boolean[k];   // a colour with no live range has no peak
        // The ranges weighed by instruction shapes, per step and for XLA's peak moment: on another
        // core while this one weighs them by the values' own sizes (two passes over a million values).
        long[] byInstructionDiff = byInstruction == null ? null : new long[this.steps + 1];
        long[] xlaDiff = byInstruction == null ? null : new long[this.steps + 2];
        Runnable weighByInstruction = () -> {
            for (int i = 0; i < n; i++) {
                if (in.end()[i] < in.start()[i]) continue;
                long b = byInstruction[i];
                int s = Math.max(in.start()[i], 0), e = Math.min(in.end()[i], this.steps - 1);
                if (s <= e) {
                    byInstructionDiff[s] = Math.addExact(byInstructionDiff[s], b);
                    byInstructionDiff[e + 1] = Math.subtractExact(byInstructionDiff[e + 1], b);
                }
                // XLA releases a value at end + 1, after the additions of that step.
                int xs = Math.min(s, this.steps), xe = Math.max(0, Math.min(in.end()[i] + 1, this.steps));
                if (xe < xs) continue;
                xlaDiff[xs] = Math.addExact(xlaDiff[xs], b);
                xlaDiff[xe + 1] = Math.subtractExact(xlaDiff[xe + 1], b);
            }
        };
        // Logical sizes and value counts: a difference array per colour.
        Runnable weighBySize = () -> {
            for (int i = 0; i < n; i++) {
                int s = Math.max(in.start()[i], 0), e = Math.min(in.end()[i], this.steps - 1);
                if (s > e) continue;
                int slot = k == 1 ? 0 : Arrays.binarySearch(colors, in.color()[i]);
                rangedColor[slot] = true;
                long b = in.logicalSize()[i];
                liveDiff[slot][s] = Math.addExact(liveDiff[slot][s], b);
                liveDiff[slot][e + 1] = Math.subtractExact(liveDiff[slot][e + 1], b);
                countDiff[s]++;
                countDiff[e + 1]--;
            }
        };
        ParallelPasses.both(n, weighBySize, byInstruction == null ? () -> { } : weighByInstruction);
        boolean anyRange = false;
        for (boolean ranged : rangedColor) anyRange |= ranged;
        liveByInstruction = byInstruction == null ? null : StepSeries.prefix(byInstructionDiff, this.steps);
        xlaPeakMoment = byInstruction == null || this.steps == 0 ? -1 : StepSeries.xlaMoment(xlaDiff);
        // Occupancy: per allocation (and colour), a sweep over time with a coverage structure.
        AllocationGroups by = groups != null ? groups : AllocationGroups.of(in.allocation());
        int groupCount = by.keys().length;
        int[] members = by.members(), groupStart = by.start();
        allocationKeys = by.keys();
        allocationMaxBytes = new long[groupCount];
        allocationMaxTime = new int[groupCount];
        if (n < ParallelPasses.SPLIT) {
            sweepGroups(in, members, groupStart, 0, groupCount, occDiff);
        } else {
            // Two halves of the values on two cores, each into its own differences, then added up
            // (a million values: half a second on one core). Groups are disjoint, so their maxima are too.
            int half = 0;
            while (half < groupCount && groupStart[half] < n / 2) half++;
            long[][] otherDiff = new long[k][this.steps + 1];
            int split = half;
            ParallelPasses.both(n, () -> sweepGroups(in, members, groupStart, 0, split, occDiff),
                    () -> sweepGroups(in, members, groupStart, split, groupCount, otherDiff));
            for (int c = 0; c < k; c++) for (int t = 0; t <= this.steps; t++) occDiff[c][t] = Math.addExact(occDiff[c][t], otherDiff[c][t]);
        }
        liveByColor = new long[k][];
        occupiedByColor = new long[k][];
        for (int c = 0; c < k; c++) {
            liveByColor[c] = StepSeries.prefix(liveDiff[c], this.steps);
            occupiedByColor[c] = StepSeries.prefix(occDiff[c], this.steps);
        }
        live = StepSeries.device(colors, liveByColor, this.steps);
        occupied = StepSeries.device(colors, occupiedByColor, this.steps);
        liveAllSpaces = k == 1 ? liveByColor[0] : StepSeries.sum(liveByColor, this.steps);
        liveValues = new int[this.steps];
        for (int t = 0, acc = 0; t < this.steps; t++) liveValues[t] = acc += countDiff[t];
        peakTime = (StepSeries.deviceSlot(colors) >= 0 ? rangedColor[StepSeries.deviceSlot(colors)] : anyRange) ? StepSeries.firstMax(occupied) : -1;
        firstMaxTree = new FirstMaxTree(occupied, this.steps);
        peakByColor = new int[k];
        for (int c = 0; c < k; c++) peakByColor[c] = rangedColor[c] ? StepSeries.firstMax(occupiedByColor[c]) : -1;
    }

    /** Sweeps the allocation groups {@code [from, to)} into {@code occDiff}. */
    private void sweepGroups(SweepInputs in, int[] members, int[] groupStart, int from, int to, long[][] occDiff) {
        for (int g = from; g < to; g++) {
            int first = groupStart[g], end = groupStart[g + 1];
            // One value: no copy of the group (125,000 of 204,000 groups at a million values).
            if (end - first == 1) sweepOne(in, members[first], occDiff, g);
            else sweepAllocation(in, Arrays.copyOfRange(members, first, end), occDiff, g);
        }
    }

    /**
     * Adds one allocation's occupancy to {@code occDiff} (per colour, as differences between
     * consecutive steps) and records its busiest moment as group {@code g}. Values of one
     * allocation normally share a colour; if not, each colour's values form their own union.
     */
    private void sweepAllocation(SweepInputs in, int[] members, long[][] occDiff, int g) {
        if (members.length == 1) {
            sweepOne(in, members[0], occDiff, g);
            return;
        }
        long max = 0;
        int maxTime = -1;
        boolean oneColor = true;
        for (int i : members) oneColor &= in.color()[i] == in.color()[members[0]];
        if (!oneColor) {
            Integer[] boxed = Arrays.stream(members).boxed().toArray(Integer[]::new);
            Arrays.sort(boxed, (x, y) -> Integer.compare(in.color()[x], in.color()[y]));
            for (int i = 0; i < members.length; i++) members[i] = boxed[i];
        }
        for (int from = 0; from < members.length; ) {
            int color = in.color()[members[from]], to = from;
            while (to < members.length && in.color()[members[to]] == color) to++;
            long[] diff = occDiff[Arrays.binarySearch(colors, color)];
            long[] m = sweepColor(in, from == 0 && to == members.length ? members : Arrays.copyOfRange(members, from, to), diff);
            if (m[0] > max || maxTime < 0 && m[1] >= 0 && m[0] == max) {
                max = m[0];
                maxTime = (int) m[1];
            }
            from = to;
        }
        allocationMaxBytes[g] = max;
        allocationMaxTime[g] = maxTime;
    }

    /**
     * {@link #sweepAllocation} of an allocation that holds one value (most of a big module's: 125,000
     * of 204,000 at a million values), without the event list and coverage tree: the value holds its
     * bytes from its first step to its last, and its allocation peaks at its first step. The same
     * figures as the general sweep: a value without an offset counts its size, one with an offset
     * its positive size; a value without a live range holds its bytes at no step but counts toward
     * its allocation's maximum when it has an offset.
     */
    private void sweepOne(SweepInputs in, int i, long[][] occDiff, int g) {
        int n = steps;
        int s = Math.max(in.start()[i], 0), e = Math.min(in.end()[i], n - 1);
        long placed = in.offset()[i] >= 0 && in.size()[i] > 0 ? in.size()[i] : 0;
        long max = 0;
        int maxTime = -1;
        if (s <= e) {
            long held = in.offset()[i] < 0 ? in.size()[i] : placed;
            long[] diff = occDiff[Arrays.binarySearch(colors, in.color()[i])];
            diff[s] = Math.addExact(diff[s], held);
            if (e + 1 < n) diff[e + 1] = Math.subtractExact(diff[e + 1], held);
            max = held;
            maxTime = s;
        } else if (in.end()[i] < in.start()[i]) {
            max = placed;
        }
        allocationMaxBytes[g] = max;
        allocationMaxTime[g] = maxTime;
    }

    /**
     * Occupancy of one allocation's values of one colour: adds it to {@code diff}; returns the
     * largest union of byte ranges at one step, counting values without a live range as always
     * there, and its first step (-1 when none of the values has a live range).
     */
    private long[] sweepColor(SweepInputs in, int[] vs, long[] diff) {
        int n = steps;
        int ranged = 0, unranged = 0;
        for (int i : vs) {
            if (Math.max(in.start()[i], 0) <= Math.min(in.end()[i], n - 1)) ranged++;
            else if (in.end()[i] < in.start()[i]) unranged++;
        }
        // Interval k is value vs[k]'s bytes; a value without an offset or bytes has an empty one.
        long[] bounds = new long[2 * vs.length];
        for (int k = 0; k < vs.length; k++) {
            int i = vs[k];
            if (in.offset()[i] < 0 || in.size()[i] <= 0) continue;
            bounds[2 * k] = in.offset()[i];
            bounds[2 * k + 1] = Math.addExact(in.offset()[i], in.size()[i]);
        }
        Coverage.Intervals intervals = new Coverage.Intervals(bounds);
        Coverage permanent = null;
        if (unranged > 0) {
            permanent = new Coverage(intervals);
            for (int k = 0; k < vs.length; k++) if (in.end()[vs[k]] < in.start()[vs[k]]) permanent.add(k);
        }
        if (ranged == 0) return new long[] {permanent == null ? 0 : permanent.covered(), -1};
        // Events: removal at end + 1 sorts before an addition at the same step.
        long[] events = new long[2 * ranged];
        int e = 0;
        for (int k = 0; k < vs.length; k++) {
            int i = vs[k];
            int s = Math.max(in.start()[i], 0), end = Math.min(in.end()[i], n - 1);
            if (s > end) continue;
            events[e++] = ((long) s << 33) | (1L << 32) | k;
            events[e++] = ((long) (end + 1) << 33) | k;
        }
        Arrays.sort(events);
        Coverage tree = new Coverage(intervals);
        long covered = 0, best = -1, loose = 0;
        int bestAt = -1;
        for (int x = 0; x < events.length; ) {
            int t = (int) (events[x] >>> 33);
            for (; x < events.length && (int) (events[x] >>> 33) == t; x++) {
                int k = (int) events[x];
                int i = vs[k];
                boolean adding = (events[x] & (1L << 32)) != 0;
                if (in.offset()[i] < 0) {
                    loose = adding ? Math.addExact(loose, in.size()[i]) : loose - in.size()[i];
                } else if (adding) {
                    tree.add(k);
                    if (permanent != null) permanent.add(k);
                } else {
                    tree.remove(k);
                    if (permanent != null) permanent.remove(k);
                }
            }
            if (t >= n) break;
            long now = Math.addExact(tree.covered(), loose);
            diff[t] = Math.addExact(diff[t], now - covered);
            covered = now;
            long withPermanent = permanent == null ? now : Math.addExact(permanent.covered(), loose);
            if (withPermanent > best) {
                best = withPermanent;
                bestAt = t;
            }
        }
        return new long[] {best, bestAt};
    }

    private int slot(int color) {
        int s = Arrays.binarySearch(colors, color);
        if (s < 0) throw new IllegalArgumentException("no color " + color + " in this module");
        return s;
    }

    /** Number of program steps (0 without a schedule). */
    public int steps() { return steps; }

    /** Distinct colours of the allocations and values, ascending. */
    public List<Integer> colors() { return Arrays.stream(colors).boxed().toList(); }

    /** Logical bytes of the device memory's values live at {@code t}; 0 outside the schedule. */
    public long liveBytes(int t) { return at(live, t); }

    /** Logical bytes of every colour's values live at {@code t}, as XLA's peak section sums them: no one memory's. */
    public long liveBytesAllSpaces(int t) { return at(liveAllSpaces, t); }

    /** The first step with the most live bytes; -1 without steps. */
    public int mostLiveTime() { return StepSeries.firstMax(live); }

    /** Logical bytes of the values of {@code color} live at {@code t}. @throws IllegalArgumentException unknown colour */
    public long liveBytes(int t, int color) { return at(liveByColor[slot(color)], t); }

    /** Bytes of the device memory held at {@code t}: per allocation the union of the live values' byte ranges, summed. */
    public long occupiedBytes(int t) { return at(occupied, t); }

    /** {@link #occupiedBytes(int)} for one colour. @throws IllegalArgumentException unknown colour */
    public long occupiedBytes(int t, int color) { return at(occupiedByColor[slot(color)], t); }

    /** Number of values live at {@code t}. */
    public int liveValues(int t) { return t >= 0 && t < steps ? liveValues[t] : 0; }

    /** Live (logical) bytes at every step of one colour, or of the device memory when empty; a fresh array. */
    public long[] liveBytesByStep(OptionalInt color) {
        return (color.isPresent() ? liveByColor[slot(color.getAsInt())] : live).clone();
    }

    /** Occupied bytes at every step of one colour, or of the device memory when empty; a fresh array. */
    public long[] occupiedBytesByStep(OptionalInt color) {
        return (color.isPresent() ? occupiedByColor[slot(color.getAsInt())] : occupied).clone();
    }

    /** The peak of the device memory: the first step with the most occupied bytes, or -1 when no value has a live range. */
    public int peakTime() { return peakTime; }

    /** Occupied bytes at the peak; 0 without one. */
    public long peakBytes() { return peakTime < 0 ? 0 : occupied[peakTime]; }

    /** The first step with the most occupied bytes of {@code color}, or -1 when none of its values has a live range. */
    public int peakTime(int color) { return peakByColor[slot(color)]; }

    /** Occupied bytes of {@code color} at its peak; 0 without one. */
    public long peakBytes(int color) {
        int t = peakTime(color);
        return t < 0 ? 0 : occupiedByColor[slot(color)][t];
    }

    /** {@link #peakTime()} or {@link #peakTime(int)}. */
    public int peakTime(OptionalInt color) { return color.isPresent() ? peakTime(color.getAsInt()) : peakTime(); }

    /** {@link #peakBytes()} or {@link #peakBytes(int)}. */
    public long peakBytes(OptionalInt color) { return color.isPresent() ? peakBytes(color.getAsInt()) : peakBytes(); }

    /**
     * Bytes live at {@code t} with each value weighed by its defining instruction's whole shape (a
     * tuple element as the tuple's table), as old dumps list their peak; 0 outside the schedule.
     *
     * @throws IllegalStateException on a liveness of edited inputs ({@link #compute}), which has no instructions
     */
    public long liveBytesByInstruction(int t) {
        if (liveByInstruction == null) throw new IllegalStateException("liveness of edited inputs has no instruction sizes");
        return at(liveByInstruction, t);
    }

    /**
     * The moment XLA's {@code HloLiveRange::ComputePeakMemoryMoment} picks: events (start, added)
     * and (end + 1, released) per value, sorted so that at one time additions come first; the
     * running sum of each defining instruction's whole-shape size is largest at the returned time
     * (first such). So at time t it still counts values whose range ended at t - 1, while the dump
     * then lists the values live at t. 0 when nothing has a live range (as XLA does), -1 without a
     * schedule or for a liveness of edited inputs.
     */
    public int xlaPeakMoment() { return xlaPeakMoment; }

    /** The first step of {@code [from, to]} (cut to the schedule) with the most occupied bytes, or -1; O(log steps) for what-ifs. */
    public int firstMaxStep(int from, int to) { return firstMaxTree.firstMaxStep(from, to); }

    /** The step the dump labels as its peak ({@code Live ranges at P (peak)}), or -1. Not the maximum in general. */
    public int claimedPeakTime() { return claimedPeakTime; }

    /**
     * An allocation's busiest moment: the most bytes its values cover at one step (values without a range
     * at every step) and the first such step (-1 without ranges); {@code (0, -1)} without values.
     */
    public AllocationUse allocationUse(int allocation) {
        int g = Arrays.binarySearch(allocationKeys, allocation);
        return g < 0 ? new AllocationUse(0, -1) : new AllocationUse(allocationMaxBytes[g], allocationMaxTime[g]);
    }

    /** One allocation's busiest moment: bytes covered then, and the first such step (-1 without live ranges). */
    public record AllocationUse(long maxBytes, int maxTime) {}

    private long at(long[] a, int t) { return t >= 0 && t < steps ? a[t] : 0; }
}
