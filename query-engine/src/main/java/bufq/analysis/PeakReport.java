package bufq.analysis;

import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.HloModule;
import bufq.model.PeakClaim;
import bufq.model.TilingModel;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;

/**
 * {@code peak}: the maximum of live bytes over program order, per colour and overall, in logical and
 * assigned bytes, beside the dump's own claim; then the values live at that moment.
 */
final class PeakReport {
    private PeakReport() {}

    static List<Output> run(HloModule m, OptionalInt color, long smallThreshold, TilingModel tiling) {
        if (m.steps() == 0) {
            return List.of(Table.builder().title("peak").column("message", ColumnType.STRING)
                    .row("no live ranges in this dump: peak needs the HloLiveRange section "
                            + "(dumped while --xla_dump_buffer_assignment_analysis is on)").build());
        }
        Table summary = summary(m, color);
        LiveProfile p = LiveProfile.of(m, color);
        int t = p.peakTime();
        return List.of(summary, liveAt(m, color, t, p.peakBytes(), smallThreshold, tiling));
    }

    private static Table summary(HloModule m, OptionalInt color) {
        Table.Builder b = Table.builder().title("peak of live bytes (" + m.handle() + ")")
                .column("color", ColumnType.STRING)
                .column("peak_time", ColumnType.INT).column("peak_instruction", ColumnType.STRING)
                .column("peak_bytes", ColumnType.BYTES)
                .column("assigned_peak_time", ColumnType.INT).column("assigned_peak_bytes", ColumnType.BYTES)
                .column("claimed_time", ColumnType.INT).column("claimed_bytes", ColumnType.BYTES)
                .column("bytes_at_claimed_time", ColumnType.BYTES);
        PeakClaim claim = m.info().peakClaim();
        List<OptionalInt> rows = new ArrayList<>();
        if (color.isPresent()) rows.add(color);
        else {
            rows.add(OptionalInt.empty());
            if (m.colors().size() > 1) for (int c : m.colors()) rows.add(OptionalInt.of(c));
        }
        for (OptionalInt c : rows) {
            LiveProfile p = LiveProfile.of(m, c);
            int t = p.peakTime(), at = p.assignedPeakTime();
            boolean all = c.isEmpty();
            Long claimedTime = all && claim != null ? (long) claim.time() : null;
            Long claimed = all && claim != null ? claim.claimedBytes() : null;
            Long atClaim = null;
            if (claim != null && claim.time() >= 0 && claim.time() < p.steps()) atClaim = p.logicalAt(claim.time());
            b.row(all ? "all" : Integer.toString(c.getAsInt()), (long) t, instructionAt(m, t), p.peakBytes(),
                    (long) at, p.assignedPeakBytes(), claimedTime, claimed, atClaim);
        }
        b.note("peak_bytes: logical bytes (ShapeUtil::ByteSizeOf of each value's shape) live at the first step "
                + "with the most; assigned: the dump's size= (tiling padding included); a value is live from "
                + "start to end of its BufferLiveRange, both inclusive");
        if (claim == null) {
            b.note("this dump prints no peak claim (\"Live ranges at T (peak)\")");
        } else {
            for (String n : claimNotes(m, claim)) b.note(n);
        }
        return b.build();
    }

    /** Says how bufq's figures relate to the dump's claim, naming XLA's quirk when it explains a difference. */
    static List<String> claimNotes(HloModule m, PeakClaim claim) {
        List<String> notes = new ArrayList<>();
        LiveProfile all = LiveProfile.of(m, OptionalInt.empty());
        int ours = all.peakTime();
        int ct = claim.time();
        long atClaim = ct >= 0 && ct < all.steps() ? all.logicalAt(ct) : -1;
        if (!claim.cumulative()) {
            long byInstruction = bytesByInstruction(m, ct);
            notes.add("the dump lists " + claim.entries().size() + " values at step " + ct + " summing to "
                    + Bytes.grouped(claim.claimedBytes()) + " bytes (old style: no cumulative figure, and every value "
                    + "weighed by its instruction's whole shape, so a tuple element counts as the tuple's table); "
                    + (byInstruction == claim.claimedBytes() ? "bufq gets the same sum that way" : "bufq gets "
                    + Bytes.grouped(byInstruction) + " that way") + ", and " + Bytes.grouped(atClaim)
                    + " bytes with the values' own shapes");
        } else {
            if (atClaim == claim.claimedBytes()) {
                notes.add("the dump's claimed " + Bytes.grouped(claim.claimedBytes()) + " bytes at step " + ct
                        + " equal bufq's recomputation at that step");
            } else {
                notes.add("MISMATCH: the dump claims " + Bytes.grouped(claim.claimedBytes()) + " bytes at step " + ct
                        + " but the values live there sum to " + Bytes.grouped(atClaim) + " bytes");
            }
        }
        if (ours != ct) {
            int xla = LiveProfile.xlaPeakMoment(m);
            String why = xla == ct
                    ? "bufq reproduces step " + ct + " by emulating ComputePeakMemoryMoment"
                    : "emulating ComputePeakMemoryMoment gives step " + xla + ", so the difference is not fully explained";
            String same = atClaim == all.peakBytes() ? "holds as many bytes as bufq's first maximum, step " + ours
                    : "(" + Bytes.human(atClaim) + " live) is not bufq's first maximum, step " + ours + " ("
                    + Bytes.human(all.peakBytes()) + ")";
            notes.add("the dump's peak step " + ct + " " + same + ": XLA keeps a value counted one step "
                    + "past its end and weighs a tuple element as its whole tuple's table when it picks the moment; "
                    + why);
        }
        return notes;
    }

