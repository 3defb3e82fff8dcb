package bufq.analysis.whatif;

import bufq.model.HloModuleBuilder;
import bufq.units.Units;
import bufq.analysis.liveness.LiveValues;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.Shape;
import bufq.analysis.liveness.Liveness;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Arrays;

/**
 * What a what-if changed: the module's liveness before and after the edits, each edit's effect, and
 * the edited ranges. Immutable.
 *
 * @param before  the module's own liveness
 * @param after   the liveness of the edited copy
 * @param effects one per edit, in order
 * @param ranges  the edited copy's entries
 */
public record Outcome(HloModule module, Liveness before, Liveness after, List<Effect> effects, Ranges ranges) {
    /** What a what-if figure is; printed under the report, and a column so every format carries it. */
    public static final String BOUND = "a bound under the current schedule and offsets: ranges and sizes move, XLA's scheduler and buffer assignment do not re-run";

    /** Rows listed of the values that leave or enter the peak set. */
    public static final int LISTED = 10;

    /**
     * One edit's effect.
     *
     * @param values    how many values it selected
     * @param bytes     their assigned bytes before the edit
     * @param peakAfter peak occupied bytes once this edit and those before it are applied
     * @param saved     how much this edit lowered the peak (negative when it raised it)
     */
    public record Effect(Edit edit, int values, long bytes, long peakAfter, long saved) {}

    /**
     * The edited copy: entry {@code k} belongs to value {@code owner[k]} (a position in the module's
     * values; a rematerialised value has two entries) and lives {@code start[k]..end[k]} (not at all
     * when {@code end < start}) with {@code size[k]} bytes.
     */
    public record Ranges(int[] owner, int[] start, int[] end, long[] size, long[] logical) {}

    /** Peak occupied bytes before minus after: what the edits save (negative when they cost). */
    public long saved() { return before.peakBytes() - after.peakBytes(); }

    /** Positions of the values live at the peak of the edited copy. */
    public BitSet peakSetAfter() {
        BitSet s = new BitSet(module.values().size());
        int t = after.peakTime();
        for (int k = 0; k < ranges.owner().length; k++)
            if (ranges.start()[k] <= t && t <= ranges.end()[k] && ranges.size()[k] > 0) s.set(ranges.owner()[k]);
        return s;
    }

    /** Positions of the values live at the module's own peak. */
    public BitSet peakSetBefore() {
        BitSet s = new BitSet(module.values().size());
        int t = before.peakTime();
        for (int i : LiveValues.positions(module, t, t)) s.set(i);
        return s;
    }

    /** The report {@code whatif} prints: the peak before and after, each edit, the values leaving and entering the peak set. */
    public List<Output> report() {
        List<Output> out = new ArrayList<>();
        Table.Builder peak = Table.builder().key("whatif").title("whatif (" + module.handle() + ")")
                .column("case", ColumnType.STRING).column("peak_step", ColumnType.INT).column("instruction", ColumnType.STRING)
                .column("occupied_bytes", ColumnType.BYTES).column("live_bytes", ColumnType.BYTES).column("live_values", ColumnType.INT)
                .column("basis", ColumnType.STRING).column("module", ColumnType.KEY);
        peak.row(caseRow("now", before, "as compiled"));
        peak.row(caseRow("what if", after, "bound under the current schedule"));
        long b = before.peakBytes(), a = after.peakBytes();
        peak.note(String.format("peak %s -> %s (%s%s), step %d -> %d", Units.human(b), Units.human(a),
                a <= b ? "saves " + Units.human(b - a) : "costs " + Units.human(a - b),
                b == 0 ? "" : String.format(", %+.1f%%", 100.0 * (a - b) / b), before.peakTime(), after.peakTime()));
        peak.note(BOUND);
        out.add(peak.build());

        Table.Builder edits = Table.builder().key("edits").title("edits")
                .column("edit", ColumnType.STRING).column("values", ColumnType.INT).column("bytes", ColumnType.BYTES)
                .column("peak_after", ColumnType.BYTES).column("saves", ColumnType.BYTES);
        for (Effect e : effects) edits.row(e.edit().text(), (long) e.values(), e.bytes(), e.peakAfter(), e.saved());
        out.add(edits.build());

        BitSet was = peakSetBefore(), is = peakSetAfter();
        BitSet left = (BitSet) was.clone();
        left.andNot(is);
        BitSet entered = (BitSet) is.clone();
        entered.andNot(was);
        out.add(valueList("leave the peak set", "leave_the_peak_set", left));
        out.add(valueList("enter the peak set", "enter_the_peak_set", entered));
        return out;
    }

