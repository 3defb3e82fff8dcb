package bufq.model;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ForkJoinTask;

/**
 * One compiled HLO module as read from its dump files: allocations, values, instructions, the
 * schedule and live ranges, the dump's own claims, and indexes for the questions people ask.
 *
 * <p>Immutable once built; safe to share between threads.
 */
public final class HloModule {
    private final Info info;
    private final List<BufferAllocation> allocations;
    private final List<HloValue> values;
    private final List<HloInstruction> instructions;
    private final List<String> sequence;
    private final List<LoadWarning> warnings;
    private final int warningCount;
    private final List<HeapEvent> heapEvents;

    // Indexes kept lean (no boxed keys, no per-name lists for singletons): a loaded module should
    // take less memory than its dump text.
    private final long[] idsSorted;          // value ids ascending
    private final int[] idPositions;         // position in values of idsSorted[i]
    private final NameIndex<Object> valuesByName;  // HloValue, or HloValue[] when several
    private final BufferAllocation[] allocationByIndex;   // by allocation index (dense in every dump seen)
    private final Map<Integer, BufferAllocation> sparseAllocations;   // indexes past the dense table, if any
    // Values of each allocation as runs of one int array: positions of allocation i's values are
    // byAllocation[allocationStart[i] .. allocationStart[i+1]), i its slot in allocationSlots.
    private final int[] allocationKeys;     // distinct allocation numbers of values, ascending
    private final int[] allocationStart;
    private final int[] byAllocation;
    private final NameIndex<HloInstruction> instructionByName;
    private final IntervalIndex liveIndex;
    // Derived data, each computed once on first use and shared with copies under another handle.
    private final Lazy<Map<String, List<String>>> usersByOperand;
    private final Lazy<Liveness> liveness;

    /**
     * What the dump says about itself, beside the lists.
     *
     * @param handle            short name commands pick the module by
     * @param name              program name ({@code jit_step}), or the file stem
     * @param number            module number from {@code module_NNNN}, or -1
     * @param backend           {@code cpu}, {@code gpu}, {@code tpu} or {@code unknown}
     * @param files             the files read, in the order read
     * @param maxTime           T from {@code HloLiveRange (max T)}, or -1 without live ranges
     * @param claimedTotalBytes {@code Total bytes used}, or null
     * @param peakClaim         the dump's peak section, or null
     * @param stackTraceBytes   header figure of the stack-trace breakdown, or -1
     * @param stackTrace        root of the stack-trace tree, or null
     * @param colorTotals       per-colour totals from a memory usage report (may be empty)
     * @param hasValueDetails   the Used-values section was present
     * @param truncatedAt       where a truncated file stopped ({@code file:line}), or null
     */
    public record Info(String handle, String name, int number, String backend, List<String> files, int maxTime,
                       Long claimedTotalBytes, PeakClaim peakClaim, long stackTraceBytes, StackTraceNode stackTrace,
                       SortedMap<Integer, Long> colorTotals, boolean hasValueDetails, String truncatedAt) {
        public Info {
            files = List.copyOf(files);
            colorTotals = Collections.unmodifiableSortedMap(new TreeMap<>(colorTotals));
        }

        public Info withHandle(String h) {
            return new Info(h, name, number, backend, files, maxTime, claimedTotalBytes, peakClaim, stackTraceBytes,
                    stackTrace, colorTotals, hasValueDetails, truncatedAt);
        }
    }

    public HloModule(Info info, List<BufferAllocation> allocations, List<HloValue> values,
                  List<HloInstruction> instructions, List<String> sequence, List<LoadWarning> warnings) {
        this(info, allocations, values, instructions, sequence, warnings, warnings.size());
    }

    /**
     * @param warningCount how many warnings the reader raised; {@code warnings} keeps only the first
     *                     ones (the reader caps them), so this may be larger than its size
     */
    public HloModule(Info info, List<BufferAllocation> allocations, List<HloValue> values,
                  List<HloInstruction> instructions, List<String> sequence, List<LoadWarning> warnings,
                  int warningCount) {
        this(info, allocations, values, instructions, sequence, warnings, warningCount, List.of());
    }

