package bufq.analysis.oom;

import bufq.model.BufferAllocation;
import bufq.model.HloModule;

import bufq.units.PrintedSize;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which loaded module a message is about, and which of its allocations: each module scored by the
 * evidence the message gives (the program it names, an allocation of exactly the requested size, an
 * allocation index, the buffers it lists), best first.
 *
 * @param module     the candidate
 * @param allocation the allocation the message failed on, or null when none is known
 * @param score      the evidence's weight (higher is better)
 * @param reasons    what matched, in words
 */
record ModuleMatch(HloModule module, BufferAllocation allocation, int score, List<String> reasons) {
    /** Candidates with any evidence, best first (ties by handle); empty when no module matches. */
    static List<ModuleMatch> rank(OomMessage msg, List<HloModule> modules) {
        List<ModuleMatch> out = new ArrayList<>();
        for (HloModule m : modules) {
            ModuleMatch c = of(msg, m);
            if (c != null) out.add(c);
        }
        out.sort(Comparator.comparingInt((ModuleMatch c) -> -c.score()).thenComparing(c -> c.module().handle()));
        return out;
    }

    private static ModuleMatch of(OomMessage msg, HloModule m) {
        int score = 0;
        List<String> reasons = new ArrayList<>();
        BufferAllocation alloc = null;
        if (msg.program() != null && named(m, msg.program())) {
            score += 8;
            reasons.add("program name " + msg.program());
        }
        if (msg.allocationIndex() >= 0) {
            BufferAllocation a = m.allocation(msg.allocationIndex());
            if (a != null && msg.requested() != null && msg.requested().contains(a.size())) {
                score += 6;
                alloc = a;
                reasons.add("allocation " + a.index() + " has the requested size");
            }
        }
        if (alloc == null && msg.requested() != null && requestsAnAllocation(msg.family())) {
            BufferAllocation a = bySize(m, msg.requested());
            if (a != null) {
                score += msg.requested().isExact() ? 6 : 3;
                alloc = a;
                reasons.add("allocation " + a.index() + (msg.requested().isExact() ? " of exactly the requested size"
                        : " within the printed size"));
            }
        }
        if (msg.family() == Family.TPU_COMPILE && msg.figures().containsKey("HLO temp")) {
            PrintedSize temp = msg.figures().get("HLO temp");
            for (BufferAllocation a : m.allocations()) {
                if (a.isTemp() && !a.threadLocal() && a.color() == color(msg.memorySpace()) && temp.contains(a.size())) {
                    score += 4;
                    alloc = a;
                    reasons.add("temp allocation " + a.index() + " within the printed HLO temp");
                    break;
                }
            }
        }
        int listed = 0, found = 0;
        for (ListedBuffer b : msg.buffers()) {
            if (b.executable() != null && !named(m, b.executable())) continue;
            listed++;
            BufferMatch bm = BufferMatch.find(b, m);
            if (bm.strong()) found++;
        }
        if (found > 0) {
            score += 1 + (4 * found) / Math.max(1, listed);
            reasons.add(found + " of " + listed + " listed buffer" + (listed == 1 ? "" : "s"));
        }
        if (score == 0) return null;
        if (alloc == null && msg.allocationIndex() >= 0) alloc = m.allocation(msg.allocationIndex());
        return new ModuleMatch(m, alloc, score, reasons);
    }

    /** Whether the message's size is one allocation of the failing program (not an array or a reservation). */
    static boolean requestsAnAllocation(Family f) {
        return f == Family.CPU || f == Family.GPU_ASSIGNMENT || f == Family.STREAM_EXECUTOR || f == Family.BFC
                || f == Family.TPU_ALLOCATION;
    }

    /** The allocation whose size prints as {@code size}: the preallocated temp first, then by index. */
    static BufferAllocation bySize(HloModule m, PrintedSize size) {
        BufferAllocation best = null;
        for (BufferAllocation a : m.allocations()) {
            if (!size.contains(a.size()) || a.size() == 0) continue;
            if (best == null || (a.preallocatedTemp() && !best.preallocatedTemp())) best = a;
        }
        return best;
    }

    /** Whether {@code m} is the program {@code name} ({@code jit_step}, or its handle). */
    static boolean named(HloModule m, String name) {
        String n = m.info().name();
        return name.equals(n) || name.equals(m.handle()) || m.handle().endsWith("." + name)
                || (n != null && (n.endsWith("." + name) || n.startsWith(name + ".")));
    }

    /** XLA's colour of a TPU memory space: 0 is the default (HBM), 1 VMEM. */
    static int color(String space) { return "vmem".equals(space) ? 1 : 0; }
}
