package bufq.analysis.fit;

import bufq.model.Shape;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Programs held together as they run in one process, against a capacity. Program k, while it runs,
 * holds what {@link ProgramSizes#needsBytes} says; every array kept after programs 0..k-1 (see
 * {@link Keep}) is held beside it, except the arrays program k reads: its arguments are counted
 * once, in its needs. An argument is the held array of the same shape and size, the latest held
 * first (the dumps name no array across programs: the shape is the evidence); a parameter matched
 * so is that array, not a new one, and a donated one is gone after the call. One pass over the
 * programs and their arrays: linear in both.
 */
public final class Fit {
    private Fit() {}

    /**
     * One program in the running order.
     *
     * @param heldBeforeBytes arrays kept by the programs before it and still held while it runs, less
     *                        those it reads (its arguments, in its needs)
     * @param keptBytes       of its own arrays, those that stay after it (new ones: an argument it was
     *                        passed is the caller's array, already held)
     * @param totalBytes      {@code heldBeforeBytes + needs}: what the device holds while it runs
     * @param reads           the held arrays it takes as arguments: never to drop for it
     */
    public record Step(int order, Program program, long heldBeforeBytes, long keptBytes, long totalBytes,
                       long offeredBytes, List<HeldArray> reads) {
        public Step {
            reads = List.copyOf(reads);
        }

        public long needsBytes() { return program.needsBytes(); }
        public long aloneOverBytes() { return needsBytes() - offeredBytes; }
        public long overBytes() { return totalBytes - offeredBytes; }
        public boolean fitsAlone() { return aloneOverBytes() <= 0; }
        public boolean fits() { return overBytes() <= 0; }

        /** Whether this program takes {@code a} as an argument. */
        public boolean reads(HeldArray a) {
            for (HeldArray r : reads) if (r.name().equals(a.name())) return true;
            return false;
        }
    }

    /**
     * An array kept, held before steps {@code heldFrom} to {@code heldUntil} (inclusive; a step that
     * reads it counts it in its needs instead).
     */
    public record Kept(HeldArray array, int heldFrom, int heldUntil) {
        public boolean heldAt(Step s) { return heldFrom <= s.order() && s.order() <= heldUntil && !s.reads(array); }
    }

    /** The steps of {@code programs} in order; programs whose dump gives no allocations are left out. */
    public static List<Step> steps(List<Program> programs, Capacity capacity, Keep keep) {
        return run(programs, capacity.offeredBytes(), keep).steps;
    }

    /** The arrays kept, each with the steps before which it is held. */
    public static List<Kept> kept(List<Step> steps, Keep keep) {
        List<Program> programs = new ArrayList<>(steps.size());
        for (Step s : steps) programs.add(s.program());
        return run(programs, steps.isEmpty() ? 0 : steps.get(0).offeredBytes(), keep).kept;
    }

    private record Pass(List<Step> steps, List<Kept> kept) {}

    private static Pass run(List<Program> programs, long offered, Keep keep) {
        List<Step> steps = new ArrayList<>(programs.size());
        // what is held now, by shape and size, the latest last; and each array's last step held
        Map<String, Deque<HeldArray>> held = new HashMap<>();
        Map<String, Integer> from = new HashMap<>();
        List<HeldArray> order = new ArrayList<>();
        Map<String, Integer> until = new HashMap<>();
        long heldBytes = 0;
        for (Program p : programs) {
            if (!p.sizes().known()) continue;
            int k = steps.size() + 1;
            List<HeldArray> reads = new ArrayList<>();
            Set<String> passed = new HashSet<>();   // this program's parameters that are a held array
            List<HeldArray> consumed = new ArrayList<>();
            for (HeldArray a : p.arrays()) {
                if (!a.isParameter()) continue;
                Deque<HeldArray> same = held.get(key(a));
                HeldArray h = same == null ? null : same.pollLast();
                if (h == null) continue;
                reads.add(h);
                passed.add(a.name());
                if (a.isOutput()) consumed.add(h);   // donated: its buffer becomes the output
            }
            long readBytes = 0;
            for (HeldArray h : reads) readBytes += h.bytes();
            long before = heldBytes - readBytes;
            // the arrays read and not donated stay held, as they were
            for (HeldArray h : reads) if (!consumed.contains(h)) held.computeIfAbsent(key(h), x -> new ArrayDeque<>()).addLast(h);
            for (HeldArray h : consumed) {
                until.put(h.name(), k);
                heldBytes -= h.bytes();
            }
            long kept = 0;
            for (HeldArray a : p.arrays()) {
                if (!keep.keeps(a) || (passed.contains(a.name()) && !a.isOutput())) continue;
                kept += a.bytes();
                from.put(a.name(), k + 1);
                order.add(a);
                held.computeIfAbsent(key(a), x -> new ArrayDeque<>()).addLast(a);
            }
            steps.add(new Step(k, p, before, kept, before + p.needsBytes(), offered, reads));
            heldBytes += kept;
        }
        List<Kept> kept = new ArrayList<>(order.size());
        for (HeldArray a : order) kept.add(new Kept(a, from.get(a.name()), until.getOrDefault(a.name(), Integer.MAX_VALUE)));
        return new Pass(steps, kept);
    }

    /**
     * Shape and size: how a parameter is known as an array held before. Arrays of unknown shape match
     * none. An array's layout is left out: a parameter prints {@code f32[8192,64]}, the value an
     * output hands back {@code f32[8192,64]{1,0}}, and the size tells tilings apart.
     */
    private static String key(HeldArray a) {
        return a.shape() == null ? "\0" + a.name() : Shape.withoutLayout(a.shape()) + "/" + a.bytes();
    }

    /** The first step that does not fit, alone or with what is held; null when all fit. */
    public static Step firstOver(List<Step> steps) {
        for (Step s : steps) if (!s.fits()) return s;
        return null;
    }
}
