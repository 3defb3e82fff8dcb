package bufq.analysis.advise;

import bufq.units.Units;
import bufq.model.BufferAllocation;

import java.util.List;

/**
 * The packing loss: what the allocations reserve beyond the peak of occupied bytes. Measured from
 * the allocation sizes and the peak, not by a what-if: no edit of ranges closes the gap.
 */
final class FragmentationRule implements Rule {
    static final double SHARE = 0.05;

    @Override public String name() { return "fragmentation"; }

    @Override public String description() {
        return "allocations reserving 5% or more beyond the peak of occupied bytes (the packing loss)";
    }

    @Override public List<Advice> find(Facts f) {
        long total = 0;
        for (BufferAllocation a : f.module().allocations()) total += a.size();
        long loss = total - f.peakBytes();
        if (loss < SHARE * f.peakBytes()) return List.of();
        return List.of(new Advice(name(), "the allocations reserve " + Units.human(total) + " for a peak of "
                + Units.human(f.peakBytes()) + ": buffer assignment could not pack the rest", List.of(), List.of(), loss));
    }
}
