package bufq.dump.proto;

/**
 * Proto ids (instruction, computation, logical buffer) to dense numbers, without boxing. XLA's
 * unique ids carry the computation in their upper 32 bits, which {@code Long.hashCode} folds onto
 * the lower ones: a {@code HashMap<Long, Integer>} of a module's instructions collides in long
 * chains. Open addressing with a multiplicative mix spreads them. Not thread-safe.
 */
final class LongIndex {
    private long[] keys;
    private int[] vals;           // value + 1; 0 marks an empty slot
    private int size;

    LongIndex(int expected) {
        int cap = 16;
        while (cap < expected * 2L) cap <<= 1;
        keys = new long[cap];
        vals = new int[cap];
    }

    private static int slot(long[] keys, int[] vals, long key) {
        int mask = keys.length - 1;
        long h = (key ^ (key >>> 29)) * 0xBF58476D1CE4E5B9L;   // splitmix64's finalizer
        h = (h ^ (h >>> 32)) * 0x94D049BB133111EBL;
        int i = (int) (h ^ (h >>> 31)) & mask;
        while (vals[i] != 0 && keys[i] != key) i = (i + 1) & mask;
        return i;
    }

    /** Maps {@code key} to {@code v} (non-negative), replacing what was there. */
    void put(long key, int v) {
        int i = slot(keys, vals, key);
        if (vals[i] == 0 && ++size * 2 > keys.length) {
            grow();
            i = slot(keys, vals, key);
        }
        keys[i] = key;
        vals[i] = v + 1;
    }

    /** The number of {@code key}, or -1. */
    int get(long key) {
        return vals[slot(keys, vals, key)] - 1;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldVals = vals;
        keys = new long[oldKeys.length * 2];
        vals = new int[oldKeys.length * 2];
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldVals[j] == 0) continue;
            int i = slot(keys, vals, oldKeys[j]);
            keys[i] = oldKeys[j];
            vals[i] = oldVals[j];
        }
    }
}
