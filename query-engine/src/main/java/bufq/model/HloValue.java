package bufq.model;

import java.util.List;
import java.util.Objects;

/**
 * A value in the allocation section ({@code value: <id name{idx} @c> (size=,offset=): shape}) joined
 * with its Used-values block and its BufferLiveRange. Immutable.
 *
 * <p>A module holds a million of these, so the common cases are stored without objects of their
 * own: the live range as two ints, the single position a value usually has (its own instruction
 * and index) as nothing, a single use as the use itself. The accessors give the same lists either
 * way. (It was a record; the accessors, constructor, equality and text are as they were.)
 */
public final class HloValue {
    private static final int INDEX_PRINTED = 1, PHI = 2, HAS_RANGE = 4;

    private final long id;
    private final long size;
    private final long offset;
    private final String name;
    private final String index;
    private final Shape shape;
    private final Object positions;   // List<HloPosition>, null for the one default position, or the module's Details
    private final Object uses;        // List<HloUse>, or one HloUse; null when positions is deferred
    private final int color;
    private final int allocation;
    private final int start, end;
    private final int slot;           // position in the module's values, where a deferred section keeps its details
    private final byte flags;

    /**
     * @param index        canonical shape index, {@code "{}"} when none was printed
     * @param indexPrinted whether the dump printed the index (the defining instruction is tuple-shaped)
     * @param allocation   index of the allocation that holds it
     * @param positions    empty when the dump has no Used-values section
     * @param uses         empty when none or unknown
     * @param range        live range, or null (unsequenced values, dumps without live ranges)
     */
    public HloValue(long id, String name, String index, boolean indexPrinted, boolean phi, int color,
                    long size, long offset, int allocation, Shape shape, List<HloPosition> positions,
                    List<HloUse> uses, LiveRange range) {
        this(id, name, index, color, size, offset, allocation, shape, packPositions(positions, name, index), packUses(uses),
                range == null ? 0 : range.start(), range == null ? -1 : range.end(), -1, flags(indexPrinted, phi, range));
    }

    /**
     * A value whose positions and uses are in its module's Used values section, read on first use:
     * {@code slot} is the value's position in the module's list of values.
     */
    public static HloValue deferred(long id, String name, String index, boolean indexPrinted, boolean phi, int color,
                                    long size, long offset, int allocation, Shape shape, LiveRange range,
                                    Details details, int slot) {
        return deferred(id, name, index, indexPrinted, phi, color, size, offset, allocation, shape,
                range == null ? NO_RANGE : packRange(range.start(), range.end()), details, slot);
    }

    /** As {@link #deferred(long, String, String, boolean, boolean, int, long, long, int, Shape, LiveRange, Details, int)}, the range packed by {@link #packRange} or {@link #NO_RANGE}. */
    public static HloValue deferred(long id, String name, String index, boolean indexPrinted, boolean phi, int color,
                                    long size, long offset, int allocation, Shape shape, long packedRange,
                                    Details details, int slot) {
        boolean ranged = packedRange != NO_RANGE;
        return new HloValue(id, name, index, color, size, offset, allocation, shape, Objects.requireNonNull(details), null,
                ranged ? (int) (packedRange >> 32) : 0, ranged ? (int) packedRange : -1, slot, flags(indexPrinted, phi, ranged));
    }

    /**
     * Where a deferred value's positions and uses are: its module's Used values section, read on the
     * first ask ({@link UsedValues.Handle}, the one kind). Declared here so that a value needs
     * nothing of the section beyond these two questions; only the model can make one.
     */
    public abstract static class Details {
        Details() {}

        /** The positions of the value at {@code slot} of the module's values, {@code v} itself. */
        abstract List<HloPosition> positions(int slot, HloValue v);

        /** The uses of the value at {@code slot}. */
        abstract List<HloUse> uses(int slot);
    }

    /** No live range, for {@link #deferred(long, String, String, boolean, boolean, int, long, long, int, Shape, long, Details, int)}. */
    public static final long NO_RANGE = Long.MIN_VALUE;

    /** A live range {@code [start, end]} as one long (no object per value when a reader joins a million). */
    public static long packRange(int start, int end) {
        return (long) start << 32 | (end & 0xFFFFFFFFL);
    }

    private static byte flags(boolean indexPrinted, boolean phi, LiveRange range) {
        return flags(indexPrinted, phi, range != null);
    }

    private static byte flags(boolean indexPrinted, boolean phi, boolean ranged) {
        return (byte) ((indexPrinted ? INDEX_PRINTED : 0) | (phi ? PHI : 0) | (ranged ? HAS_RANGE : 0));
    }

