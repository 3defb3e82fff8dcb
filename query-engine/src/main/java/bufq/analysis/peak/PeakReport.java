package bufq.analysis.peak;

import bufq.analysis.sharding.Shardings;
import bufq.units.Units;
import bufq.analysis.liveness.Steps;
import bufq.analysis.liveness.LiveValues;
import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.HloModule;
import bufq.model.MemorySpace;
import bufq.analysis.liveness.Liveness;
import bufq.model.PeakClaim;
import bufq.model.TilingModel;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * {@code peak}: the peak (the first step with the most occupied bytes) per colour and overall, beside
 * the live (logical) bytes then and the dump's own label; then the values live at that step.
 */
final class PeakReport {
    private PeakReport() {}

    /** What {@code peak} and {@code blame} print, once and in full, for a dump without live ranges. */
    static final String NO_RANGES = "no live ranges in this dump, so no peak: it needs the HloLiveRange section "
            + "(dumped while --xla_dump_buffer_assignment_analysis is on)\n";

    /** What {@code peak}, {@code timeline} and their pictures say of a colour none of whose values has a live range. */

    /** A bare BufferAssignmentProto never has live ranges, whatever flags were on. */
    static final String NO_RANGES_BARE = "no live ranges in a bare BufferAssignmentProto (what memory_analysis() "
            + "serializes: allocations and values, no instructions or schedule), so no peak: open the module's "
            + ".hlo.pb (XLA_FLAGS=--xla_dump_hlo_as_proto) or its text dump\n";

    /** The message for {@code m} without live ranges. */
    static String noRanges(HloModule m) {
        return HloModule.Info.ASSIGNMENT_PROTO.equals(m.info().format()) ? NO_RANGES_BARE : NO_RANGES;
    }

    static List<Output> run(HloModule m, OptionalInt color, long smallThreshold, TilingModel tiling) {
        Liveness l = Liveness.of(m);
        if (l.peakTime() < 0) return List.of(new TextBlock(noRanges(m)));
        int t = l.peakTime(color);
        if (t < 0) return List.of(new TextBlock(Steps.noPeakOfColor(color.getAsInt())));
        return List.of(summary(m, color), liveAt(m, color, t, smallThreshold, tiling));
    }

    private static Table summary(HloModule m, OptionalInt color) {
        Liveness l = Liveness.of(m);
        boolean spaces = l.colors().size() > 1;
        Table.Builder b = Table.builder().key("peak_of_occupied_bytes").title("peak of occupied bytes (" + m.handle() + ")")
                .column("color", ColumnType.STRING);
        if (spaces) b.column("space", ColumnType.STRING);
        b.column("peak_time", ColumnType.INT).column("peak_instruction", ColumnType.STRING)
                .column("peak_bytes", ColumnType.BYTES).column("live_bytes", ColumnType.BYTES)
                .column("claimed_peak_time", ColumnType.INT).column("claimed_peak_bytes", ColumnType.BYTES)
                .column("occupied_at_claimed", ColumnType.BYTES).column("peak_note", ColumnType.NOTE);
        PeakClaim claim = m.info().peakClaim();
        // The device memory (colour 0) first, then each other memory on its own row: no row adds
        // memories together.
        List<OptionalInt> rows = new ArrayList<>();
        if (color.isPresent()) rows.add(color);
        else {
            rows.add(OptionalInt.empty());
            if (spaces) for (int c : l.colors()) if (c != MemorySpace.DEVICE || !l.colors().contains(MemorySpace.DEVICE)) rows.add(OptionalInt.of(c));
        }
        int ct = l.claimedPeakTime();
        String why = ClaimedPeak.note(m);
        for (OptionalInt c : rows) {
            int t = l.peakTime(c);
            boolean all = c.isEmpty();
            List<Object> row = new ArrayList<>();
            int shown = all ? (spaces && l.colors().contains(MemorySpace.DEVICE) ? MemorySpace.DEVICE : -1) : c.getAsInt();
            row.add(shown < 0 ? "all" : Integer.toString(shown));
            if (spaces) row.add(shown < 0 ? null : MemorySpace.name(m, shown));
            if (t < 0) {
                // A colour without live ranges (only thread-local or unscheduled values): no peak.
                for (int i = 0; i < 8; i++) row.add(null);
                b.row(row);
                continue;
            }
            Long claimedTime = all && claim != null ? (long) ct : null;
            Long claimed = all && claim != null ? claim.claimedBytes() : null;
            Long atClaim = null;
            if (ct >= 0 && ct < l.steps()) atClaim = all ? l.occupiedBytes(ct) : l.occupiedBytes(ct, c.getAsInt());
            long live = all ? l.liveBytes(t) : l.liveBytes(t, c.getAsInt());
            row.addAll(Arrays.asList((long) t, Steps.instructionAt(m, t), l.peakBytes(c), live, claimedTime, claimed, atClaim,
                    all ? why : null));
            b.row(row);
        }
        if (spaces && color.isEmpty()) {
            b.note("each memory space on its own row (color 0 is the device memory, HBM; the others are other memories, "
                    + "never added to it): 'peak space NAME' shows one");
        }
        b.note("peak_bytes: bytes occupied at the first step with the most (per allocation, each byte of the live "
                + "values' [offset, offset+size) once); live_bytes: logical sizes of the values live then, summed "
                + "(a byte two values share counts twice); a value is live from start to end of its BufferLiveRange, "
                + "both inclusive");
        String perDevice = Shardings.header(m).perDeviceNote();
        if (perDevice != null) b.note(perDevice);
        if (claim == null) {
            b.note("this dump prints no peak label (\"Live ranges at T (peak)\")");
        } else {
            for (String n : claimNotes(m, claim)) b.note(n);
        }
        return b.build();
    }

