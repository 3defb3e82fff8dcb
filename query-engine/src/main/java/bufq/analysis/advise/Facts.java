package bufq.analysis.advise;

import bufq.analysis.category.Categories;
import bufq.analysis.liveness.LiveValues;
import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloUse;
import bufq.model.HloValue;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.whatif.Edit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.Comparator;
import java.util.List;

/** What the rules ask of a module: its peak, the values live there, each value's instruction and uses. */
public final class Facts {
    private final HloModule module;
    private final Liveness liveness;
    private final List<HloValue> atPeak;

    private final List<Integer> twins;

    Facts(HloModule module) {
        this(module, List.of());
    }

    /**
     * Facts planned against the peak and its {@code twins} at once: steps nearly as high, where a
     * fix of the peak alone only moves the peak. {@link #atPeak} then holds the values live at any
     * of them, so one edit covers all.
     */
    Facts(HloModule module, List<Integer> twins) {
        this.module = module;
        this.liveness = Liveness.of(module);
        this.twins = List.copyOf(twins);
        int t = liveness.peakTime();
        Set<HloValue> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<HloValue> live = new ArrayList<>();
        if (t >= 0) for (HloValue v : LiveValues.inDevice(module, t)) if (seen.add(v)) live.add(v);
        for (int twin : this.twins) for (HloValue v : LiveValues.inDevice(module, twin)) if (seen.add(v)) live.add(v);
        live.sort(Comparator.comparingLong(HloValue::size).reversed());
        this.atPeak = List.copyOf(live);
    }

    /** Steps nearly as high as the peak that this plan covers too (empty for the peak alone). */
    public List<Integer> twins() { return twins; }

    public HloModule module() { return module; }
    public int peakTime() { return liveness.peakTime(); }
    public long peakBytes() { return liveness.peakBytes(); }

    /** Values live at the peak (and at its {@link #twins}), largest first. */
    public List<HloValue> atPeak() { return atPeak; }

    /** The op_name of the value's defining instruction, or "" when the dump has none. */
    public String opName(HloValue v) { return opName(module, v); }

    /** As {@link #opName(HloValue)}, for a module without its peak's facts. */
    static String opName(HloModule m, HloValue v) {
        HloInstruction i = m.instruction(v.name());
        return i == null || i.opName() == null ? "" : i.opName();
    }

    /** The value's built-in category ({@link Categories}: {@code weights}, {@code residuals}, ...), or null. */
    public String category(HloValue v) { return category(module, v); }

    /** As {@link #category(HloValue)}, for a module without its peak's facts. */
    static String category(HloModule m, HloValue v) { return Categories.of(m).of(m, v); }

    /** {@code file:line} of the value's defining instruction, or null. */
    public String source(HloValue v) {
        return source(module.instruction(v.name()));
    }

    /** {@code file:line} of {@code i}, or null (for none, or an instruction without source metadata). */
    static String source(HloInstruction i) {
        if (i == null || i.sourceFile() == null || i.sourceFile().isEmpty()) return null;
        return i.sourceLine() >= 0 ? i.sourceFile() + ":" + i.sourceLine() : i.sourceFile();
    }

    /** op_names of the instructions that read {@code v}. */
    public List<String> userOpNames(HloValue v) { return userOpNames(module, v); }

    /** As {@link #userOpNames(HloValue)}, for a module without its peak's facts. */
    static List<String> userOpNames(HloModule m, HloValue v) {
        List<String> out = new ArrayList<>();
        for (HloUse u : v.uses()) {
            HloInstruction i = m.instruction(u.user());
            if (i != null && i.opName() != null) out.add(i.opName());
        }
        return out;
    }

    /** Whether the dump lists a use of {@code v} at step {@code t}. */
    public boolean usedAt(HloValue v, int t) {
        for (HloUse u : v.uses()) if (module.timeOf(u.user()) == t) return true;
        return false;
    }

    /** The allocation holding {@code v}, or null. */
    public BufferAllocation allocation(HloValue v) { return module.allocation(v.allocation()); }

    /** A selection of exactly these values, by id. */
    public static Edit.Where byId(List<HloValue> vs) {
        return Edit.Where.ofIds(vs.stream().map(HloValue::id).toList());
    }
}
