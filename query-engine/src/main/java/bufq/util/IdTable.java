package bufq.util;

/**
 * Long ids to ints over {@link HashSlots} (the int is the slot's own) and one array of keys,
 * without a boxed key or an entry object each: the text reader joins a million Used-values blocks
 * to their values with it, the proto reader numbers instruction, computation and logical-buffer
 * ids. XLA's instruction ids carry their computation in the upper 32 bits, which
 * {@code Long.hashCode} folds onto the lower ones (a {@code HashMap<Long, Integer>} of them chains);
 * the multiplicative mix here, folded, spreads both those and sequential value ids. Any long is a
 * key. Not thread-safe.
 */
public final class IdTable {
    private HashSlots slots;
    private long[] keys;

    public IdTable(int expected) {
        slots = HashSlots.forKeys(expected);
        keys = new long[slots.capacity()];
    }

    private static int hash(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** The slot of {@code id}, or {@code ~} the free slot where it would go. */
    private int slot(long id, int h) {
        int i = slots.first(h);
        while (i >= 0 && keys[i] != id) i = slots.next(i, h);
        return i;
    }

    /** Maps {@code id} to {@code v}, replacing what was there. */
    public void put(long id, int v) {
        int h = hash(id);
        int i = slot(id, h);
        if (i >= 0) {
            slots.setValue(i, v);
            return;
        }
        keys[~i] = id;
        if (slots.claim(~i, h, v)) {
            long[] old = keys, bigger = new long[old.length * 2];
            slots = slots.grow((from, to) -> bigger[to] = old[from]);
            keys = bigger;
        }
    }

    /** What {@code id} maps to, or -1 when nothing. */
    public int get(long id) {
        int i = slot(id, hash(id));
        return i < 0 ? -1 : slots.value(i);
    }

    /** Like {@link #get}, then maps the id to -1: each block joins one value, as a removal from a map would. */
    public int take(long id) {
        int i = slot(id, hash(id));
        if (i < 0) return -1;
        int v = slots.value(i);
        slots.setValue(i, -1);
        return v;
    }
}