    /** @param heapEvents the heap-simulator trace, in order (proto dumps; empty for text) */
    public HloModule(Info info, List<BufferAllocation> allocations, List<HloValue> values,
                  List<HloInstruction> instructions, List<String> sequence, List<LoadWarning> warnings,
                  int warningCount, List<HeapEvent> heapEvents) {
        this.info = info;
        this.heapEvents = List.copyOf(heapEvents);
        this.warningCount = Math.max(warningCount, warnings.size());
        this.valuesByName = new NameIndex<>(values.size());
        this.instructionByName = new NameIndex<>(instructions.size());
        this.allocations = List.copyOf(allocations);
        this.values = List.copyOf(values);
        this.instructions = List.copyOf(instructions);
        this.sequence = List.copyOf(sequence);
        this.warnings = List.copyOf(warnings);
        int dense = 0;
        for (BufferAllocation a : this.allocations) if (a.index() >= 0 && a.index() < 4 * this.allocations.size() + 16) dense = Math.max(dense, a.index() + 1);
        this.allocationByIndex = new BufferAllocation[dense];
        Map<Integer, BufferAllocation> sparse = new HashMap<>();
        for (BufferAllocation a : this.allocations) {
            if (a.index() >= 0 && a.index() < dense) allocationByIndex[a.index()] = a;   // the last of a repeated index, as before
            else sparse.put(a.index(), a);
        }
        this.sparseAllocations = sparse.isEmpty() ? Map.of() : sparse;
        int n = this.values.size();
        int[] starts = new int[n];
        int[] ends = new int[n];
        long[] keys = new long[n];
        long[] byAlloc = new long[n];   // (allocation, position) packed: sorted, they give each allocation's values in dump order
        for (int i = 0; i < n; i++) {
            HloValue v = this.values.get(i);
            keys[i] = v.id();
            byAlloc[i] = ((long) v.allocation() << 32) | i;
            starts[i] = v.hasRange() ? v.rangeStart() : 0;
            ends[i] = v.hasRange() ? v.rangeEnd() : -1;
        }
        // The sorted indexes are built on another core while this one fills the name tables
        // (a million-value module: about half a second each).
        ForkJoinTask<Sorted> sorted = ForkJoinTask.adapt(() -> new Sorted(keys, byAlloc, starts, ends)).fork();
        for (int i = 0; i < n; i++) {
            HloValue v = this.values.get(i);
            valuesByName.merge(v.name(), v, HloModule::appendValue);
        }
        for (HloInstruction ins : this.instructions) instructionByName.putIfAbsent(ins.name(), ins);
        Sorted x = sorted.tryUnfork() ? sorted.invoke() : sorted.join();
        this.allocationKeys = x.allocationKeys;
        this.allocationStart = x.allocationStart;
        this.byAllocation = x.byAllocation;
        this.idsSorted = x.idsSorted;
        this.idPositions = x.idPositions;
        this.liveIndex = x.liveIndex;
        this.usersByOperand = new Lazy<>(this::buildUsers);
        this.liveness = new Lazy<>(() -> Liveness.of(this));
    }

    /** The indexes that come from sorting: by allocation, by id, by time. */
    private static final class Sorted {
        final int[] allocationKeys, allocationStart, byAllocation;
        final long[] idsSorted;
        final int[] idPositions;
        final IntervalIndex liveIndex;

        Sorted(long[] keys, long[] byAlloc, int[] starts, int[] ends) {
            int n = keys.length;
            Arrays.sort(byAlloc);
            int distinct = 0;
            for (int i = 0; i < n; i++) if (i == 0 || (int) (byAlloc[i] >> 32) != (int) (byAlloc[i - 1] >> 32)) distinct++;
            allocationKeys = new int[distinct];
            allocationStart = new int[distinct + 1];
            byAllocation = new int[n];
            for (int i = 0, k = -1; i < n; i++) {
                int a = (int) (byAlloc[i] >> 32);
                if (k < 0 || allocationKeys[k] != a) { allocationKeys[++k] = a; allocationStart[k] = i; }
                byAllocation[i] = (int) byAlloc[i];
            }
            allocationStart[distinct] = n;
            // Ids sorted with their positions; the first of equal ids wins, as before.
            long[] packedOrder = sortByKey(keys);
            idsSorted = new long[n];
            idPositions = new int[n];
            for (int i = 0; i < n; i++) {
                idPositions[i] = (int) packedOrder[i];
                idsSorted[i] = keys[idPositions[i]];
            }
            liveIndex = new IntervalIndex(starts, ends);
        }
    }

