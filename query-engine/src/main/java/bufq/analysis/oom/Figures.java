package bufq.analysis.oom;

import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.table.ColumnType;
import bufq.table.Table;

import bufq.units.PrintedSize;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A message's totals against the same figures summed from the dump of the module it joined to,
 * each with the difference and one line on why they differ.
 */
final class Figures {
    private Figures() {}

    /** A message figure and the allocations of the dump that make up the same total. */
    private record Rule(String figure, String dumpMeaning, Predicate<BufferAllocation> allocations) {}

    /** GPU's stats block ({@code BufferAssignment::StatsString}: each counter its own predicate). */
    private static final List<Rule> GPU = List.of(
            new Rule("parameter allocation", "entry parameter allocations", BufferAllocation::isParameter),
            new Rule("constant allocation", "constant allocations", BufferAllocation::constant),
            new Rule("maybe_live_out allocation", "maybe-live-out allocations", BufferAllocation::maybeLiveOut),
            new Rule("preallocated temp allocation", "the preallocated temp", BufferAllocation::preallocatedTemp),
            new Rule("total allocation", "all allocations", a -> true));

    /** TPU's compile-time summary, of the allocations of the memory space's colour (hbm 0, vmem 1). */
    private static List<Rule> tpu(int color) {
        return List.of(
                new Rule(TpuReport.HLO_TEMPORARIES, "all allocations of color " + color + " but thread-local ones: the"
                        + " memory-usage report's Total bytes less those", a -> a.color() == color && !a.threadLocal()),
                new Rule("HLO temp", "temp allocations of color " + color, a -> a.color() == color && a.isTemp() && !a.threadLocal()),
                new Rule("arguments", "entry parameter allocations", a -> a.color() == color && a.isParameter()),
                new Rule("output", "output allocations", a -> a.color() == color && (a.isOutput() || a.maybeLiveOut()) && !a.isParameter()));
    }

    static Table table(OomText text, List<List<ModuleMatch>> ranked) {
        Table.Builder b = Table.builder().key("figures_re_derived_from_the_dump").title("figures re-derived from the dump")
                .column("message", ColumnType.INT).column("module", ColumnType.STRING).column("figure", ColumnType.STRING)
                .column("message_says", ColumnType.STRING).column("dump", ColumnType.BYTES)
                .column("difference", ColumnType.BYTES).column("why", ColumnType.STRING);
        for (int i = 0; i < ranked.size(); i++) {
            if (ranked.get(i).isEmpty()) continue;
            OomMessage msg = text.messages().get(i);
            ModuleMatch top = ranked.get(i).get(0);
            HloModule m = top.module();
            long k = i + 1;
            BufferAllocation a = top.allocation();
            if (msg.requested() != null && a != null && ModuleMatch.requestsAnAllocation(msg.family())) {
                b.row(k, m.handle(), "requested (allocation " + a.index() + ")", msg.requested(), a.size(),
                        diff(msg.requested(), a.size()), why(msg, msg.requested(), a.size(), null));
            }
            List<Rule> rules = msg.family() == Family.GPU_ASSIGNMENT ? GPU
                    : msg.family() == Family.TPU_COMPILE ? tpu(ModuleMatch.color(msg.memorySpace())) : List.of();
            for (Rule r : rules) {
                PrintedSize said = msg.figures().get(r.figure());
                if (said == null) continue;
                long dump = sum(m, r.allocations());
                b.row(k, m.handle(), r.figure() + " (" + r.dumpMeaning() + ")", said, dump, diff(said, dump),
                        why(msg, said, dump, r.figure()));
            }
            for (Map.Entry<String, Long> e : msg.programTotals().entrySet()) {
                for (ModuleMatch c : ranked.get(i)) {
                    if (!ModuleMatch.named(c.module(), e.getKey())) continue;
                    long dump = sum(c.module(), x -> !x.threadLocal());
                    PrintedSize said = PrintedSize.exact(e.getValue());
                    b.row(k, c.module().handle(), "in-use chunks of " + e.getKey() + " (its allocations but thread-local)",
                            said, dump, diff(said, dump), dump == e.getValue() ? "equal"
                                    : e.getValue() < dump ? "the run held fewer bytes than the program allocates: some allocations were freed or not yet made"
                                    : "the run held more than one run's allocations: outputs of earlier runs kept, or several runs at once");
                    break;
                }
            }
        }
        return b.build();
    }

    static Long diff(PrintedSize said, long dump) {
        if (said.contains(dump)) return 0L;
        return dump - (dump > said.high() ? said.high() : said.low());
    }

    /** One line on why the message's figure and the dump's differ. */
    static String why(OomMessage msg, PrintedSize said, long dump, String figure) {
        if (said.contains(dump)) return said.isExact() ? "equal" : "equal within the printed rounding";
        PrintedSize unpadded = msg.figures().get("HLO temp unpadded");
        if ("HLO temp".equals(figure) && unpadded != null && unpadded.contains(dump))
            return "padding: the dump's temp is the message's unpadded figure; the TPU tiles pad it";
        long big = Math.max(said.high(), dump);
        double rel = big == 0 ? 0 : Math.abs((double) dump - said.mid()) / big;
        if (rel < 0.02)
            return String.format(Locale.ROOT, "%.1f%% apart: fragmentation and alignment (XLA rounds and packs allocations)", 100 * rel);
        if (dump > said.high())
            return "the dump's program needs more: a different compilation (other shapes, flags or XLA version)";
        return "the failing program needs more than the dump's: a different compilation (the dump of a smaller configuration?)";
    }

    /** Bytes of the module's allocations that {@code p} picks. */
    private static long sum(HloModule m, Predicate<BufferAllocation> p) {
        long s = 0;
        for (BufferAllocation a : m.allocations()) if (p.test(a)) s += a.size();
        return s;
    }
}
