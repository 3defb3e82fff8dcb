package bufq.analysis.diff;

import bufq.analysis.sharding.ShardingChanges;
import bufq.analysis.category.Categories;
import bufq.analysis.category.CategoryRules;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.diff.DiffResult.GroupChange;
import bufq.analysis.diff.DiffResult.Peak;
import bufq.analysis.diff.DiffResult.Renamed;
import bufq.analysis.diff.DiffResult.SummaryRow;
import bufq.analysis.diff.DiffResult.Unmatched;
import bufq.analysis.diff.DiffResult.Where;
import bufq.lang.NearNames;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Compares two compilations of one program (a flag, a jaxlib upgrade, a code change): peaks and
 * totals, bytes live at peak per op_name and per source line, and values present on one side only.
 *
 * <p>Instruction names differ between compilations, so values are matched on what survives:
 * (op_name, source line, shape, role) as a multiset key, pairing equal keys in schedule order.
 */
public final class ModuleDiff {
    /** Allocation kinds ({@link BufferAllocation#kind()}) folded into the summary's rows, in row order. */
    private static final Map<String, String> KIND_ROWS = new LinkedHashMap<>();
    static {
        KIND_ROWS.put("parameter", "parameters");
        KIND_ROWS.put("parameter-live-out", "parameters");
        KIND_ROWS.put("output", "outputs");
        KIND_ROWS.put("live-out", "outputs");
        KIND_ROWS.put("temp", "temps");
        KIND_ROWS.put("constant", "constants");
        KIND_ROWS.put("thread-local", "thread-local");
    }

    private ModuleDiff() {}

    /** The key {@code diff} matches value {@code v} of {@code m} by (it reads the Used values section). */
    public static MatchKey keyOf(HloModule m, HloValue v) {
        return Side.keyOf(m, v);
    }

    public static DiffResult compare(HloModule before, HloModule after) {
        return compare(before, after, DiffOptions.DEFAULT);
    }

    public static DiffResult compare(HloModule before, HloModule after, DiffOptions options) {
        Objects.requireNonNull(options, "options");
        String[] labels = labels(before, after);
        Side b = new Side(before, options.atPeak());
        Side a = new Side(after, options.atPeak());
        List<Unmatched> unmatched = unmatched(b, a);
        List<String> caveats = caveats("before", before, b);
        caveats.addAll(caveats("after", after, a));
        boolean sources = hasSources(b) || hasSources(a);
        return new DiffResult(labels[0], labels[1], options, peak(b), peak(a), summary(b, a, options.atPeak()),
                groups(b, a, f -> f.key().opGroup()),
                sources ? groups(b, a, f -> f.key().source()) : List.of(), unmatched, renamed(unmatched), caveats, sources,
                byCategory(b, a), ShardingChanges.between(before, after));
    }

    /** What the memory is at each side's peak: the categories' occupied bytes, each byte once, so each side's rows add up to its peak. */
    private static List<GroupChange> byCategory(Side b, Side a) {
        Map<String, long[]> acc = new LinkedHashMap<>();
        int side = 0;
        for (Side s : List.of(b, a)) {
            if (s.peakTime >= 0) {
                Categories c = Categories.of(s.module);
                for (Map.Entry<String, Long> e : Categories.bytesAt(s.module, CategoryRules.NONE, s.peakTime).entrySet())
                    acc.computeIfAbsent(e.getKey(), k -> new long[4])[side] = e.getValue();
                for (int p : LiveValues.positions(s.module, s.peakTime, s.peakTime)) acc.computeIfAbsent(c.name(p), k -> new long[4])[side + 2]++;
            }
            side++;
        }
        List<GroupChange> out = new ArrayList<>();
        acc.forEach((g, v) -> out.add(new GroupChange(g, v[0], v[1], (int) v[2], (int) v[3])));
        out.sort(Comparator.comparingLong((GroupChange g) -> -Math.abs(g.change())).thenComparingLong(g -> -g.after()).thenComparing(GroupChange::group));
        return out;
    }

    private static boolean hasSources(Side s) {
        for (Side.Fact f : s.all) if (!Side.NONE.equals(f.key().source())) return true;
        return false;
    }

