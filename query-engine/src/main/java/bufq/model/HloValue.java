package bufq.model;

import java.util.List;

/**
 * A value in the allocation section ({@code value: <id name{idx} @c> (size=,offset=): shape}) joined
 * with its Used-values block and its BufferLiveRange.
 *
 * @param index        canonical shape index, {@code "{}"} when none was printed
 * @param indexPrinted whether the dump printed the index (the defining instruction is tuple-shaped)
 * @param allocation   index of the allocation that holds it
 * @param positions    empty when the dump has no Used-values section
 * @param uses         empty when none or unknown
 * @param range        live range, or null (unsequenced values, dumps without live ranges)
 */
public record HloValue(long id, String name, String index, boolean indexPrinted, boolean phi, int color,
                       long size, long offset, int allocation, Shape shape, List<HloPosition> positions,
                       List<HloUse> uses, LiveRange range) {
    public HloValue {
        positions = List.copyOf(positions);
        uses = List.copyOf(uses);
    }

    /** The name as the allocation section prints it: {@code fusion{0}} or {@code add.3}. */
    public String label() { return indexPrinted ? name + index : name; }

    /** The (name, index) key that joins a value to its live range. */
    public String key() { return name + index; }

    public long logicalSize() { return shape.logicalBytes(); }
    public long paddedSize() { return shape.paddedBytes(); }
    public boolean liveAt(int t) { return range != null && range.liveAt(t); }

    public HloValue withRange(LiveRange r) {
        return new HloValue(id, name, index, indexPrinted, phi, color, size, offset, allocation, shape, positions, uses, r);
    }
}