    public Info info() { return info; }
    public String handle() { return info.handle(); }
    public List<BufferAllocation> allocations() { return allocations; }
    public List<HloValue> values() { return values; }
    /** Sequenced instructions in time order, then the others. */
    public List<HloInstruction> instructions() { return instructions; }
    /** Instruction names by time. */
    public List<String> sequence() { return sequence; }
    /** The warnings kept in memory (the first ones; see {@link #warningCount()}). */
    public List<LoadWarning> warnings() { return warnings; }
    /** All warnings raised while loading, including those not kept. */
    public int warningCount() { return warningCount; }
    /** The heap-simulator trace in simulation order; empty unless read from a proto that has one. */
    public List<HeapEvent> heapEvents() { return heapEvents; }

    /** The same module under another handle; it shares this one's lists and indexes (no rebuild). */
    public HloModule withHandle(String handle) {
        return new HloModule(this, info.withHandle(handle), warnings, warningCount);
    }

    /**
     * The same module with other load warnings (the reader's, once the indexes showed what only
     * they can, such as values sharing an id); it shares this one's lists and indexes.
     *
     * @param count all warnings, including those not kept
     */
    public HloModule withWarnings(List<LoadWarning> kept, int count) {
        return new HloModule(this, info, List.copyOf(kept), count);
    }

    private HloModule(HloModule m, Info info, List<LoadWarning> warnings, int warningCount) {
        this.info = info;
        this.allocations = m.allocations;
        this.values = m.values;
        this.instructions = m.instructions;
        this.sequence = m.sequence;
        this.warnings = warnings;
        this.warningCount = warningCount;
        this.heapEvents = m.heapEvents;
        this.idsSorted = m.idsSorted;
        this.idPositions = m.idPositions;
        this.valuesByName = m.valuesByName;
        this.allocationByIndex = m.allocationByIndex;
        this.sparseAllocations = m.sparseAllocations;
        this.allocationKeys = m.allocationKeys;
        this.allocationStart = m.allocationStart;
        this.byAllocation = m.byAllocation;
        this.instructionByName = m.instructionByName;
        this.liveIndex = m.liveIndex;
        this.usersByOperand = m.usersByOperand;
        this.liveness = m.liveness;
    }

    private static Object appendValue(Object old, Object v) {
        if (old instanceof HloValue h) return new HloValue[] {h, (HloValue) v};
        HloValue[] a = (HloValue[]) old;
        HloValue[] b = Arrays.copyOf(a, a.length + 1);
        b[a.length] = (HloValue) v;
        return b;
    }

    /** Positions 0..n-1 ordered by key (stable), without boxing. */
    private static long[] sortByKey(long[] keys) {
        int n = keys.length;
        boolean sorted = true;
        for (int i = 1; i < n && sorted; i++) sorted = keys[i - 1] <= keys[i];
        long[] out = new long[n];
        if (sorted) {
            for (int i = 0; i < n; i++) out[i] = i;
            return out;
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Long.compare(keys[a], keys[b]));
        for (int i = 0; i < n; i++) out[i] = order[i];
        return out;
    }

    /**
     * Groups of values that share an id, in id order (a damaged dump: ids are unique in XLA's);
     * empty for a sound module. {@link #value} answers with the first of each group.
     */
    public List<List<HloValue>> valuesSharingAnId() {
        List<List<HloValue>> out = new ArrayList<>();
        for (int i = 1; i < idsSorted.length; i++) {
            if (idsSorted[i] != idsSorted[i - 1] || (i > 1 && idsSorted[i - 2] == idsSorted[i])) continue;
            List<HloValue> group = new ArrayList<>();
            for (int j = i - 1; j < idsSorted.length && idsSorted[j] == idsSorted[i]; j++) group.add(values.get(idPositions[j]));
            out.add(group);
        }
        return out;
    }