    /** What limits the comparison on one side, so the report says it instead of showing zeros. */
    private static List<String> caveats(String side, HloModule m, Side s) {
        List<String> out = new ArrayList<>();
        if (s.peakTime < 0) out.add(side + ": no live ranges, so no peak and nothing live at it");
        if (!m.info().hasValueDetails() && !m.values().isEmpty())
            out.add(side + ": no Used-values section, so no op_name or source; values match on shape and role only");
        if (m.allocations().stream().anyMatch(al -> !al.sizeExact()))
            out.add(side + ": allocation sizes rounded (known only from a memory usage report)");
        if (m.warningCount() > 0) out.add(side + ": " + m.warningCount() + " load warning" + (m.warningCount() == 1 ? "" : "s"));
        return out;
    }


    private static Peak peak(Side s) {
        return new Peak(s.peakTime, s.module.steps(), s.claimedPeak, s.recomputedPeak, Liveness.of(s.module).claimedPeakTime());
    }

    /** Handles, or {@code dir/handle} when both modules share a handle (the same program twice). */
    private static String[] labels(HloModule before, HloModule after) {
        String hb = before.handle(), ha = after.handle();
        if (!Objects.equals(hb, ha)) return new String[] {hb, ha};
        String db = dirOf(before), da = dirOf(after);
        if (db == null || da == null || db.equals(da)) return new String[] {hb, ha};
        return new String[] {db + "/" + hb, da + "/" + ha};
    }

    private static String dirOf(HloModule m) {
        if (m.info().files().isEmpty()) return null;
        Path parent = Path.of(m.info().files().get(0)).getParent();
        return parent == null || parent.getFileName() == null ? null : parent.getFileName().toString();
    }

    // ---- summary

    private static List<SummaryRow> summary(Side b, Side a, boolean atPeak) {
        List<SummaryRow> rows = new ArrayList<>();
        rows.add(new SummaryRow("peak, occupied", b.recomputedPeak, a.recomputedPeak));
        rows.add(new SummaryRow("claimed peak (dump's label)", b.claimedPeak, a.claimedPeak));
        TreeSet<Integer> colors = new TreeSet<>(Liveness.of(b.module).colors());
        colors.addAll(Liveness.of(a.module).colors());
        for (int c : colors) {
            rows.add(new SummaryRow("peak, occupied, colour " + c, peakOfColor(b, c), peakOfColor(a, c)));
        }
        for (int c : colors) {
            rows.add(new SummaryRow("allocated, colour " + c, allocatedOfColor(b.module, c), allocatedOfColor(a.module, c)));
        }
        rows.add(new SummaryRow("allocated, total", b.module.totalBytes(), a.module.totalBytes()));
        Map<String, Long> kb = byKind(b, atPeak), ka = byKind(a, atPeak);
        for (String row : List.copyOf(new LinkedHashSet<>(KIND_ROWS.values()))) {
            String measure = atPeak ? row + ", live at peak" : row + ", allocated";
            rows.add(new SummaryRow(measure, kb.getOrDefault(row, 0L), ka.getOrDefault(row, 0L)));
        }
        return rows;
    }

    /** Bytes of {@code color} occupied at the side's peak step (0 when the side has no such colour). */
    private static Long peakOfColor(Side s, int color) {
        if (s.recomputedPeak == null) return null;
        return Liveness.of(s.module).colors().contains(color) ? Liveness.of(s.module).occupiedBytes(s.peakTime, color) : 0L;
    }

    private static long allocatedOfColor(HloModule m, int color) {
        long sum = 0;
        for (BufferAllocation al : m.allocations()) if (al.color() == color) sum = Math.addExact(sum, al.size());
        return sum;
    }

    /** Allocation bytes per summary row, or under {@code atPeak} logical bytes live at peak per row. */
    private static Map<String, Long> byKind(Side s, boolean atPeak) {
        Map<String, Long> out = new TreeMap<>();
        if (atPeak) {
            for (Side.Fact f : s.atPeak) out.merge(KIND_ROWS.getOrDefault(f.allocationKind(), "temps"), f.bytes(), Math::addExact);
        } else {
            for (BufferAllocation al : s.module.allocations())
                out.merge(KIND_ROWS.getOrDefault(al.kind(), "temps"), al.size(), Math::addExact);
        }
        return out;
    }

    // ---- bytes live at peak per group

