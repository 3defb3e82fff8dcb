package bufq.analysis.fit;

import java.util.ArrayList;
import java.util.List;

/**
 * Programs held together as they run in one process, against a capacity. Program k, while it runs,
 * holds what {@link ProgramSizes#needsBytes} says; every array kept after programs 0..k-1 (see
 * {@link Keep}) is held beside it. One pass over the programs and their arrays: linear in both.
 */
public final class Fit {
    private Fit() {}

    /**
     * One program in the running order.
     *
     * @param heldBeforeBytes arrays kept by the programs before it, still held while it runs
     * @param keptBytes       of its own arrays, those that stay after it
     * @param totalBytes      {@code heldBeforeBytes + needs}: what the device holds while it runs
     */
    public record Step(int order, Program program, long heldBeforeBytes, long keptBytes, long totalBytes,
                       long offeredBytes) {
        public long needsBytes() { return program.needsBytes(); }
        public long aloneOverBytes() { return needsBytes() - offeredBytes; }
        public long overBytes() { return totalBytes - offeredBytes; }
        public boolean fitsAlone() { return aloneOverBytes() <= 0; }
        public boolean fits() { return overBytes() <= 0; }
    }

    /** The steps of {@code programs} in order; programs whose dump gives no allocations are left out. */
    public static List<Step> steps(List<Program> programs, Capacity capacity, Keep keep) {
        List<Step> out = new ArrayList<>(programs.size());
        long held = 0;
        for (Program p : programs) {
            if (!p.sizes().known()) continue;
            long kept = 0;
            for (HeldArray a : p.arrays()) if (keep.keeps(a)) kept += a.bytes();
            out.add(new Step(out.size() + 1, p, held, kept, held + p.needsBytes(), capacity.offeredBytes()));
            held += kept;
        }
        return out;
    }

    /** The arrays kept, each with the step after which it is held: {@code heldFrom} is that step + 1. */
    public record Kept(HeldArray array, int heldFrom) {}

    public static List<Kept> kept(List<Step> steps, Keep keep) {
        List<Kept> out = new ArrayList<>();
        for (Step s : steps)
            for (HeldArray a : s.program().arrays()) if (keep.keeps(a)) out.add(new Kept(a, s.order() + 1));
        return out;
    }

    /** The first step that does not fit, alone or with what is held; null when all fit. */
    public static Step firstOver(List<Step> steps) {
        for (Step s : steps) if (!s.fits()) return s;
        return null;
    }
}
