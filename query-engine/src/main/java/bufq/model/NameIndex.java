package bufq.model;

import java.util.function.BinaryOperator;

/**
 * A string-keyed table built once: open addressing over three arrays (keys, their hashes, values),
 * about 16 bytes an entry where a HashMap takes 40. The model's per-name indexes use it so a loaded module stays small.
 * Not thread-safe while being filled; read-only (and safe to share) afterwards.
 */
final class NameIndex<V> {
    private final String[] keys;
    private final int[] hashes;   // compared before a key is read: a probe past other keys costs no cache miss each
    private final Object[] vals;
    private int size;

    NameIndex(int expected) {
        int cap = 16;
        while (cap < expected * 3L / 2 + 1) cap <<= 1;
        keys = new String[cap];
        hashes = new int[cap];
        vals = new Object[cap];
    }

    private int slot(String key, int h) {
        int mask = keys.length - 1;
        // Multiplicative spreading: names that differ in trailing digits have hashes in sequence.
        int i = (h * 0x9E3779B9) >>> (32 - Integer.numberOfTrailingZeros(keys.length));
        // Keys are mostly the reader's interned instances: most compares are by identity.
        for (String k; (k = keys[i]) != null; i = (i + 1) & mask) {
            if (k == key || (hashes[i] == h && k.equals(key))) return i;
        }
        return i;
    }

    /** Puts {@code v}, or {@code merge(old, v)} when the key is there. */
    @SuppressWarnings("unchecked")
    void merge(String key, V v, BinaryOperator<V> merge) {
        int h = key.hashCode();
        int i = slot(key, h);
        if (keys[i] == null) {
            if ((size + 1) * 4L > keys.length * 3L) throw new IllegalStateException("NameIndex sized too small");
            keys[i] = key;
            hashes[i] = h;
            vals[i] = v;
            size++;
        } else {
            vals[i] = merge.apply((V) vals[i], v);
        }
    }

    void putIfAbsent(String key, V v) {
        int h = key.hashCode();
        int i = slot(key, h);
        if (keys[i] != null) return;
        if ((size + 1) * 4L > keys.length * 3L) throw new IllegalStateException("NameIndex sized too small");
        keys[i] = key;
        hashes[i] = h;
        vals[i] = v;
        size++;
    }

    @SuppressWarnings("unchecked")
    V get(String key) {
        int i = slot(key, key.hashCode());
        return keys[i] == null ? null : (V) vals[i];
    }

    int size() { return size; }
}
