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
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One compiled HLO module as read from its dump files: allocations, values, instructions, the
 * schedule and live ranges, the dump's own claims, and indexes for the questions people ask.
 * Immutable once built; safe to share between threads.
 *
 * <p>One part may be read after the rest: the {@code Used values} section (each value's positions
 * and uses, and the instructions' text), behind {@link #usedValues()}, a handle the dump reader
 * makes; {@link LoadOptions} says whether the load reads it now. The rule for what needs it: a
 * getter that needs the section reads it on first use, always (never an empty answer for "not
 * read yet"); those getters say so, and a failed read there is a {@link PartReadException.Unchecked}.
 * Clients read it up front with {@link UsedValues.Handle#read()} before running what needs it, so
 * a failure (cancelled, a file changed) comes as one checked {@link PartReadException}.
 */
public final class HloModule {
    private final Info info;
    private final List<BufferAllocation> allocations;
    private final List<HloValue> values;
    private final List<String> sequence;
    // Instructions, and the values' positions and uses: read with the module or on first use.
    private final UsedValues.Handle details;
    private final List<LoadWarning> warnings;
    private final int warningCount;
    private final Lazy<List<HeapEvent>> heapEvents;   // the trace's events are made on first use

    // Indexes kept lean (no boxed keys, no per-name lists for singletons): a loaded module should
    // take less memory than its dump text.
    // Ids ascending with their values' positions: built on first use (a lookup by id; `summary` makes
    // none: a million values' sort, a tenth of a second of its load).
    private final Lazy<IdIndex> byId;
    private final boolean idsMayRepeat;   // false: no two values share an id (known without the index)
    private final Lazy<NameIndex<Object>> valuesByName;  // HloValue, or HloValue[] when several; built on first use
    private final BufferAllocation[] allocationByIndex;   // by allocation index (dense in every dump seen)
    private final Map<Integer, BufferAllocation> sparseAllocations;   // indexes past the dense table, if any
    // Values of each allocation as runs of one int array: positions of allocation i's values are
    // byAllocation[allocationStart[i] .. allocationStart[i+1]), i its slot in allocationSlots.
    private final int[] allocationKeys;     // distinct allocation numbers of values, ascending
    private final int[] allocationStart;
    private final int[] byAllocation;
    private final Lazy<NameIndex<Integer>> firstTime;   // sequence names to their first step, built on first use
    // Liveness and the index by time, computed by bufq.analysis.liveness on first use and shared with copies
    // under another handle.
    private final Derived derived;

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
     * @param colorTotals       per-colour totals from a memory usage report (may be empty); spaceNames its names of them
     * @param hasValueDetails   the Used-values section was present
     * @param truncatedAt       where a truncated file stopped ({@code file:line}), or null
     * @param jaxVersion        the JAX version the dump records (a profile capture's), or null
     * @param jaxlibVersion     the jaxlib version it records, or null
     */
    public record Info(String handle, String name, int number, String backend, List<String> files, int maxTime,
                       Long claimedTotalBytes, PeakClaim peakClaim, long stackTraceBytes, StackTraceNode stackTrace,
                       SortedMap<Integer, Long> colorTotals, boolean hasValueDetails, String truncatedAt, String format,
                       String jaxVersion, String jaxlibVersion, SortedMap<Integer, String> spaceNames) {
        /**
         * What a module was read from: {@code text}, {@code hlo-proto}, {@code assignment-proto},
         * {@code profile}, or {@code report-proto} (a memory usage report proto without its module).
         */
        public static final String TEXT = "text", HLO_PROTO = "hlo-proto", ASSIGNMENT_PROTO = "assignment-proto", PROFILE = "profile",
                REPORT_PROTO = "report-proto";

        public Info {
            files = List.copyOf(files);
            colorTotals = Collections.unmodifiableSortedMap(new TreeMap<>(colorTotals));
            spaceNames = Collections.unmodifiableSortedMap(spaceNames == null ? new TreeMap<>() : new TreeMap<>(spaceNames));
            if (format == null) format = TEXT;
        }

        /** A module read from text. */
        public Info(String handle, String name, int number, String backend, List<String> files, int maxTime,
                    Long claimedTotalBytes, PeakClaim peakClaim, long stackTraceBytes, StackTraceNode stackTrace,
                    SortedMap<Integer, Long> colorTotals, boolean hasValueDetails, String truncatedAt) {
            this(handle, name, number, backend, files, maxTime, claimedTotalBytes, peakClaim, stackTraceBytes, stackTrace,
                    colorTotals, hasValueDetails, truncatedAt, TEXT, null, null, null);
        }

        public Info withHandle(String h) {
            return new Info(h, name, number, backend, files, maxTime, claimedTotalBytes, peakClaim, stackTraceBytes,
                    stackTrace, colorTotals, hasValueDetails, truncatedAt, format, jaxVersion, jaxlibVersion, spaceNames);
        }

        public Info withVersions(String jax, String jaxlib) {
            return new Info(handle, name, number, backend, files, maxTime, claimedTotalBytes, peakClaim, stackTraceBytes,
                    stackTrace, colorTotals, hasValueDetails, truncatedAt, format, jax, jaxlib, spaceNames);
        }
    }

    /** Made by {@link HloModuleBuilder#build}, the one way in. */
    HloModule(Info info, List<BufferAllocation> allocations, List<HloValue> values, List<String> sequence,
                     List<LoadWarning> warnings, int warningCount, Supplier<List<HeapEvent>> heapEvents,
                     UsedValues.Handle details) {
        this.info = info;
        this.heapEvents = new Lazy<>(() -> List.copyOf(heapEvents.get()));
        this.warningCount = Math.max(warningCount, warnings.size());
        this.allocations = List.copyOf(allocations);
        this.values = List.copyOf(values);
        this.sequence = List.copyOf(sequence);
        this.warnings = List.copyOf(warnings);
        this.details = details;
        details.bind(this.values, this.sequence);
        // Each allocation object read once (200,000 of them at a million values, each a cache miss).
        List<BufferAllocation> as = this.allocations;
        int count = as.size(), bound = 4 * count + 16, dense = 0;
        int[] indexes = new int[count];
        for (int i = 0; i < count; i++) {
            int x = indexes[i] = as.get(i).index();
            if (x >= 0 && x < bound) dense = Math.max(dense, x + 1);
        }
        this.allocationByIndex = new BufferAllocation[dense];
        Map<Integer, BufferAllocation> sparse = new HashMap<>();
        for (int i = 0; i < count; i++) {
            int x = indexes[i];
            if (x >= 0 && x < dense) allocationByIndex[x] = as.get(i);   // the last of a repeated index, as before
            else sparse.put(x, as.get(i));
        }
        this.sparseAllocations = sparse.isEmpty() ? Map.of() : sparse;
        int n = this.values.size();
        long[] keys = new long[n];
        int[] allocation = new int[n];
        List<HloValue> vs = this.values;
        ParallelPasses.run(n, (from, to) -> {
            for (int i = from; i < to; i++) {
                HloValue v = vs.get(i);
                keys[i] = v.id();
                allocation[i] = v.allocation();
            }
        });
        AllocationGroups groups = AllocationGroups.of(allocation);
        this.allocationKeys = groups.keys();
        this.allocationStart = groups.start();
        this.byAllocation = groups.members();
        this.byId = new Lazy<>(() -> IdIndex.of(keys));
        this.idsMayRepeat = IdIndex.anyShared(keys);
        this.derived = new Derived();
        this.firstTime = new Lazy<>(this::firstTimes);
        // By name only when a statement asks (a million-value module: half a second that `summary` never needs).
        this.valuesByName = new Lazy<>(this::valuesByName);
    }

    private NameIndex<Object> valuesByName() {
        NameIndex<Object> byName = new NameIndex<>(values.size());
        for (HloValue v : values) byName.merge(v.name(), v, HloModule::appendValue);
        return byName;
    }

    /** The values grouped by allocation, as the liveness sweep takes them (the index this module keeps, not a copy: read only). */
    public AllocationGroups allocationGroups() { return new AllocationGroups(allocationKeys, allocationStart, byAllocation); }

    public Info info() { return info; }
    public String handle() { return info.handle(); }
    public List<BufferAllocation> allocations() { return allocations; }
    public List<HloValue> values() { return values; }

    /**
     * Sequenced instructions in time order, then the others. Reads the Used values section if it is
     * not read yet (instructions print there).
     *
     * @throws PartReadException.Unchecked when that read fails
     */
    public List<HloInstruction> instructions() { return details.get().instructions(); }

    /**
     * How many {@link #instructions()} there are, without reading the Used values section when it is
     * not read yet: the scheduled steps, plus the unscheduled instructions that define values. XLA
     * prints a block for each value of the allocation section, and the instruction line of that block
     * defines the value's own name, so those are the names of values missing from the schedule.
     */
    public int instructionCount() {
        if (details.isRead()) return details.get().instructions().size();
        if (details.instructionCount() >= 0) return details.instructionCount();
        int steps = sequence.size();
        // Most values start at their own instruction's step: a look at the sequence settles them.
        // The others' names are looked for in one pass over the sequence (a table of those few
        // names, not one of every step's: a million-step module has a hundred thousand of them).
        List<String> names = new ArrayList<>();
        for (HloValue v : values) {
            int t = v.hasRange() ? v.rangeStart() : -1;
            if (t < 0 || t >= steps || !sequence.get(t).equals(v.name())) names.add(v.name());
        }
        if (names.isEmpty()) return steps;
        NameIndex<boolean[]> others = new NameIndex<>(names.size());
        int otherCount = 0;
        for (String name : names) {
            if (others.get(name) == null) {
                others.putIfAbsent(name, new boolean[1]);
                otherCount++;
            }
        }
        int scheduled = 0;
        for (String name : sequence) {
            boolean[] seen = others.get(name);
            if (seen != null && !seen[0]) { seen[0] = true; scheduled++; }
        }
        return steps + otherCount - scheduled;
    }

    /** Instruction names by time. */
    public List<String> sequence() { return sequence; }

    /**
     * The warnings kept in memory (the first ones; see {@link #warningCount()}) of the parts read so
     * far: a part read on first use adds its own then.
     */
    public List<LoadWarning> warnings() {
        if (details.warnings().isEmpty()) return warnings;
        List<LoadWarning> all = new ArrayList<>(warnings);
        all.addAll(details.warnings());
        return List.copyOf(all);
    }

    /** All warnings raised reading the parts read so far, including those not kept. */
    public int warningCount() { return warningCount + details.warningCount(); }

    /**
     * The handle to the Used values section: whether it is read ({@link UsedValues.Handle#isRead}),
     * reading it up front ({@link UsedValues.Handle#read}), and the warnings its read raised.
     */
    public UsedValues.Handle usedValues() { return details; }

    /** The heap-simulator trace in simulation order; empty unless read from a proto that has one. */
    public List<HeapEvent> heapEvents() { return heapEvents.get(); }

    /** The same module under another handle; it shares this one's lists and indexes (no rebuild). */
    public HloModule withHandle(String handle) {
        return new HloModule(this, info.withHandle(handle), warnings, warningCount);
    }

    /** The same module with the versions its dump records (a capture's); it shares this one's lists and indexes. */
    public HloModule withVersions(String jax, String jaxlib) { return new HloModule(this, info.withVersions(jax, jaxlib), warnings, warningCount); }

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
        this.sequence = m.sequence;
        this.details = m.details;
        this.warnings = warnings;
        this.warningCount = warningCount;
        this.heapEvents = m.heapEvents;
        this.byId = m.byId;
        this.idsMayRepeat = m.idsMayRepeat;
        this.valuesByName = m.valuesByName;
        this.allocationByIndex = m.allocationByIndex;
        this.sparseAllocations = m.sparseAllocations;
        this.allocationKeys = m.allocationKeys;
        this.allocationStart = m.allocationStart;
        this.byAllocation = m.byAllocation;
        this.derived = m.derived;
        this.firstTime = m.firstTime;
    }

    private static Object appendValue(Object old, Object v) {
        if (old instanceof HloValue h) return new HloValue[] {h, (HloValue) v};
        HloValue[] a = (HloValue[]) old;
        HloValue[] b = Arrays.copyOf(a, a.length + 1);
        b[a.length] = (HloValue) v;
        return b;
    }

    /**
     * Ids that head more than one block of the {@code Used values} section, with how many: a block
     * wrongly numbered gives its positions and uses to another value. Empty until the section is
     * read (this does not read it: statements on bytes alone leave it unread).
     */
    public Map<Long, Integer> blocksSharingAnId() { return details.isRead() ? details.get().sharedBlockIds() : Map.of(); }

    /**
     * Groups of values that share an id, in id order (a damaged dump: ids are unique in XLA's);
     * empty for a sound module. {@link #value} answers with the first of each group.
     */
    public List<List<HloValue>> valuesSharingAnId() {
        List<List<HloValue>> out = new ArrayList<>();
        if (!idsMayRepeat) return out;
        IdIndex index = byId.get();
        long[] idsSorted = index.ids();
        int[] idPositions = index.positions();
        for (int i = 1; i < idsSorted.length; i++) {
            if (idsSorted[i] != idsSorted[i - 1] || (i > 1 && idsSorted[i - 2] == idsSorted[i])) continue;
            List<HloValue> group = new ArrayList<>();
            for (int j = i - 1; j < idsSorted.length && idsSorted[j] == idsSorted[i]; j++) group.add(values.get(idPositions[j]));
            out.add(group);
        }
        return out;
    }

    /** Position of {@code v} (this very object) in {@link #values()}, or -1 when it is not one of them. */
    public int positionOf(HloValue v) {
        IdIndex index = byId.get();
        long[] idsSorted = index.ids();
        int[] idPositions = index.positions();
        int i = Arrays.binarySearch(idsSorted, v.id());
        if (i < 0) return -1;
        while (i > 0 && idsSorted[i - 1] == v.id()) i--;   // first of equal ids
        for (; i < idsSorted.length && idsSorted[i] == v.id(); i++) if (values.get(idPositions[i]) == v) return idPositions[i];
        return -1;
    }

    public HloValue value(long id) {
        IdIndex index = byId.get();
        long[] idsSorted = index.ids();
        int i = Arrays.binarySearch(idsSorted, id);
        if (i < 0) return null;
        while (i > 0 && idsSorted[i - 1] == id) i--;   // first of equal ids
        return values.get(index.positions()[i]);
    }

    /** Values defined by the named instruction (all its shape indices). */
    public List<HloValue> valuesNamed(String name) {
        Object o = valuesByName.get().get(name);
        if (o == null) return List.of();
        if (o instanceof HloValue h) return List.of(h);
        return List.of((HloValue[]) o);
    }

    /** The value with this (name, index) key, e.g. {@code fusion{0}} or {@code add.3{}}; a bare name means {@code {}}. */
    public HloValue valueByKey(String key) {
        int brace = key.endsWith("}") ? key.lastIndexOf('{') : -1;
        String name = brace < 0 ? key : key.substring(0, brace);
        String index = brace < 0 ? "{}" : key.substring(brace);
        Object o = valuesByName.get().get(name);
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
    /**
     * The named instruction, or null. Reads the Used values section if it is not read yet.
     *
     * @throws PartReadException.Unchecked when that read fails
     */
    public HloInstruction instruction(String name) { return details.get().instruction(name); }

    /**
     * Names of instructions that take {@code name} as an operand. Reads the Used values section if
     * it is not read yet.
     *
     * @throws PartReadException.Unchecked when that read fails
     */
    public List<String> users(String name) { return details.get().users(name); }

    /** Time of the named instruction in the sequence (its first step), or -1. */
    public int timeOf(String instruction) { return firstTime(instruction); }

    private int firstTime(String name) {
        Integer t = firstTime.get().get(name);
        return t == null ? -1 : t;
    }

    private NameIndex<Integer> firstTimes() {
        NameIndex<Integer> f = new NameIndex<>(sequence.size());
        for (int t = 0; t < sequence.size(); t++) f.putIfAbsent(sequence.get(t), t);
        return f;
    }

    /** Number of program points (0 when the dump has no schedule). */
    public int steps() { return info.maxTime() < 0 ? 0 : info.maxTime() + 1; }

    /**
     * Data a package above the model derives from this module ({@code bufq.analysis.liveness}: its liveness,
     * its index by time), computed once for this module and its copies under other handles.
     *
     * @param kind    the derived data's class, its key
     * @param compute makes it from this module when first asked; a failure is thrown and not kept
     */
    public <T> T derived(Class<T> kind, Function<HloModule, ? extends T> compute) {
        return derived.get(this, kind, compute);
    }

    /** Sum of allocation sizes. */
    public long totalBytes() {
        long s = 0;
        for (BufferAllocation a : allocations) s = Math.addExact(s, a.size());
        return s;
    }
}
