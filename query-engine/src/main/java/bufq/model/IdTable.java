package bufq.model;

import java.util.Arrays;

/**
 * Long ids to ints, open addressing over two primitive arrays, without a boxed key or an entry
 * object each: the text reader joins a million Used-values blocks to their values with it, the
 * proto reader numbers instruction, computation and logical-buffer ids. XLA's instruction ids
 * carry their computation in the upper 32 bits, which {@code Long.hashCode} folds onto the lower
 * ones (a {@code HashMap<Long, Integer>} of them chains); the multiplicative mix here, folded,
 * spreads both those and sequential value ids. Any long is a key. Not thread-safe.
 */
public final class IdTable {
    private static final long EMPTY = Long.MIN_VALUE;
    private long[] keys;
    private int[] vals;
    private int size;
    // Long.MIN_VALUE marks free slots, so that one key is kept aside.
    private boolean hasMinKey;
    private int minKeyValue;

    public IdTable(int expected) {
        int cap = 16;
        while (cap < expected * 2L) cap <<= 1;
        keys = new long[cap];
        vals = new int[cap];
        Arrays.fill(keys, EMPTY);
    }

    private static int slot(long[] keys, long key) {
        int mask = keys.length - 1;
        long h = key * 0x9E3779B97F4A7C15L;
        int i = (int) (h ^ (h >>> 32)) & mask;
        while (keys[i] != EMPTY && keys[i] != key) i = (i + 1) & mask;
        return i;
    }

    /** Maps {@code id} to {@code v}, replacing what was there. */
    public void put(long id, int v) {
        if (id == EMPTY) {
            hasMinKey = true;
            minKeyValue = v;
            return;
        }
        int i = slot(keys, id);
        if (keys[i] == EMPTY) {
            keys[i] = id;
            if (++size * 2 > keys.length) { vals[i] = v; grow(); return; }
        }
        vals[i] = v;
    }

    /** What {@code id} maps to, or -1 when nothing. */
    public int get(long id) {
        if (id == EMPTY) return hasMinKey ? minKeyValue : -1;
        int i = slot(keys, id);
        return keys[i] == EMPTY ? -1 : vals[i];
    }

    /** Like {@link #get}, then maps the id to -1: each block joins one value, as a removal from a map would. */
    public int take(long id) {
        if (id == EMPTY) {
            int v = hasMinKey ? minKeyValue : -1;
            minKeyValue = -1;
            return v;
        }
        int i = slot(keys, id);
        if (keys[i] == EMPTY) return -1;
        int v = vals[i];
        vals[i] = -1;
        return v;
    }

    private void grow() {
        long[] ok = keys;
        int[] ov = vals;
        keys = new long[ok.length * 2];
        vals = new int[ok.length * 2];
        Arrays.fill(keys, EMPTY);
        for (int j = 0; j < ok.length; j++) {
            if (ok[j] == EMPTY) continue;
            int i = slot(keys, ok[j]);
            keys[i] = ok[j];
            vals[i] = ov[j];
        }
    }
}