    public HloValue value(long id) {
        int i = Arrays.binarySearch(idsSorted, id);
        if (i < 0) return null;
        while (i > 0 && idsSorted[i - 1] == id) i--;   // first of equal ids
        return values.get(idPositions[i]);
    }

    /** Values defined by the named instruction (all its shape indices). */
    public List<HloValue> valuesNamed(String name) {
        Object o = valuesByName.get(name);
        if (o == null) return List.of();
        if (o instanceof HloValue h) return List.of(h);
        return List.of((HloValue[]) o);
    }

    /** The value with this (name, index) key, e.g. {@code fusion{0}} or {@code add.3{}}; a bare name means {@code {}}. */
    public HloValue valueByKey(String key) {
        int brace = key.endsWith("}") ? key.lastIndexOf('{') : -1;
        String name = brace < 0 ? key : key.substring(0, brace);
        String index = brace < 0 ? "{}" : key.substring(brace);
        Object o = valuesByName.get(name);
        if (o instanceof HloValue h) return h.index().equals(index) ? h : null;
        if (o instanceof HloValue[] a) for (HloValue h : a) if (h.index().equals(index)) return h;
        return null;
    }
    public BufferAllocation allocation(int index) {
        if (index >= 0 && index < allocationByIndex.length) return allocationByIndex[index];
        return sparseAllocations.get(index);
    }

    /** Values held by the allocation, in dump order. */
    public List<HloValue> valuesIn(int allocation) {
        int k = Arrays.binarySearch(allocationKeys, allocation);
        if (k < 0) return List.of();
        int from = allocationStart[k], size = allocationStart[k + 1] - from;
        return new ValuesIn(from, size);
    }

    /** A read-only view of one allocation's values (no copy: `num_values` asks only its size). */
    private final class ValuesIn extends AbstractList<HloValue> implements RandomAccess {
        private final int from, size;

        ValuesIn(int from, int size) { this.from = from; this.size = size; }

        @Override public HloValue get(int i) {
            Objects.checkIndex(i, size);
            return values.get(byAllocation[from + i]);
        }

        @Override public int size() { return size; }
    }
    public HloInstruction instruction(String name) { return instructionByName.get(name); }
    /** Names of instructions that take {@code name} as an operand. */
    public List<String> users(String name) {
        return usersByOperand.get().getOrDefault(name, List.of());
    }

    private Map<String, List<String>> buildUsers() {
        Map<String, List<String>> u = new HashMap<>();
        for (HloInstruction ins : instructions) {
            for (String op : ins.operands()) u.computeIfAbsent(op, k -> new ArrayList<>(2)).add(ins.name());
        }
        return u;
    }

    /** Time of the named instruction in the sequence, or -1. */
    public int timeOf(String instruction) {
        HloInstruction i = instructionByName.get(instruction);
        return i == null ? -1 : i.time();
    }

    /** Number of program points (0 when the dump has no schedule). */
    public int steps() { return info.maxTime() < 0 ? 0 : info.maxTime() + 1; }

    /** Values live at {@code t}, via the interval index, in dump order. */
    public List<HloValue> liveAt(int t) { return liveDuring(t, t); }

    /** Values whose range overlaps {@code [from, to]}, in dump order. */
    public List<HloValue> liveDuring(int from, int to) {
        int[] ids = liveIndex.during(from, to);
        List<HloValue> out = new ArrayList<>(ids.length);
        for (int i : ids) out.add(values.get(i));
        return out;
    }

    /** Positions (in {@link #values()}) of the values live during {@code [from, to]}. */
    public int[] livePositions(int from, int to) { return liveIndex.during(from, to); }

    /**
     * Live and occupied bytes per step, the peak and the dump's claimed peak: computed once for this
     * module (and its copies under other handles) by one sweep, then shared. See {@link Liveness}.
     *
     * @throws ArithmeticException when a byte sum overflows a long (not kept: asked again, it fails again)
     */
    public Liveness liveness() { return liveness.get(); }

    /** Sum of allocation sizes. */
    public long totalBytes() {
        long s = 0;
        for (BufferAllocation a : allocations) s = Math.addExact(s, a.size());
        return s;
    }

    /** Distinct colours of allocations and values, ascending (from {@link #liveness()}). */
    public List<Integer> colors() { return liveness().colors(); }
}
