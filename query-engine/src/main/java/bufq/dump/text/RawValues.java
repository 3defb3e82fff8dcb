package bufq.dump.text;

import bufq.model.Shape;

import java.util.Arrays;

/**
 * The value lines of an allocation section as columns: the assembler makes each
 * {@link bufq.model.HloValue} once, already joined, instead of a first copy per line and a second
 * at the join (at a million values the first copies alone kept the collector busy for seconds).
 */
public final class RawValues {
    public int size;
    public long[] id;
    public String[] name;
    /** The name's symbol in the module's {@link Interner}: the join with the live ranges is by it. */
    public int[] symbol;
    /** Canonical index; {@code "{}"} when none was printed. */
    public String[] index;
    public boolean[] indexPrinted;
    public boolean[] phi;
    public int[] color;
    public long[] bytes;
    public long[] offset;
    public int[] allocation;
    public Shape[] shape;

    RawValues() { this(16); }

    /** @param expected the values expected (a region's size over a value line's): no growing and copying on the way */
    RawValues(int expected) {
        int n = Math.max(16, expected);
        id = new long[n];
        name = new String[n];
        symbol = new int[n];
        index = new String[n];
        indexPrinted = new boolean[n];
        phi = new boolean[n];
        color = new int[n];
        bytes = new long[n];
        offset = new long[n];
        allocation = new int[n];
        shape = new Shape[n];
    }

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