    /** How the dump's label relates to bufq's figures, and why it is not the peak when it is not. */
    static List<String> claimNotes(HloModule m, PeakClaim claim) {
        List<String> notes = new ArrayList<>();
        Liveness l = Liveness.of(m);
        int ct = claim.time();
        // XLA's peak section sums the values of every memory space live at its step.
        long atClaim = ct >= 0 && ct < l.steps() ? l.liveBytesAllSpaces(ct) : -1;
        if (!claim.cumulative()) {
            long byInstruction = ClaimedPeak.bytesByInstruction(m, ct);
            notes.add("the dump lists " + claim.entries().size() + " values at step " + ct + " summing to "
                    + Units.grouped(claim.claimedBytes(), ' ') + " bytes (old style: no cumulative figure, and every value "
                    + "weighed by its instruction's whole shape, so a tuple element counts as the tuple's table); "
                    + (byInstruction == claim.claimedBytes() ? "bufq gets the same sum that way" : "bufq gets "
                    + Units.grouped(byInstruction, ' ') + " that way") + ", and " + Units.grouped(atClaim, ' ')
                    + " bytes with the values' own shapes");
        } else if (atClaim == claim.claimedBytes()) {
            notes.add("claimed_peak_bytes, the dump's " + Units.grouped(claim.claimedBytes(), ' ') + " bytes at step " + ct
                    + ", equal the live bytes bufq sums there" + (MemorySpace.several(m) ? " over every memory space, as XLA sums them" : ""));
        } else {
            notes.add("MISMATCH: the dump claims " + Units.grouped(claim.claimedBytes(), ' ') + " bytes at step " + ct
                    + " but the values live there sum to " + Units.grouped(atClaim, ' ') + " bytes");
        }
        String why = ClaimedPeak.note(m);
        if (why != null) notes.add(why);
        return notes;
    }

    /** The allocation every value of a grouped row is in, or null when they are in several. */
    static Object oneAllocation(List<HloValue> g) {
        int a = g.get(0).allocation();
        for (HloValue w : g) if (w.allocation() != a) return null;
        return (long) a;
    }

