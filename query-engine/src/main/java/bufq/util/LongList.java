package bufq.util;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * An immutable {@code List<Long>} over a {@code long[]}: the reader stores value ids this way so a
 * module with 50,000 values does not hold 50,000 boxed Longs.
 */
public final class LongList extends AbstractList<Long> implements RandomAccess {
    private final long[] values;

    private LongList(long[] values) { this.values = values; }

    /** A list of a copy of {@code values}. */
    public static LongList of(long[] values) { return new LongList(values.clone()); }

    public long getLong(int i) { return values[i]; }
    @Override public Long get(int i) { return values[i]; }
    @Override public int size() { return values.length; }

    @Override public boolean contains(Object o) {
        if (!(o instanceof Long l)) return false;
        long v = l;
        for (long x : values) if (x == v) return true;
        return false;
    }

    @Override public int hashCode() { return super.hashCode(); }
    @Override public boolean equals(Object o) {
        if (o instanceof LongList other) return Arrays.equals(values, other.values);
        return super.equals(o);
    }
}