    private List<Object> caseRow(String name, Liveness l, String basis) {
        int t = l.peakTime();
        List<String> seq = module.sequence();
        return Arrays.asList(name, (long) t, t >= 0 && t < seq.size() ? seq.get(t) : null, l.peakBytes(),
                l.liveBytes(t), (long) l.liveValues(t), basis, module.handle());
    }

    private Table valueList(String title, String key, BitSet which) {
        List<Integer> ps = new ArrayList<>();
        long bytes = 0;
        for (int i = which.nextSetBit(0); i >= 0; i = which.nextSetBit(i + 1)) {
            ps.add(i);
            bytes = Math.addExact(bytes, module.values().get(i).size());
        }
        ps.sort(Comparator.comparingLong((Integer i) -> -module.values().get(i).size()).thenComparingInt(i -> i));
        Table.Builder t = Table.builder().key(key).title(title)
                .column("id", ColumnType.INT).column("label", ColumnType.STRING).column("size", ColumnType.BYTES)
                .column("shape", ColumnType.STRING).column("range", ColumnType.STRING).column("range_after", ColumnType.STRING);
        for (int i : ps.subList(0, Math.min(LISTED, ps.size()))) {
            HloValue v = module.values().get(i);
            t.row(v.id(), v.label(), v.size(), v.shape() == null ? null : v.shape().text(),
                    v.hasRange() ? v.rangeStart() + ".." + v.rangeEnd() : null, rangesAfter(i));
        }
        t.note(ps.size() + (ps.size() == 1 ? " value, " : " values, ") + Units.human(bytes)
                + (ps.size() > LISTED ? "; the " + LISTED + " largest listed" : ""));
        return t.build();
    }

    /**
     * The edited copy as a module of its own, for queries ({@code whatif ...; steps order by
     * occupied_bytes desc}): dropped values are gone, a rematerialised value appears once per part
     * (same id), sizes and ranges are the edited ones. Its handle says it is a what-if.
     */
    public HloModule editedModule() {
        List<HloValue> vs = new ArrayList<>(ranges.owner().length);
        for (int k = 0; k < ranges.owner().length; k++) {
            HloValue v = module.values().get(ranges.owner()[k]);
            if (ranges.size()[k] == 0 && v.size() != 0) continue;
            boolean ranged = ranges.end()[k] >= ranges.start()[k];
            // A scaled or resized value keeps its shape's text but weighs its edited logical bytes.
            Shape shape = v.shape() == null || ranges.logical()[k] == v.logicalSize() ? v.shape()
                    : v.shape().withLogicalBytes(ranges.logical()[k]);
            vs.add(new HloValue(v.id(), v.name(), v.index(), v.indexPrinted(), v.phi(), v.color(), ranges.size()[k], v.offset(),
                    v.allocation(), shape, v.positions(), v.uses(),
                    ranged ? new LiveRange(ranges.start()[k], ranges.end()[k]) : null));
        }
        return new HloModuleBuilder(module.info().withHandle(module.handle() + " (what if)"))
                .allocations(module.allocations()).values(vs).instructions(module.instructions())
                .sequence(module.sequence()).warnings(module.warnings(), module.warningCount()).build();
    }

    /** The value's range(s) in the edited copy, e.g. {@code 3..9, 40..52}, or {@code dropped}. */
    private String rangesAfter(int position) {
        List<String> parts = new ArrayList<>();
        int n = module.values().size();
        boolean held = false;   // some part still has bytes: "dropped" only when none has
        for (int k = position; k < ranges.owner().length; k = Math.max(k + 1, n)) {
            if (ranges.owner()[k] != position) continue;
            if (ranges.size()[k] != 0) held = true;
            if (ranges.end()[k] >= ranges.start()[k] && ranges.size()[k] != 0) parts.add(ranges.start()[k] + ".." + ranges.end()[k]);
        }
        if (!held) return "dropped";
        return parts.isEmpty() ? null : String.join(", ", parts);
    }
}
