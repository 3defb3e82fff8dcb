package bufq.analysis.peak;

import bufq.units.Units;
import bufq.analysis.liveness.Steps;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.lang.Ast;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.analysis.liveness.Prominence;
import bufq.table.ColumnType;
import bufq.table.Holding;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * {@code peaks}: every prominent local maximum of occupied bytes over the schedule, highest first,
 * with its step, bytes, prominence and the op_name prefixes that hold most of it.
 */
final class PeaksReport {
    /** op_name levels kept in a prefix ({@code jit(step)/transpose(jvp())/dot_general}). */
    static final int PREFIX_LEVELS = 3;
    /** Prefixes named per peak. */
    static final int TOP_PREFIXES = 3;

    private PeaksReport() {}

    static Table run(HloModule m, OptionalInt color, double share) {
        long[] series = Steps.occupied(m, color);
        // A colour none of whose values has a live range has no peak, not a flat one of 0 bytes.
        boolean none = color.isPresent() && m.steps() > 0 && Liveness.of(m).peakTime(color) < 0;
        List<Prominence.Ranked> peaks = none ? List.of() : Prominence.ranked(series, share);
        long highest = peaks.isEmpty() ? 0 : peaks.get(0).bytes();
        Table.Builder b = Table.builder().key("peaks_of_occupied_bytes")
                .title("peaks of occupied bytes (" + m.handle() + (color.isPresent() ? ", color " + color.getAsInt() : "")
                        + "), prominence >= " + Math.round(share * 1000) / 10.0 + "% of the highest")
                .column("peak", ColumnType.INT).column("step", ColumnType.INT).column("to", ColumnType.INT)
                .column("instruction", ColumnType.STRING).column("bytes", ColumnType.BYTES).column("share", ColumnType.PERCENT)
                .column("prominence", ColumnType.BYTES).column("scipy", ColumnType.BOOL).column("top_op_names", ColumnType.LIST);
        int rank = 0;
        for (Prominence.Ranked p : peaks) {
            b.row((long) ++rank, (long) p.step(), (long) p.to(), Steps.instructionAt(m, p.step()), p.bytes(),
                    Units.share(p.bytes(), highest), p.prominence(), p.scipy(), topPrefixes(m, color, p.step()));
        }
        if (m.steps() == 0) b.note("no live ranges in this dump: peaks need the HloLiveRange section");
        else if (none) b.note(Steps.noPeakOfColor(color.getAsInt()).strip());
        b.note("'live at " + selector("N", color, share) + "' selects what is live at peak N; 'to' ends a flat top "
                + "(scipy reports its middle step)");
        b.columnNote("scipy", "scipy: scipy.signal.find_peaks(x, prominence=" + share + " * max(x)) finds it; it never finds the first or last step");
        return b.build();
    }

    /**
     * How a query names row {@code rank} of this table: {@code peak(2)}, or with the options that are not
     * the default, {@code peak(2, color 1, min_share 5%)}, as {@code peak(N, ...)} in a query parses them.
     */
    static String selector(String rank, OptionalInt color, double share) {
        return "peak(" + rank + (color.isPresent() ? ", color " + color.getAsInt() : "")
                + (share == Prominence.DEFAULT_SHARE ? "" : ", min_share " + Ast.RankedPeak.percent(share)) + ")";
    }

    /** The op_name prefixes holding the most assigned bytes live at {@code t}, each with its bytes. */
    static List<Object> topPrefixes(HloModule m, OptionalInt color, int t) {
        Map<String, Long> bytes = new HashMap<>();
        int space = Steps.spaceFilter(m, color);
        for (HloValue v : LiveValues.at(m, t)) {
            if (space >= 0 && v.color() != space) continue;
            HloInstruction ins = m.instruction(v.name());
            String op = ins == null || ins.opName() == null || ins.opName().isEmpty() ? v.name() : prefix(ins.opName());
            bytes.merge(op, v.size(), Long::sum);
        }
        List<Map.Entry<String, Long>> all = new ArrayList<>(bytes.entrySet());
        all.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()));
        List<Object> out = new ArrayList<>();
        for (Map.Entry<String, Long> e : all.subList(0, Math.min(TOP_PREFIXES, all.size())))
            out.add(new Holding(e.getKey(), e.getValue()));
        return out;
    }

    private static String prefix(String opName) {
        int cut = -1;
        for (int i = 0, level = 0; i < opName.length(); i++) {
            if (opName.charAt(i) == '/' && ++level == PREFIX_LEVELS) { cut = i; break; }
        }
        return cut < 0 ? opName : opName.substring(0, cut);
    }
}
