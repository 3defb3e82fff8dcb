package bufq.dump;

import bufq.model.Shape;

import java.util.Arrays;

/**
 * The value lines of an allocation section as columns: the assembler makes each
 * {@link bufq.model.HloValue} once, already joined, instead of a first copy per line and a second
 * at the join (at a million values the first copies alone kept the collector busy for seconds).
 */
final class RawValues {
    int size;
    long[] id = new long[16];
    String[] name = new String[16];
    /** The name's symbol in the module's {@link Interner}: the join with the live ranges is by it. */
    int[] symbol = new int[16];
    /** Canonical index; {@code "{}"} when none was printed. */
    String[] index = new String[16];
    boolean[] indexPrinted = new boolean[16];
    boolean[] phi = new boolean[16];
    int[] color = new int[16];
    long[] bytes = new long[16];
    long[] offset = new long[16];
    int[] allocation = new int[16];
    Shape[] shape = new Shape[16];

    void add(long id, String name, int symbol, String index, boolean indexPrinted, boolean phi, int color, long bytes,
             long offset, int allocation, Shape shape) {
        if (size == this.id.length) grow();
        int i = size++;
        this.id[i] = id;
        this.name[i] = name;
        this.symbol[i] = symbol;
        this.index[i] = index;
        this.indexPrinted[i] = indexPrinted;
        this.phi[i] = phi;
        this.color[i] = color;
        this.bytes[i] = bytes;
        this.offset[i] = offset;
        this.allocation[i] = allocation;
        this.shape[i] = shape;
    }

    private void grow() {
        int n = id.length * 2;
        id = Arrays.copyOf(id, n);
        name = Arrays.copyOf(name, n);
        symbol = Arrays.copyOf(symbol, n);
        index = Arrays.copyOf(index, n);
        indexPrinted = Arrays.copyOf(indexPrinted, n);
        phi = Arrays.copyOf(phi, n);
        color = Arrays.copyOf(color, n);
        bytes = Arrays.copyOf(bytes, n);
        offset = Arrays.copyOf(offset, n);
        allocation = Arrays.copyOf(allocation, n);
        shape = Arrays.copyOf(shape, n);
    }
}
