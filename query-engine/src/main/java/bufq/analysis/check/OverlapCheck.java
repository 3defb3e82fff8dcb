package bufq.analysis.check;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.HloModule;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * {@code overlap}: two values of one allocation whose byte ranges intersect while both are live.
 * A hand-over, where an instruction's output takes its dying operand's bytes so the two ranges
 * touch at exactly one step (the operand, born earlier, ends where the output starts), is how XLA
 * reuses memory, not a conflict. Two values born at the same step in the same bytes (two outputs
 * of one instruction) are, unless the instruction writes both in place of one operand
 * ({@code output_to_operand_aliasing}, read from its {@code from instruction:} line): then they are
 * one buffer by design. Values without a live range cannot be judged and are skipped.
 */
final class OverlapCheck implements CheckRule {
    static final int MAX_FINDINGS = 100;

    @Override public String name() { return "overlap"; }

    @Override public void run(HloModule m, Reporter r) {
        int found = 0;
        long handOvers = 0, aliased = 0;
        Map<String, Map<String, String>> aliasing = new HashMap<>();
        for (BufferAllocation a : m.allocations()) {
            List<HloValue> vs = new ArrayList<>();
            for (HloValue v : m.valuesIn(a.index()))
                if (v.range() != null && v.size() > 0 && v.range().end() >= v.range().start()) vs.add(v);
            vs.sort(Comparator.comparingInt((HloValue v) -> v.range().start()).thenComparingLong(HloValue::offset));
            // Sweep by time: compare each value with those still live when it starts (few at once),
            // not with every value that ever used its bytes (many, in a reused temp buffer).
            PriorityQueue<HloValue> active = new PriorityQueue<>(Comparator.comparingInt(v -> v.range().end()));
            for (HloValue y : vs) {
                while (!active.isEmpty() && active.peek().range().end() < y.range().start()) active.poll();
                for (HloValue x : active) {
                    if (x.offset() >= y.offset() + y.size() || y.offset() >= x.offset() + x.size()) continue;
                    if (!conflict(x, y)) {
                        if (x.range().overlaps(y.range().start(), y.range().end())) handOvers++;
                        continue;
                    }
                    if (x.name().equals(y.name()) && OperandAliasing.sameOperand(
                            aliasing.computeIfAbsent(x.name(), n -> aliasingOf(m, n)), x.index(), y.index())) {
                        aliased++;
                        continue;
                    }
                    if (++found <= MAX_FINDINGS) {
                        r.error(y.label(), "bytes [" + y.offset() + ", " + (y.offset() + y.size()) + ") live " + y.range()
                                + " overlap " + x.label() + " bytes [" + x.offset() + ", " + (x.offset() + x.size())
                                + ") live " + x.range() + " in allocation " + a.index() + " at steps "
                                + both(x.range(), y.range()));
                    }
                }
                active.add(y);
            }
        }
        if (found > MAX_FINDINGS) r.error(m.handle(), (found - MAX_FINDINGS) + " more overlapping pairs not listed");
        if (aliased > 0) {
            r.info(m.handle(), aliased + " pair" + (aliased == 1 ? "" : "s") + " of outputs of one instruction share bytes"
                    + " because it writes both in place of one operand (output_to_operand_aliasing: one buffer, not overlap)");
        }
        if (handOvers > 0) {
            r.info(m.handle(), handOvers + " hand-over" + (handOvers == 1 ? "" : "s") + " (a value taking bytes of one "
                    + "that dies at the step it is born: ranges touch at one step) are reuse, not overlap");
        }
    }

    /** {@code name}'s output-to-operand aliasing; empty when the dump does not give its instruction text. */
    private static Map<String, String> aliasingOf(HloModule m, String name) {
        HloInstruction i = m.instruction(name);
        return i == null ? Map.of() : OperandAliasing.of(i.attributes());
    }

    /** Live at a common step, other than a one-step hand-over. */
    static boolean conflict(HloValue a, HloValue b) {
        LiveRange ra = a.range(), rb = b.range();
        int from = Math.max(ra.start(), rb.start()), to = Math.min(ra.end(), rb.end());
        if (from > to) return false;
        return from != to || !(handsOver(a, b) || handsOver(b, a));
    }

    /** {@code dying} ends at the step {@code born} starts, was born before it, by another instruction. */
    private static boolean handsOver(HloValue dying, HloValue born) {
        return dying.range().end() == born.range().start() && dying.range().start() < born.range().start()
                && !dying.name().equals(born.name());
    }

    private static String both(LiveRange a, LiveRange b) {
        int from = Math.max(a.start(), b.start()), to = Math.min(a.end(), b.end());
        return from == to ? Integer.toString(from) : from + "-" + to;
    }
}