    private HloValue(long id, String name, String index, int color, long size, long offset, int allocation, Shape shape,
                     Object positions, Object uses, int start, int end, int slot, byte flags) {
        this.id = id;
        this.name = name;
        this.index = index;
        this.color = color;
        this.size = size;
        this.offset = offset;
        this.allocation = allocation;
        this.shape = shape;
        this.positions = positions;
        this.uses = uses;
        this.start = start;
        this.end = end;
        this.slot = slot;
        this.flags = flags;
    }

    /** Positions as stored: null for the usual single one (the value's own instruction and index). */
    static Object packPositions(List<HloPosition> positions, String name, String index) {
        if (positions.size() == 1 && isDefault(positions.get(0), name, index)) return null;
        return List.copyOf(positions);
    }

    @SuppressWarnings("unchecked")
    static List<HloPosition> unpackPositions(Object packed, String name, String index) {
        return packed == null ? List.of(new HloPosition(name, index)) : (List<HloPosition>) packed;
    }

    /** Uses as stored: a single use as itself. */
    static Object packUses(List<HloUse> uses) {
        return uses.size() == 1 ? Objects.requireNonNull(uses.get(0)) : List.copyOf(uses);
    }

    @SuppressWarnings("unchecked")
    static List<HloUse> unpackUses(Object packed) {
        return packed instanceof HloUse u ? List.of(u) : (List<HloUse>) packed;
    }

    private static boolean isDefault(HloPosition p, String name, String index) {
        return p != null && p.instruction().equals(name) && p.index().equals(index);
    }

    public long id() { return id; }
    public String name() { return name; }
    /** Canonical shape index, {@code "{}"} when none was printed. */
    public String index() { return index; }
    /** Whether the dump printed the index (the defining instruction is tuple-shaped). */
    public boolean indexPrinted() { return (flags & INDEX_PRINTED) != 0; }
    public boolean phi() { return (flags & PHI) != 0; }
    public int color() { return color; }
    public long size() { return size; }
    public long offset() { return offset; }
    /** Index of the allocation that holds it. */
    public int allocation() { return allocation; }
    public Shape shape() { return shape; }

    /**
     * Where the value appears; empty when the dump has no Used-values section. Reads the module's
     * Used values section if it is not read yet.
     *
     * @throws PartReadException.Unchecked when that read fails (cancelled, or the file changed)
     */
    public List<HloPosition> positions() {
        if (positions instanceof Details d) return d.positions(slot, this);
        return unpackPositions(positions, name, index);
    }

    /**
     * Reads of the value; empty when none or unknown. Reads the module's Used values section if it
     * is not read yet.
     *
     * @throws PartReadException.Unchecked when that read fails (cancelled, or the file changed)
     */
    public List<HloUse> uses() {
        if (positions instanceof Details d) return d.uses(slot);
        return unpackUses(uses);
    }

    /** Live range, or null (unsequenced values, dumps without live ranges). */
    public LiveRange range() { return hasRange() ? new LiveRange(start, end) : null; }
    public boolean hasRange() { return (flags & HAS_RANGE) != 0; }
    /** First step of the live range; meaningful only when {@link #hasRange()}. */
    public int rangeStart() { return start; }
    /** Last step of the live range (inclusive); meaningful only when {@link #hasRange()}. */
    public int rangeEnd() { return end; }

    /** The name as the allocation section prints it: {@code fusion{0}} or {@code add.3}. */
    public String label() { return indexPrinted() ? name + index : name; }

    /** The (name, index) key that joins a value to its live range. */
    public String key() { return name + index; }

    public long logicalSize() { return shape.logicalBytes(); }
    public long paddedSize() { return shape.paddedBytes(); }
    public boolean liveAt(int t) { return hasRange() && start <= t && t <= end; }

    /** The same value with another live range; a deferred section stays deferred. */
    public HloValue withRange(LiveRange r) {
        int f = (flags & ~HAS_RANGE) | (r != null ? HAS_RANGE : 0);
        return new HloValue(id, name, index, color, size, offset, allocation, shape, positions, uses,
                r == null ? 0 : r.start(), r == null ? -1 : r.end(), slot, (byte) f);
    }

    @Override public boolean equals(Object o) {
        return o instanceof HloValue v && id == v.id && size == v.size && offset == v.offset && color == v.color
                && allocation == v.allocation && flags == v.flags && start == v.start && end == v.end
                && name.equals(v.name) && index.equals(v.index) && Objects.equals(shape, v.shape)
                && positions().equals(v.positions()) && uses().equals(v.uses());
    }

    @Override public int hashCode() {
        return Objects.hash(id, name, index, color, size, offset, allocation, shape, start, end, flags);
    }

    @Override public String toString() {
        return "HloValue[id=" + id + ", name=" + name + ", index=" + index + ", indexPrinted=" + indexPrinted()
                + ", phi=" + phi() + ", color=" + color + ", size=" + size + ", offset=" + offset + ", allocation="
                + allocation + ", shape=" + shape + ", positions=" + positions() + ", uses=" + uses() + ", range="
                + range() + "]";
    }
}
