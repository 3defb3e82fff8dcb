package bufq.dump.proto;

import bufq.util.HashSlots;

import java.util.Arrays;

/**
 * Values by a span of one proto's bytes, over {@link HashSlots} (a slot's int: where the span
 * starts): a span of the same bytes, anywhere in the array, finds the value put for the first. The
 * reader keeps its repeated strings and its shapes in them, read once each.
 */
final class SpanTable<T> {
    private final byte[] bytes;
    private HashSlots slots;
    private Object[] values;
    private int[] lengths;

    SpanTable(byte[] bytes, int expected) {
        this.bytes = bytes;
        slots = HashSlots.forKeys(expected);
        values = new Object[slots.capacity()];
        lengths = new int[slots.capacity()];
    }

    /** The array whose spans this holds. */
    byte[] bytes() { return bytes; }

    private int hash(int at, int n) {
        int h = n;
        for (int i = at; i < at + n; i++) h = 31 * h + bytes[i];
        return h;
    }

    /** The value put for the bytes of {@code [at, at + n)}, or null. */
    @SuppressWarnings("unchecked")
    T get(int at, int n) {
        int h = hash(at, n);
        for (int i = slots.first(h); i >= 0; i = slots.next(i, h)) {
            int from = slots.value(i);
            if (lengths[i] == n && Arrays.equals(bytes, from, from + n, bytes, at, at + n)) return (T) values[i];
        }
        return null;
    }

    /** Puts {@code v} for the bytes of {@code [at, at + n)}, which {@link #get} found nothing for. */
    void put(int at, int n, T v) {
        int h = hash(at, n);
        int i = slots.first(h);
        while (i >= 0) i = slots.next(i, h);
        values[~i] = v;
        lengths[~i] = n;
        if (slots.claim(~i, h, at)) {
            Object[] ov = values, nv = new Object[ov.length * 2];
            int[] ol = lengths, nl = new int[ol.length * 2];
            slots = slots.grow((from, to) -> {
                nv[to] = ov[from];
                nl[to] = ol[from];
            });
            values = nv;
            lengths = nl;
        }
    }
}
