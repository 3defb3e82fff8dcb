package bufq.model;

import bufq.util.LongList;
import java.util.List;

/**
 * One {@code allocation i: size N, ...} line with its flags in XLA's fixed order.
 *
 * @param parameter     entry parameter number, or -1
 * @param parameterShape shape printed after {@code shape |...|} for parameters, else null
 * @param shapeIndex    ShapeIndex of a parameter allocation ({@code "{}"}), else null
 * @param outputShape   shape from {@code output shape is |...|}, else null
 * @param pointer       TF-era address ({@code 0x55d0...}), else null
 * @param sizeExact     false when the size comes from a memory usage report's rounded figure
 * @param valueIds      ids of the values assigned here, in dump order
 */
public record BufferAllocation(int index, long size, int color, int parameter, Shape parameterShape,
                               String shapeIndex, Shape outputShape, boolean constant, boolean threadLocal,
                               boolean maybeLiveOut, boolean preallocatedTemp, String pointer,
                               boolean sizeExact, List<Long> valueIds) {
    public BufferAllocation {
        valueIds = valueIds instanceof LongList ? valueIds : List.copyOf(valueIds);  // LongList is immutable
    }

    public boolean isParameter() { return parameter >= 0; }
    public boolean isOutput() { return outputShape != null; }

    /** True for plain temporaries (XLA's "temp" allocations: none of the other kinds). */
    public boolean isTemp() {
        return preallocatedTemp || (!isParameter() && !constant && !threadLocal && !maybeLiveOut && !isOutput());
    }

    /** One word for the allocation's role, most specific first. */
    public String kind() {
        if (isParameter()) return maybeLiveOut ? "parameter-live-out" : "parameter";
        if (constant) return "constant";
        if (threadLocal) return "thread-local";
        if (isOutput()) return "output";
        if (maybeLiveOut) return "live-out";
        return "temp";
    }
}