    private static List<GroupChange> groups(Side b, Side a, Function<Side.Fact, String> key) {
        Map<String, long[]> acc = new TreeMap<>(); // group -> {bytesBefore, bytesAfter, nBefore, nAfter}
        for (Side.Fact f : b.atPeak) add(acc.computeIfAbsent(key.apply(f), k -> new long[4]), 0, f.bytes());
        for (Side.Fact f : a.atPeak) add(acc.computeIfAbsent(key.apply(f), k -> new long[4]), 1, f.bytes());
        List<GroupChange> out = new ArrayList<>();
        acc.forEach((g, v) -> {
            if (v[0] != v[1]) out.add(new GroupChange(g, v[0], v[1], (int) v[2], (int) v[3]));
        });
        out.sort(Comparator.comparingLong((GroupChange g) -> -Math.abs(g.change())).thenComparing(GroupChange::group));
        return out;
    }

    private static void add(long[] cell, int side, long bytes) {
        cell[side] = Math.addExact(cell[side], bytes);
        cell[side + 2]++;
    }

    // ---- values on one side only

    private static List<Unmatched> unmatched(Side b, Side a) {
        Map<MatchKey, List<HloValue>> kb = byKey(b.selected), ka = byKey(a.selected);
        // Insertion order is enough here: the result is sorted below on a total order.
        LinkedHashSet<MatchKey> keys = new LinkedHashSet<>(kb.keySet());
        keys.addAll(ka.keySet());
        List<Unmatched> out = new ArrayList<>();
        for (MatchKey k : keys) {
            List<HloValue> vb = kb.getOrDefault(k, List.of()), va = ka.getOrDefault(k, List.of());
            int paired = Math.min(vb.size(), va.size());
            leftover(out, Where.BEFORE, k, vb.subList(paired, vb.size()));
            leftover(out, Where.AFTER, k, va.subList(paired, va.size()));
        }
        out.sort(Comparator.comparingLong((Unmatched u) -> -u.bytes()).thenComparing(Unmatched::where)
                .thenComparing(Unmatched::key));
        return out;
    }

    private static Map<MatchKey, List<HloValue>> byKey(List<Side.Fact> facts) {
        Map<MatchKey, List<HloValue>> m = new LinkedHashMap<>();
        for (Side.Fact f : facts) m.computeIfAbsent(f.key(), k -> new ArrayList<>()).add(f.value());
        return m;
    }

    private static void leftover(List<Unmatched> out, Where where, MatchKey k, List<HloValue> values) {
        if (values.isEmpty()) return;
        List<String> names = new ArrayList<>(values.size());
        for (HloValue v : values) names.add(v.label());
        HloValue first = values.get(0);
        out.add(new Unmatched(where, k, values.size(), first.shape() == null ? 0 : first.logicalSize(), names));
    }

    /**
     * Pairs leftovers that differ only in op_name context, largest first, each row used once; among
     * several candidates the closest op_name (edit distance) wins.
     */
    static List<Renamed> renamed(List<Unmatched> unmatched) {
        // Candidates share everything but the op_name's context: bucket them so the distance is only
        // computed within a bucket (two unrelated programs can leave thousands of rows).
        Map<List<Object>, List<Unmatched>> after = new HashMap<>();
        for (Unmatched u : unmatched) if (u.where() == Where.AFTER) after.computeIfAbsent(renameKey(u), k -> new ArrayList<>()).add(u);
        List<Renamed> out = new ArrayList<>();
        for (Unmatched u : unmatched) {
            if (u.where() != Where.BEFORE) continue;
            List<Unmatched> candidates = after.get(renameKey(u));
            if (candidates == null || candidates.isEmpty()) continue;
            int best = 0, bestDistance = Integer.MAX_VALUE;
            for (int i = 0; i < candidates.size(); i++) {
                int d = NearNames.editDistance(u.key().opGroup(), candidates.get(i).key().opGroup());
                if (d < bestDistance) { best = i; bestDistance = d; }
            }
            out.add(new Renamed(u, candidates.remove(best)));
        }
        return out;
    }

    private static List<Object> renameKey(Unmatched u) {
        MatchKey k = u.key();
        return List.of(k.shape(), k.role(), k.source(), u.count(), primitive(k.opGroup()));
    }


    /** The last path part of an op_name ({@code jit(step)/jvp()/div} gives {@code div}). */
    static String primitive(String opName) {
        return opName.substring(opName.lastIndexOf('/') + 1);
    }
}