    static Table liveAt(HloModule m, OptionalInt color, int t, long smallThreshold, TilingModel tiling) {
        Liveness l = Liveness.of(m);
        int space = Steps.spaceFilter(m, color);
        long peak = color.isPresent() ? l.liveBytes(t, color.getAsInt()) : l.liveBytes(t);
        boolean extra = tiling != null && tiling != TilingModel.TPU && tiling != TilingModel.NONE;
        Table.Builder b = Table.builder().key("values_live_at_step")
                .title("values live at step " + t + " (" + Steps.instructionAt(m, t) + ")"
                        + (space >= 0 && MemorySpace.several(m) ? ", color " + space + " (" + MemorySpace.name(m, space) + ")" : ""))
                .column("value", ColumnType.STRING).column("count", ColumnType.INT).optionalColumn("allocation", ColumnType.INT)
                .column("logical", ColumnType.BYTES).column("share", ColumnType.PERCENT)
                .optionalColumn("assigned", ColumnType.BYTES).column("padding", ColumnType.BYTES);
        if (extra) b.column("tiled_" + tiling.name(), ColumnType.BYTES);
        b.column("shape", ColumnType.STRING).column("op_name", ColumnType.STRING).optionalColumn("source", ColumnType.STRING);
        List<HloValue> live = new ArrayList<>();
        long smallLogical = 0, smallAssigned = 0, smallTiled = 0;
        int small = 0;
        for (HloValue v : LiveValues.at(m, t)) {
            if (space >= 0 && v.color() != space) continue;
            if (v.logicalSize() < smallThreshold) {
                // Only summed: tens of thousands at a large module's peak need no order.
                small++;
                smallLogical += v.logicalSize();
                smallAssigned += v.size();
                if (extra) smallTiled += tiling.paddedBytes(v, m);
            } else {
                live.add(v);
            }
        }
        live.sort(ValueOrder.LARGEST_FIRST);
        // Values of one op_name and shape (a loop's 200 identical buffers) share one row with their count.
        Map<List<Object>, List<HloValue>> groups = new LinkedHashMap<>();
        for (HloValue v : live) {
            HloInstruction ins = m.instruction(v.name());
            List<Object> key = Arrays.asList(ins == null ? null : ins.opName(), v.shape().text());
            groups.computeIfAbsent(key, k -> new ArrayList<>(1)).add(v);
        }
        List<List<HloValue>> rows = new ArrayList<>(groups.values());
        // Stable: equal totals keep the order by size and name.
        rows.sort(Comparator.comparingLong((List<HloValue> g) -> g.size() * g.get(0).logicalSize()).reversed());
        int grouped = 0;
        for (List<HloValue> g : rows) {
            HloValue v = g.get(0);
            HloInstruction ins = m.instruction(v.name());
            long logical = 0, assigned = 0, tiled = 0;
            for (HloValue w : g) {
                logical += w.logicalSize();
                assigned += w.size();
                if (extra) tiled += tiling.paddedBytes(w, m);
            }
            if (g.size() > 1) grouped++;
            // One array per row, handed to the table: tens of thousands of rows at a 1M-value peak.
            Object[] row = new Object[extra ? 11 : 10];
            int k = 0;
            row[k++] = g.size() == 1 ? v.label() : v.label() + " .. " + g.get(g.size() - 1).label();
            row[k++] = (long) g.size();
            row[k++] = oneAllocation(g);
            row[k++] = logical;
            row[k++] = Units.share(logical, peak);
            row[k++] = assigned;
            row[k++] = assigned - logical;
            if (extra) row[k++] = tiled;
            row[k++] = v.shape().text();
            row[k++] = ins == null ? null : ins.opName();
            row[k] = source(ins);
            b.ownedRow(row);
        }
        if (small > 0) {
            List<Object> row = new ArrayList<>();
            row.add("small (" + small + " value" + (small == 1 ? "" : "s") + ")");
            row.add((long) small);
            row.add(null);
            row.add(smallLogical);
            row.add(Units.share(smallLogical, peak));
            row.add(smallAssigned);
            row.add(smallAssigned - smallLogical);
            if (extra) row.add(smallTiled);
            row.add(null);
            row.add(null);
            row.add(null);
            b.row(row);
        }
        b.note((live.size() + small) + " values, " + Units.human(peak) + " logical (share is of that), "
                + Units.human(color.isPresent() ? l.occupiedBytes(t, color.getAsInt()) : l.occupiedBytes(t))
                + " occupied; values under " + Units.human(smallThreshold) + " fold into the small row"
                + (grouped > 0 ? "; values of one op_name and shape share a row (count; value names the first and last)" : ""));
        return b.build();
    }


    static String source(HloInstruction ins) { return ins == null ? null : ins.source(); }
}
