package bufq.analysis.oom;

import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.ProgramSizes;

import bufq.units.PrintedSize;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Which loaded module a message is about, and which of its allocations: each module scored by the
 * evidence the message gives (the program it names, an allocation of exactly the requested size, an
 * allocation index, a compile-time figure that is the module's total in the message's memory space,
 * needs above the capacity the message states, the buffers it lists), best first.
 *
 * @param module     the candidate
 * @param allocation the allocation the message failed on, or null when none is known
 * @param score      the evidence's weight (higher is better)
 * @param reasons    what matched, in words
 */
record ModuleMatch(HloModule module, BufferAllocation allocation, int score, List<String> reasons) {
    /**
     * Candidates with any evidence, best first; empty when no module matches. Equal evidence is
     * ranked by what else is known of a failure: a program that is not an initialiser ({@code
     * jit_init} makes the parameters a training step then takes, and both may hold an allocation of
     * the requested size) above one that is, then the one compiled later above the one compiled
     * earlier (a run stops at its failure: nothing it reaches runs after it), then by handle.
     */
    static List<ModuleMatch> rank(OomMessage msg, List<HloModule> modules) {
        List<ModuleMatch> out = new ArrayList<>();
        for (HloModule m : modules) {
            ModuleMatch c = of(msg, m);
            if (c != null) out.add(c);
        }
        out.sort(Comparator.comparingInt((ModuleMatch c) -> -c.score())
                .thenComparing(c -> initialiser(c.module()))
                .thenComparingInt(c -> -c.module().info().number())
                .thenComparing(c -> c.module().handle()));
        for (int i = 0; i + 1 < out.size(); i++) {
            ModuleMatch a = out.get(i), b = out.get(i + 1);
            if (a.score() != b.score()) continue;
            if (initialiser(b.module()) && !initialiser(a.module()))
                a.reasons().add("not an initialiser, as " + b.module().handle() + " is");
            else if (a.module().info().number() > b.module().info().number())
                a.reasons().add("compiled after " + b.module().handle() + " (a run stops at its failure)");
        }
        return out;
    }

    /** Named like a program that makes initial state ({@code jit_init}, {@code jit_init_params}). */
    static boolean initialiser(HloModule m) { return initialiser(m.info().name()); }

    static boolean initialiser(String name) {
        String n = name == null ? "" : name.toLowerCase(Locale.ROOT);
        return n.matches("(jit_|pjit_)?_*init(_.*)?") || n.contains("_init_") || n.endsWith("_init");
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
        if (msg.family() == Family.TPU_COMPILE && msg.used() != null) {
            // the compile-time check's figure is every allocation of the space's colour but the thread-local ones (the
            // memory-usage report's Total bytes less those); a long report's 'Used' adds the runtime's reservation, and
            // rarely matches
            int color = color(msg.memorySpace());
            long total = checkedBytes(m, color);
            if (total > 0 && msg.used().contains(total)) {
                score += msg.used().isExact() ? 6 : 5;
                reasons.add("its " + (color == 0 ? "HBM (color 0)" : msg.memorySpace() + " (color " + color + ")")
                        + " allocations but thread-local ones total " + total + " B, " + (msg.used().isExact() ? "the message's figure"
                        : "which prints as the message's " + msg.used().text()));
                BufferAllocation temp = largestTemp(m, color);
                if (alloc == null && temp != null) {
                    alloc = temp;
                    reasons.add(String.format(Locale.ROOT, "allocation %d, the preallocated temp, is %.0f%% of it",
                            temp.index(), 100.0 * temp.size() / total));
                }
            }
        }
        // a program that needs more than the capacity the message states cannot have run: it is the one
        if (msg.deviceCapacity() != null && msg.deviceCapacity().low() > 0 && score > 0) {
            long needs = ProgramSizes.of(m).needsBytes();
            if (needs > msg.deviceCapacity().low()) {
                score += 2;
                reasons.add("needs " + needs + " B, more than the stated capacity");
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
        return new ModuleMatch(m, alloc, score, new ArrayList<>(reasons));
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

    /**
     * Bytes of {@code m}'s allocations of colour {@code color} that XLA:TPU's compile-time check counts
     * ({@code the total memory required for HLO temporaries (X)}): all of them but the thread-local
     * ones, the memory-usage report's {@code Total bytes} of that space less those. A DP-SGD compile's
     * Total of 23,683,516,416 B (22.0571 GiB) printed as 22.05G: its 1,794 thread-local allocations
     * hold 2,262,528 B, and without them it is 22.0550 GiB; so too a U-Net's (21.6856 GiB, 21.68G).
     */
    static long checkedBytes(HloModule m, int color) {
        long s = 0;
        for (BufferAllocation a : m.allocations()) if (a.color() == color && !a.threadLocal()) s += a.size();
        return s;
    }

    /** The largest temp allocation (not thread-local) of colour {@code color}, or null. */
    private static BufferAllocation largestTemp(HloModule m, int color) {
        BufferAllocation best = null;
        for (BufferAllocation a : m.allocations())
            if (a.color() == color && a.isTemp() && !a.threadLocal() && (best == null || a.size() > best.size())) best = a;
        return best;
    }

    /** XLA's colour of a TPU memory space: 0 is the default (HBM), 1 VMEM. */
    static int color(String space) { return "vmem".equals(space) ? 1 : 0; }
}