    /** Bytes live at {@code t} with each value weighed by its defining instruction's whole shape. */
    static long bytesByInstruction(HloModule m, int t) {
        long s = 0;
        for (HloValue v : m.liveAt(t)) s += LiveProfile.instructionBytes(m, v);
        return s;
    }

    static Table liveAt(HloModule m, OptionalInt color, int t, long peak, long smallThreshold, TilingModel tiling) {
        boolean extra = tiling != null && tiling != TilingModel.TPU && tiling != TilingModel.NONE;
        Table.Builder b = Table.builder()
                .title("values live at step " + t + " (" + instructionAt(m, t) + ")"
                        + (color.isPresent() ? ", color " + color.getAsInt() : ""))
                .column("value", ColumnType.STRING).column("allocation", ColumnType.INT)
                .column("logical", ColumnType.BYTES).column("share", ColumnType.PERCENT)
                .column("assigned", ColumnType.BYTES).column("padding", ColumnType.BYTES);
        if (extra) b.column("tiled_" + tiling.name(), ColumnType.BYTES);
        b.column("shape", ColumnType.STRING).column("op_name", ColumnType.STRING).column("source", ColumnType.STRING);
        List<HloValue> live = new ArrayList<>();
        for (HloValue v : m.liveAt(t)) if (color.isEmpty() || v.color() == color.getAsInt()) live.add(v);
        live.sort(Comparator.comparingLong(HloValue::logicalSize).reversed().thenComparing(PeakReport::compareLabels));
        long smallLogical = 0, smallAssigned = 0, smallTiled = 0;
        int small = 0;
        for (HloValue v : live) {
            long tiled = extra ? tiling.paddedBytes(v.shape()) : 0;
            if (v.logicalSize() < smallThreshold) {
                small++;
                smallLogical += v.logicalSize();
                smallAssigned += v.size();
                smallTiled += tiled;
                continue;
            }
            HloInstruction ins = m.instruction(v.name());
            // One array per row, handed to the table: tens of thousands of rows at a 1M-value peak.
            Object[] row = new Object[extra ? 10 : 9];
            int k = 0;
            row[k++] = v.label();
            row[k++] = (long) v.allocation();
            row[k++] = v.logicalSize();
            row[k++] = Bytes.share(v.logicalSize(), peak);
            row[k++] = v.size();
            row[k++] = v.size() - v.logicalSize();
            if (extra) row[k++] = tiled;
            row[k++] = v.shape().text();
            row[k++] = ins == null ? null : ins.opName();
            row[k] = source(ins);
            b.ownedRow(row);
        }
        if (small > 0) {
            List<Object> row = new ArrayList<>();
            row.add("small (" + small + " value" + (small == 1 ? "" : "s") + ")");
            row.add(null);
            row.add(smallLogical);
            row.add(Bytes.share(smallLogical, peak));
            row.add(smallAssigned);
            row.add(smallAssigned - smallLogical);
            if (extra) row.add(smallTiled);
            row.add(null);
            row.add(null);
            row.add(null);
            b.row(row);
        }
        b.note(live.size() + " values, " + Bytes.human(peak) + " logical; values under "
                + Bytes.human(smallThreshold) + " fold into the small row");
        return b.build();
    }

    /** {@code a.label().compareTo(b.label())} without building the labels (name, then the printed index). */
    static int compareLabels(HloValue a, HloValue b) {
        String an = a.name(), bn = b.name();
        String ai = a.indexPrinted() ? a.index() : "", bi = b.indexPrinted() ? b.index() : "";
        int c = an.compareTo(bn);
        if (an.length() == bn.length()) return c != 0 ? c : ai.compareTo(bi);
        // Names of different lengths decide unless one is a prefix of the other.
        if (!(an.length() < bn.length() ? bn.startsWith(an) : an.startsWith(bn))) return c;
        int la = an.length() + ai.length(), lb = bn.length() + bi.length();
        int n = Math.min(la, lb);
        for (int i = 0; i < n; i++) {
            char x = i < an.length() ? an.charAt(i) : ai.charAt(i - an.length());
            char y = i < bn.length() ? bn.charAt(i) : bi.charAt(i - bn.length());
            if (x != y) return x - y;
        }
        return la - lb;
    }

    static String instructionAt(HloModule m, int t) {
        List<String> seq = m.sequence();
        return t >= 0 && t < seq.size() ? seq.get(t) : (t >= 0 && t == m.steps() - 1 ? "(end)" : null);
    }

    static String source(HloInstruction ins) {
        if (ins == null || ins.sourceFile() == null || ins.sourceFile().isEmpty()) return null;
        return ins.sourceLine() > 0 ? ins.sourceFile() + ":" + ins.sourceLine() : ins.sourceFile();
    }
}
