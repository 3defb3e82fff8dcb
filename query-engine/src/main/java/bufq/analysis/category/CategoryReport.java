package bufq.analysis.category;

import bufq.analysis.liveness.Steps;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.MemorySpace;
import bufq.table.ColumnType;
import bufq.units.Units;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code blame by category}: one row per category of the bytes occupied at one step, rows adding up to them. */
final class CategoryReport {
    private CategoryReport() {}

    /** What one category holds at the step. */
    private static final class Row {
        final String name;
        long bytes, donatedBytes, byKindBytes;
        int values, donated, byKind;
        HloValue largest;
        long largestShare = -1;

        Row(String name) { this.name = name; }
    }

    /** The row of the values offloaded to host memory, outside the device memory's sum. */
    static final String OFFLOADED = "offloaded (host)";

    static Table run(HloModule m, Classification c, int t, String at) {
        Occupied o = Occupied.at(m, t);
        int[] positions = o.positions();
        List<HloValue> live = o.live();
        long[] shares = o.shares();
        Map<String, Row> rows = new LinkedHashMap<>();
        for (String b : Builtin.ORDER) if (!b.equals(Builtin.PARAMETERS)) rows.put(b, new Row(b));
        long total = 0;
        for (int i = 0; i < positions.length; i++) {
            HloValue v = live.get(i);
            Row r = rows.computeIfAbsent(c.name(positions[i]), Row::new);
            long s = shares[i];
            total += s;
            r.bytes += s;
            r.values++;
            if (s > r.largestShare) { r.largestShare = s; r.largest = v; }
            BufferAllocation a = m.allocation(v.allocation());
            if (r.name.equals(Builtin.OUTPUTS) && a != null && a.isParameter()) { r.donated++; r.donatedBytes += s; }
            if (c.byKind(positions[i])) { r.byKind++; r.byKindBytes += s; }
        }
        List<Row> sorted = new ArrayList<>(rows.values());
        sorted.sort(Comparator.comparingLong((Row r) -> r.bytes).reversed().thenComparingInt(r -> Builtin.rank(r.name))
                .thenComparing(r -> r.name));
        String when = at.equals("peak") ? "peak step " + t : at.equals("claimed_peak") ? "the dump's peak label, step " + t : "step " + t;
        String live_ = at.equals("peak") || at.equals("claimed_peak") ? at : String.valueOf(t);
        String key = at.equals("peak") ? "bytes_occupied_at_peak_step" : at.equals("claimed_peak") ? "bytes_occupied_at_the_dump_s_peak_label"
                : "bytes_occupied_at_step";
        Table.Builder b = Table.builder().key(key)
                .title("bytes occupied at " + when + " (" + Steps.instructionAt(m, t) + ", " + Units.human(total) + ") by category")
                .column("category", ColumnType.STRING).column("bytes", ColumnType.BYTES).column("share", ColumnType.PERCENT)
                .column("values", ColumnType.INT).column("largest", ColumnType.STRING).column("largest_bytes", ColumnType.BYTES)
                .column("rule", ColumnType.STRING).column("statement", ColumnType.STRING);
        long byKindValues = 0, byKindBytes = 0;
        for (Row r : sorted) {
            byKindValues += r.byKind;
            byKindBytes += r.byKindBytes;
            b.row(r.name, r.bytes, total == 0 ? 0.0 : (double) r.bytes / total, (long) r.values,
                    r.largest == null ? null : r.largest.label(), r.largest == null ? null : r.largestShare,
                    rule(c, r), "values where category = \"" + r.name + "\" and live at " + live_);
        }
        // Values offloaded to host memory (colour 5, S(5)): not device bytes, so a row of their own outside the total.
        Occupied host = MemorySpace.several(m) ? Occupied.at(m, t, MemorySpace.HOST_OFFLOAD) : null;
        long hostBytes = 0;
        if (host != null && host.size() > 0) {
            HloValue largest = null;
            long largestShare = -1;
            for (int i = 0; i < host.size(); i++) {
                hostBytes += host.shares()[i];
                if (host.shares()[i] > largestShare) { largestShare = host.shares()[i]; largest = host.live().get(i); }
            }
            b.row(OFFLOADED, hostBytes, null, (long) host.size(), largest.label(), largestShare,
                    "in host memory (color " + MemorySpace.HOST_OFFLOAD + ", S(5) in the layout): not in " + MemorySpace.name(m, MemorySpace.DEVICE),
                    "values where color = " + MemorySpace.HOST_OFFLOAD + " and live at " + live_);
        }
        b.note("every byte occupied at the step in exactly one category, the first rule that holds (docs/commands.md, "
                + "'What is this memory?'); the rows add up to " + Units.human(total) + " (" + total + " B)"
                + (MemorySpace.several(m) ? " of " + MemorySpace.name(m, MemorySpace.DEVICE) + " (color 0); other memory spaces are not in them" : ""));
        if (hostBytes > 0)
            b.note("the " + OFFLOADED + " row is outside that sum: " + Units.human(hostBytes) + " offloaded to host memory at the step"
                    + " (JAX's host offload; memory_analysis counts it as host_temp_size_in_bytes), none of it in "
                    + MemorySpace.name(m, MemorySpace.DEVICE));
        if (!c.hasInstructions && !live.isEmpty()) {
            b.note("no op_name metadata (the dump has no Used values section): categories fall back to allocation kinds "
                    + "(parameters, outputs, constants, temporaries)");
        } else if (byKindValues > 0) {
            b.note(byKindValues + (byKindValues == 1 ? " entry parameter live here (" : " entry parameters live here (") + Units.human(byKindBytes)
                    + (byKindValues == 1 ? ") has" : ") have") + " no op_name and no role the dataflow shows: parameters");
        }
        return b.build();
    }

    /** The rule that put the row's values there, in a few words. */
    private static String rule(Classification c, Row r) {
        String user = c.ruleText(r.name);
        String builtin = switch (r.name) {
            case Builtin.WEIGHTS -> "entry parameters updated and read by the model, their copies";
            case Builtin.OPTIMIZER -> "entry parameters updated, not read by the model, their copies";
            case Builtin.INPUTS -> "other entry parameters, their copies";
            case Builtin.PARAMETERS -> "entry parameters without an op_name or a role";
            case Builtin.GATHERED -> "all-gathered copies of weights";
            case Builtin.OUTPUTS -> "live out of the program" + (r.donated > 0 ? "; " + r.donated + " in donated parameter buffers ("
                    + Units.human(r.donatedBytes) + ")" : "");
            case Builtin.RESIDUALS -> "forward values the backward pass reads";
            case Builtin.RECOMPUTED -> "forward values rematerialised for the backward pass";
            case Builtin.GRADIENTS -> "backward values shaped like a weight, flowing into its update";
            case Builtin.COTANGENTS -> "other values of the backward pass";
            case Builtin.COLLECTIVES -> "made or carried by a collective";
            case Builtin.CONSTANTS -> "constants";
            case Builtin.TEMPORARIES -> "everything else";
            default -> null;
        };
        if (user == null) return builtin;
        return user + (builtin == null ? "" : "; and the built-in rule: " + builtin);
    }
}
