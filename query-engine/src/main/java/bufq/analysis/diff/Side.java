package bufq.analysis.diff;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.HloModule;
import bufq.analysis.liveness.Liveness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** One module as the diff sees it: its peak, and each value with its grouping keys, computed once. */
final class Side {
    static final String NONE = "(none)";

    /** A value with the keys it is grouped and matched by. */
    record Fact(HloValue value, MatchKey key, boolean liveAtPeak, String allocationKind) {
        long bytes() { return value.shape() == null ? 0 : value.logicalSize(); }
    }

    final HloModule module;
    final int peakTime;
    final Long claimedPeak;
    final Long recomputedPeak;
    /** Every value, or only those live at the peak under {@code atPeak}, in schedule order. */
    final List<Fact> selected;
    /** Every value, in schedule order. */
    final List<Fact> all;
    /** Values live at the peak time, in schedule order. */
    final List<Fact> atPeak;

    Side(HloModule module, boolean onlyAtPeak) {
        this.module = module;
        Liveness l = Liveness.of(module);
        this.peakTime = l.peakTime();
        this.claimedPeak = module.info().peakClaim() == null ? null : module.info().peakClaim().claimedBytes();
        this.recomputedPeak = peakTime < 0 ? null : l.peakBytes();
        List<Fact> all = new ArrayList<>(module.values().size());
        for (HloValue v : module.values()) {
            BufferAllocation a = module.allocation(v.allocation());
            all.add(new Fact(v, keyOf(module, v), peakTime >= 0 && v.liveAt(peakTime), a == null ? "temp" : a.kind()));
        }
        // Schedule order makes the pairing of equal keys follow program order (unsequenced values last).
        all.sort(Comparator.comparingInt((Fact f) -> f.value.range() == null ? Integer.MAX_VALUE : f.value.range().start())
                .thenComparingLong(f -> f.value.id()));
        List<Fact> peak = new ArrayList<>();
        for (Fact f : all) if (f.liveAtPeak) peak.add(f);
        this.atPeak = List.copyOf(peak);
        this.all = List.copyOf(all);
        this.selected = onlyAtPeak ? this.atPeak : this.all;
    }

    static MatchKey keyOf(HloModule m, HloValue v) {
        return new MatchKey(opGroup(m, v), source(m, v), v.shape() == null ? "?" : v.shape().text(), ValueRole.of(m, v));
    }

    /** The framework op_name of the defining instruction, else {@code (opcode)}, else {@code (none)}. */
    static String opGroup(HloModule m, HloValue v) {
        HloInstruction ins = m.instruction(v.name());
        if (ins == null) return NONE;
        if (ins.opName() != null && !ins.opName().isEmpty()) return ins.opName();
        if (ins.opcode() != null && !ins.opcode().isEmpty()) return "(" + ins.opcode() + ")";
        return NONE;
    }

    /** {@code source_file:source_line} of the defining instruction, else {@code (none)}. */
    static String source(HloModule m, HloValue v) {
        HloInstruction ins = m.instruction(v.name());
        if (ins == null || ins.sourceFile() == null || ins.sourceFile().isEmpty()) return NONE;
        return ins.sourceLine() >= 0 ? ins.sourceFile() + ":" + ins.sourceLine() : ins.sourceFile();
    }
}
